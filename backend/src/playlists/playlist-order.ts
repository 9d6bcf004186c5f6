/** One item of a playlist, in its current order; `visible` when its video is published (the API lists it). */
export interface PlaylistEntry {
  videoId: number;
  visible: boolean;
}

/**
 * The playlist's whole new order when `requested` lists every video the playlist shows exactly once, else
 * null. Items whose video is unpublished are not shown, so the client cannot order them: they keep their
 * relative order after the others.
 */
export function reorderedVideoIds(current: PlaylistEntry[], requested: number[]): number[] | null {
  const visible = new Set(current.filter((e) => e.visible).map((e) => e.videoId));
  const seen = new Set<number>();
  for (const id of requested) {
    if (!visible.has(id) || seen.has(id)) return null;
    seen.add(id);
  }
  if (seen.size !== visible.size) return null;
  return [...requested, ...current.filter((e) => !e.visible).map((e) => e.videoId)];
}
