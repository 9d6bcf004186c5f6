import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { CreatedTaxon } from '@/lib/api/types';
import { taxaQueryOptions, type TaxonKind } from '@/features/taxonomy/api/get-taxa';

/**
 * PATCH /api/admin/categories/{id} or /api/admin/performers/{id} with `{name}`: 200 `{id, name}`, the id
 * unchanged. 400 for an empty or invalid name, 404 for an unknown id, 409 when another one has that name.
 */
export const renameTaxon = (kind: TaxonKind, id: string, name: string) =>
  api.patch<CreatedTaxon>(`/api/admin/${kind}/${encodeURIComponent(id)}`, { name });

export function useRenameTaxon(kind: TaxonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameTaxon(kind, id, name),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taxaQueryOptions(kind).queryKey });
      // Videos carry the names of their categories and performers.
      void queryClient.invalidateQueries({ queryKey: ['watch', 'video'] });
    },
  });
}
