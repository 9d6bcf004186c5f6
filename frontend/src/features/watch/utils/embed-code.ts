/** The embed code's frame: 16:9 at a width most article columns take; sites change it as they like. */
export const EMBED_WIDTH = 640;
export const EMBED_HEIGHT = 360;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside a double-quoted HTML attribute (and anywhere else in HTML text). */
export const escapeHtmlAttribute = (text: string) => text.replace(/[&<>"']/g, (char) => ENTITIES[char]);

/** The HTML another site pastes to show the video in its page: a frame of the embeddable player, `/embed/{id}`. */
export function embedCode({ origin, videoId, title }: { origin: string; videoId: number; title: string }): string {
  const src = escapeHtmlAttribute(`${origin}/embed/${videoId}`);
  return (
    `<iframe src="${src}" width="${EMBED_WIDTH}" height="${EMBED_HEIGHT}" frameborder="0" ` +
    `allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${escapeHtmlAttribute(title)}"></iframe>`
  );
}
