import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { taxonomyKeys } from './keys';

/**
 * GET /api/tags/{id}: one tag with its count of published videos. A synonym answers as the tag it was merged
 * into, so the answer's id can differ from the one asked for (the tag page then moves to the tag's own address);
 * 404 for neither.
 */
export const getTag = (id: string, signal?: AbortSignal) =>
  ok(api.GET('/api/tags/{id}', { params: { path: { id } }, signal }));

export const tagQueryOptions = (id: string) =>
  queryOptions({
    queryKey: taxonomyKeys.tag(id),
    queryFn: ({ signal }) => getTag(id, signal),
    staleTime: 60_000,
  });

export const useTag = (id: string) => useQuery(tagQueryOptions(id));
