import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { TaxonList } from '@/lib/api/types';
import { videoKeys } from '../videos/keys';
import { taxonomyKeys } from './keys';

/** DELETE /api/admin/tags/{id} (admin): 204; the tag leaves every video, with its synonyms. 404 for an unknown id. */
export const deleteTag = (id: string) => ok(api.DELETE('/api/admin/tags/{id}', { params: { path: { id } } }));

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: (_none, id) => {
      // Gone from the list at once (the admin's page then moves the focus on); read again below.
      queryClient.setQueryData<TaxonList>(taxonomyKeys.list('tags'), (list) => list && { ...list, data: list.data.filter((tag) => tag.id !== id) });
    },
    onSettled: () => {
      // Read again after a 404 too: it was gone already (removed in another tab), and the list should say so.
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.list('tags') });
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.tagSynonyms });
      // The videos that had it, and its listing.
      void queryClient.invalidateQueries({ queryKey: videoKeys.details });
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
    },
  });
}
