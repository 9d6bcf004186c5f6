import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { CreatableTaxonKind } from './get-taxa';
import { taxonomyKeys } from './keys';

/**
 * POST /api/categories or /api/performers (admin). The contract's body is `{name, id}`; the server derives the
 * id from the name itself, so the client sends the name as the id too (the server ignores a differing one).
 */
export const createTaxon = (kind: CreatableTaxonKind, name: string) => {
  const body = { name, id: name };
  return ok(kind === 'categories' ? api.POST('/api/categories', { body }) : api.POST('/api/performers', { body }));
};

export function useCreateTaxon(kind: CreatableTaxonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createTaxon(kind, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taxonomyKeys.list(kind) }),
  });
}
