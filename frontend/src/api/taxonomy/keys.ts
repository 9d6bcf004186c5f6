/** The three kinds of taxa: categories, performers and tags. */
export type TaxonKind = 'categories' | 'performers' | 'tags';

/**
 * The kinds an admin creates by name (POST /api/categories, /api/performers) and picks from a fixed list; tags
 * are made by naming them on a video (POST /api/admin/update-video creates the new ones).
 */
export type CreatableTaxonKind = Exclude<TaxonKind, 'tags'>;

/**
 * Each kind's list under ['taxonomy', kind] (['taxonomy'] covers them all); one tag looked up by the id in its
 * address under the tags' list (so that whatever refreshes the list refreshes it too); the tag synonyms apart.
 */
export const taxonomyKeys = {
  all: ['taxonomy'] as const,
  list: (kind: TaxonKind) => ['taxonomy', kind] as const,
  tag: (id: string) => ['taxonomy', 'tags', id] as const,
  tagSynonyms: ['taxonomy', 'tag-synonyms'] as const,
};
