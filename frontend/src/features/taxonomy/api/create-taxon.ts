import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { CreatedTaxon } from '@/lib/api/types';
import { taxaQueryOptions, type TaxonKind } from './get-taxa';

/**
 * POST /api/categories or /api/performers (admin). The contract's body is `{name, id}`; the server derives the
 * id from the name itself, so the client sends the name as the id too (the server ignores a differing one).
 */
export const createTaxon = (kind: TaxonKind, name: string) =>
  api.post<CreatedTaxon>(`/api/${kind}`, { name, id: name });

export function useCreateTaxon(kind: TaxonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createTaxon(kind, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taxaQueryOptions(kind).queryKey }),
  });
}
