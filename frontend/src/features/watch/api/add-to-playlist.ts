import { useMutation } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { AddToPlaylist, NoError } from '@/lib/api/types';

export const addToPlaylist = async (body: AddToPlaylist) =>
  throwIfError(await api.post<NoError>('/api/playlists/add-to-playlist', body));

export const useAddToPlaylist = () => useMutation({ mutationFn: addToPlaylist });
