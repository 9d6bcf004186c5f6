/**
 * The title a brand shows for a video: its own title (atg_title, jtg_title) when set, else the main title. The
 * web client's pages and the server's heads and sitemaps show the same one.
 */
export function brandTitle(
  video: { title: string; atg_title?: string | null; jtg_title?: string | null },
  brand: string | undefined,
): string {
  const own = brand === 'atg' ? video.atg_title : brand === 'jtg' ? video.jtg_title : null;
  return own?.trim() ? own : video.title;
}
