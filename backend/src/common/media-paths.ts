/**
 * Media naming (design.md "Media layout and signing"): a video's source `url` such as
 * `/2024/06/pool-party.mp4` has the stem `2024/06/pool-party`; its HLS lives in `/videos/{stem}/` and its
 * images in `/thumbs/{stem}/`.
 */
export function stemOf(url: string): string {
  let pathname = url.trim();
  if (/^https?:\/\//i.test(pathname)) {
    try {
      pathname = new URL(pathname).pathname;
    } catch {
      // Not a parseable URL: treat it as a path.
    }
  }
  pathname = pathname.split(/[?#]/)[0].replace(/^\/+/, '');
  const slash = pathname.lastIndexOf('/');
  const dot = pathname.lastIndexOf('.');
  return dot > slash + 1 ? pathname.slice(0, dot) : pathname;
}

export const streamPathOf = (url: string) => `/videos/${stemOf(url)}/index.m3u8`;
export const posterPathOf = (url: string) => `/thumbs/${stemOf(url)}/poster.jpg`;
export const storyboardPathOf = (url: string) => `/thumbs/${stemOf(url)}/storyboard.vtt`;
export const previewPathOf = (url: string) => `/thumbs/${stemOf(url)}/preview.mp4`;
/** A caption file's path (issue #34): `lang` is a canonical BCP 47 tag, which no path character can be part of. */
export const captionsPathOf = (url: string, lang: string) => `/thumbs/${stemOf(url)}/captions/${lang}.vtt`;

/**
 * An error text fit for admins: paths inside the media store become relative to it (`sources/2024/06/x.mp4`),
 * any other absolute path is cut to its file name. The server's layout is nobody's business.
 */
export function redactPaths(text: string, mediaRoot: string): string {
  const root = mediaRoot.replace(/\/+$/, '');
  const inStore = root ? text.split(`${root}/`).join('') : text;
  return inStore.replace(/(?<![\w.])\/(?:[^\s/'":]+\/)+([^\s/'":]*)/g, (_match, name: string) => name || '/');
}
