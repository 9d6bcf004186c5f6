import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { type CreatableTaxonKind, type TaxonKind, taxonomyKeys } from './keys';

/** Categories, performers and tags share one shape: `/api/categories`, `/api/performers`, `/api/tags`. */
export type { CreatableTaxonKind, TaxonKind };

/** GET /api/categories, /api/performers or /api/tags (every tag by name, synonyms left out). */
export const getTaxa = (kind: TaxonKind, signal?: AbortSignal) => {
  switch (kind) {
    case 'categories':
      return ok(api.GET('/api/categories', { signal }));
    case 'performers':
      return ok(api.GET('/api/performers', { signal }));
    case 'tags':
      return ok(api.GET('/api/tags', { signal }));
  }
};

export const taxaQueryOptions = (kind: TaxonKind) =>
  queryOptions({
    queryKey: taxonomyKeys.list(kind),
    queryFn: ({ signal }) => getTaxa(kind, signal),
    staleTime: 60_000,
  });

export const useTaxa = (kind: TaxonKind) => useQuery(taxaQueryOptions(kind));
