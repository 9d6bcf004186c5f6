import { useMutation } from '@tanstack/react-query';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { AddToPlaylist } from '@/lib/api/types';

export const addToPlaylist = async (body: AddToPlaylist) =>
  throwIfError(await ok(api.POST('/api/playlists/add-to-playlist', { body })));

export const useAddToPlaylist = () => useMutation({ mutationFn: addToPlaylist });
