import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { type TaxonKind, taxonomyKeys } from './keys';

/** Categories and performers share one shape and one set of routes: `/api/categories`, `/api/performers`. */
export type { TaxonKind };

/** GET /api/categories or /api/performers. */
export const getTaxa = (kind: TaxonKind, signal?: AbortSignal) =>
  ok(kind === 'categories' ? api.GET('/api/categories', { signal }) : api.GET('/api/performers', { signal }));

export const taxaQueryOptions = (kind: TaxonKind) =>
  queryOptions({
    queryKey: taxonomyKeys.list(kind),
    queryFn: ({ signal }) => getTaxa(kind, signal),
    staleTime: 60_000,
  });

export const useTaxa = (kind: TaxonKind) => useQuery(taxaQueryOptions(kind));
