import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { yieldToMain } from '@/lib/yield-to-main';
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

/**
 * The seek bar's previews, asked for in a task after the player's first effects: a server-rendered page runs its
 * hydration's effects in one task, without this request in it (docs/web-client.md › "Boot work").
 */
export function useStoryboard(url: string | null) {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    let live = true;
    void yieldToMain().then(() => {
      if (live) setStarted(true);
    });
    return () => {
      live = false;
    };
  }, []);
  const asked = started ? url : null;
  return useQuery({ ...storyboardQueryOptions(asked ?? ''), enabled: asked !== null });
}
