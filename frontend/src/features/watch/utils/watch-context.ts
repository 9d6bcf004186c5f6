import type { VideoCard } from '@/lib/api/types';

/** How the page was reached, from its query string: a playlist, the watch-later queue, or neither. */
export type WatchContext =
  | { kind: 'playlist'; playlistId: number }
  | { kind: 'watch-later' }
  | { kind: 'default' };

const POSITIVE_INT = /^[1-9]\d{0,9}$/;

export function parseWatchContext(params: URLSearchParams): WatchContext {
  const context = params.get('context');
  const playlist = params.get('playlist');
  if (context === 'playlist' && playlist && POSITIVE_INT.test(playlist)) {
    return { kind: 'playlist', playlistId: Number(playlist) };
  }
  if (context === 'watch-later') return { kind: 'watch-later' };
  return { kind: 'default' };
}

/** The query string that keeps a context on the next page: '?context=playlist&playlist=3', or ''. */
export function contextSearch(context: WatchContext): string {
  if (context.kind === 'playlist') return `?context=playlist&playlist=${context.playlistId}`;
  if (context.kind === 'watch-later') return '?context=watch-later';
  return '';
}

/** The ids of the videos that 'Previous video' and 'Next video' open. */
export interface Neighbours {
  previous: number | null;
  next: number | null;
}

/** The videos before and after the current one in an ordered list; none when it is not in the list. */
export function neighboursIn(list: readonly Pick<VideoCard, 'id'>[], currentId: number): Neighbours {
  const index = list.findIndex((video) => video.id === currentId);
  if (index === -1) return { previous: null, next: null };
  return { previous: list[index - 1]?.id ?? null, next: list[index + 1]?.id ?? null };
}
