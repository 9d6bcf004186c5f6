import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { WatchedVideo } from '@/lib/api/types';

/** The document declares the accepted-and-ignored `video` as an empty object; the client sends the card it holds. */
const asBody = (body: WatchedVideo) => body as components['schemas']['WatchedVideoDto'];

export const addHistory = (body: WatchedVideo) => ok(api.POST('/api/video/add-history', { body: asBody(body) }));

export const useAddHistory = () =>
  useMutation({ mutationFn: addHistory, onError: (error) => console.error('Error adding to history', error) });
