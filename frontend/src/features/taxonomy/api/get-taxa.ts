import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { TaxonList } from '@/lib/api/types';

/** Categories and performers share one shape and one set of routes: `/api/categories`, `/api/performers`. */
export type TaxonKind = 'categories' | 'performers';

export const getTaxa = (kind: TaxonKind, signal?: AbortSignal) => api.get<TaxonList>(`/api/${kind}`, { signal });

export const taxaQueryOptions = (kind: TaxonKind) =>
  queryOptions({
    queryKey: ['taxonomy', kind],
    queryFn: ({ signal }) => getTaxa(kind, signal),
    staleTime: 60_000,
  });

export const useTaxa = (kind: TaxonKind) => useQuery(taxaQueryOptions(kind));
