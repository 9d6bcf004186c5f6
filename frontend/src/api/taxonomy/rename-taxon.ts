import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { videoKeys } from '../videos/keys';
import type { TaxonKind } from './get-taxa';
import { taxonomyKeys } from './keys';

/**
 * PATCH /api/admin/categories/{id}, /api/admin/performers/{id} or /api/admin/tags/{id} with `{name}`: 200
 * `{id, name}`, the id (and so the page's address) unchanged. 400 for an empty or invalid name, 404 for an
 * unknown id, 409 when another one has that name.
 */
export const renameTaxon = (kind: TaxonKind, id: string, name: string) => {
  const init = { params: { path: { id } }, body: { name } };
  switch (kind) {
    case 'categories':
      return ok(api.PATCH('/api/admin/categories/{id}', init));
    case 'performers':
      return ok(api.PATCH('/api/admin/performers/{id}', init));
    case 'tags':
      return ok(api.PATCH('/api/admin/tags/{id}', init));
  }
};

export function useRenameTaxon(kind: TaxonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameTaxon(kind, id, name),
    onSuccess: () => {
      // The tags' list covers each tag looked up by id (taxonomyKeys.tag).
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.list(kind) });
      // The synonyms name the tag they lead to.
      if (kind === 'tags') void queryClient.invalidateQueries({ queryKey: taxonomyKeys.tagSynonyms });
      // Videos carry the names of their categories, performers and tags.
      void queryClient.invalidateQueries({ queryKey: videoKeys.details });
    },
  });
}
