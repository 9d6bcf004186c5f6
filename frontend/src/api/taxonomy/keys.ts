/** The two kinds of taxa. */
export type TaxonKind = 'categories' | 'performers';

/** Categories and performers, each list under ['taxonomy', kind]; ['taxonomy'] covers both. */
export const taxonomyKeys = {
  all: ['taxonomy'] as const,
  list: (kind: TaxonKind) => ['taxonomy', kind] as const,
};
