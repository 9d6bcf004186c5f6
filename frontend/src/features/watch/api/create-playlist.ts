import { useMutation } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { CreatedPlaylist, CreatePlaylist } from '@/lib/api/types';

export const createPlaylist = async (body: CreatePlaylist) =>
  throwIfError(await api.post<CreatedPlaylist>('/api/playlists/create-playlist', body));

export const useCreatePlaylist = () => useMutation({ mutationFn: createPlaylist });
