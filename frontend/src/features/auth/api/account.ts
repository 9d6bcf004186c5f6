import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiErrorFrom, ok } from '@/lib/api/client';
import { saveFile } from '@/lib/save-file';
import { USER_QUERY_KEY } from '@/lib/session';
import { setSessionUser } from './session-cache';

/** The file name the API gives the export (Content-Disposition), or a plain one. */
export function exportFileName(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'my-data.json';
}

/** GET /api/me/export: the member's data as a JSON file, with the name to save it under. */
export async function fetchMyData(): Promise<{ blob: Blob; filename: string }> {
  const { data, error, response } = await api.GET('/api/me/export', { parseAs: 'blob' });
  if (!response.ok || !data) throw apiErrorFrom(response.status, response.statusText, error);
  return { blob: data as unknown as Blob, filename: exportFileName(response.headers.get('Content-Disposition')) };
}

export const useDownloadMyData = () =>
  useMutation({
    mutationFn: fetchMyData,
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => console.error('Error downloading your data', error),
  });

/**
 * DELETE /api/me/account with the password asked again. Once deleted, the app forgets the member (as after a
 * logout) and `onDeleted` takes the visitor on.
 */
export function useDeleteAccount(onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => ok(api.DELETE('/api/me/account', { body: { password } })),
    onSuccess: () => {
      // The page says so first: as a visitor's, a member's page would send them to log in.
      onDeleted();
      // Nothing of the member stays in the page's memory: only the site's settings and the (now empty) session.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' && query.queryKey[0] !== USER_QUERY_KEY[0] });
      setSessionUser(queryClient, null);
    },
  });
}
