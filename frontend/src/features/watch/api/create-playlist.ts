import { useMutation } from '@tanstack/react-query';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { CreatePlaylist } from '@/lib/api/types';

export const createPlaylist = async (body: CreatePlaylist) =>
  throwIfError(await ok(api.POST('/api/playlists/create-playlist', { body })));

export const useCreatePlaylist = () => useMutation({ mutationFn: createPlaylist });
