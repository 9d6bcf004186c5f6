import type { TaxonKind } from './get-taxa';

/** Categories and performers, each list under ['taxonomy', kind]; ['taxonomy'] covers both. */
export const taxonomyKeys = {
  all: ['taxonomy'] as const,
  list: (kind: TaxonKind) => ['taxonomy', kind] as const,
};
