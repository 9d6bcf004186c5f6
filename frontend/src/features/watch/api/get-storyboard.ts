import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseStoryboard } from '../utils/storyboard';

/**
 * The storyboard is a public WebVTT file on the image host, not an API answer: a plain fetch, no cookies.
 * Without one (media not built yet, or it failed) the seek bar simply shows no previews.
 */
export async function getStoryboard(url: string, signal?: AbortSignal) {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`Storyboard answered ${response.status}`);
  return parseStoryboard(await response.text(), new URL(url, window.location.href).href);
}

export const storyboardQueryOptions = (url: string) =>
  queryOptions({
    queryKey: ['watch', 'storyboard', url],
    queryFn: ({ signal }) => getStoryboard(url, signal),
    staleTime: Infinity,
    retry: false,
  });

export const useStoryboard = (url: string | null) =>
  useQuery({ ...storyboardQueryOptions(url ?? ''), enabled: url !== null });
