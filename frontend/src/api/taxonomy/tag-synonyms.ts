import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { videoKeys } from '../videos/keys';
import { taxonomyKeys } from './keys';

/** GET /api/admin/tag-synonyms (admin): every synonym, `{alias, tag: {id, name}}`, by alias. */
export const getTagSynonyms = (signal?: AbortSignal) => ok(api.GET('/api/admin/tag-synonyms', { signal }));

export const tagSynonymsQueryOptions = () =>
  queryOptions({
    queryKey: taxonomyKeys.tagSynonyms,
    queryFn: ({ signal }) => getTagSynonyms(signal),
  });

export const useTagSynonyms = () => useQuery(tagSynonymsQueryOptions());

/**
 * POST /api/admin/tag-synonyms `{alias, tag}` (admin): 201 `{alias, tag, merged}`. The alias is a name or an id
 * (its slug is kept); a tag that exists under it is merged into `tag` (its videos get `tag`, `merged` counts
 * them); an alias that was a synonym already now leads to `tag`. 404 for an unknown tag, 400 for an alias the
 * slug rule empties or one that is the tag's own id.
 */
export const addTagSynonym = (alias: string, tag: string) =>
  ok(api.POST('/api/admin/tag-synonyms', { body: { alias, tag } }));

/** DELETE /api/admin/tag-synonyms/{alias} (admin): 204; videos merged by it keep the tag. 404 for none. */
export const removeTagSynonym = (alias: string) =>
  ok(api.DELETE('/api/admin/tag-synonyms/{alias}', { params: { path: { alias } } }));

/** What a synonym changes: the synonyms, the tags (a merged tag goes, counts move, /tags/{alias} answers), videos. */
function useInvalidateSynonyms() {
  const queryClient = useQueryClient();
  return (merged: boolean) => {
    void queryClient.invalidateQueries({ queryKey: taxonomyKeys.tagSynonyms });
    void queryClient.invalidateQueries({ queryKey: taxonomyKeys.list('tags') });
    void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
    if (merged) void queryClient.invalidateQueries({ queryKey: videoKeys.details });
  };
}

export function useAddTagSynonym() {
  const invalidate = useInvalidateSynonyms();
  return useMutation({
    mutationFn: ({ alias, tag }: { alias: string; tag: string }) => addTagSynonym(alias, tag),
    onSuccess: (added) => invalidate(added.merged > 0),
  });
}

export function useRemoveTagSynonym() {
  const invalidate = useInvalidateSynonyms();
  return useMutation({
    mutationFn: removeTagSynonym,
    onSettled: () => invalidate(false),
  });
}
