import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { videoKeys } from '../videos/keys';
import type { TaxonKind } from './get-taxa';
import { taxonomyKeys } from './keys';

/**
 * PATCH /api/admin/categories/{id} or /api/admin/performers/{id} with `{name}`: 200 `{id, name}`, the id
 * unchanged. 400 for an empty or invalid name, 404 for an unknown id, 409 when another one has that name.
 */
export const renameTaxon = (kind: TaxonKind, id: string, name: string) => {
  const init = { params: { path: { id } }, body: { name } };
  return ok(
    kind === 'categories'
      ? api.PATCH('/api/admin/categories/{id}', init)
      : api.PATCH('/api/admin/performers/{id}', init),
  );
};

export function useRenameTaxon(kind: TaxonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameTaxon(kind, id, name),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.list(kind) });
      // Videos carry the names of their categories and performers.
      void queryClient.invalidateQueries({ queryKey: videoKeys.details });
    },
  });
}
