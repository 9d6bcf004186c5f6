/**
 * Where an uploaded thumbnail goes. `uploadPath` is the admin panel's thumbnail URL field: a `/thumbs/...` path,
 * or an http(s) URL (of the image host) whose path is one. Its percent-encoding is decoded as the server that
 * serves `/thumbs/` decodes it, so the file written is the file that URL serves. This only checks the form; the
 * storage service still resolves the result inside the store, symlinks included.
 */
export const THUMBS_PREFIX = '/thumbs/';
export const THUMBNAIL_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp', '.avif'] as const;

export const NO_THUMBNAIL_URL = 'No thumbnail URL provided';
export const NOT_IN_THUMBS = 'uploadPath must be a /thumbs/ path (or a URL of one) inside the thumbnail store';
export const BAD_THUMBNAIL_EXTENSION = 'uploadPath must end in .jpg, .jpeg, .png, .webp or .avif';

export type ThumbnailPath =
  | { ok: true; /** Relative to the thumbnail store. */ relative: string; /** The URL path of the file. */ url: string }
  | { ok: false; error: string };

const MAX_SEGMENT_BYTES = 255;

export function parseThumbnailPath(uploadPath: string): ThumbnailPath {
  const raw = uploadPath.trim();
  if (!raw) return fail(NO_THUMBNAIL_URL);

  let pathname: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) {
    let url: URL;
    try {
      url = new URL(raw.startsWith('//') ? `http:${raw}` : raw);
    } catch {
      return fail(NOT_IN_THUMBS);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(NOT_IN_THUMBS);
    pathname = url.pathname;
  } else {
    pathname = raw.split(/[?#]/)[0];
  }

  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return fail(NOT_IN_THUMBS);
  }
  if (!decoded.startsWith(THUMBS_PREFIX)) return fail(NOT_IN_THUMBS);

  const segments = decoded.slice(THUMBS_PREFIX.length).split('/');
  const unsafe = (s: string) =>
    s === '' || s === '.' || s === '..' || /[\\\p{Cc}]/u.test(s) || Buffer.byteLength(s) > MAX_SEGMENT_BYTES;
  if (segments.some(unsafe)) return fail(NOT_IN_THUMBS);

  const name = segments[segments.length - 1].toLowerCase();
  if (!THUMBNAIL_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length)) return fail(BAD_THUMBNAIL_EXTENSION);

  return {
    ok: true,
    relative: segments.join('/'),
    url: THUMBS_PREFIX + segments.map((s) => encodeURI(s).replace(/[?#]/g, encodeURIComponent)).join('/'),
  };
}

const fail = (error: string): ThumbnailPath => ({ ok: false, error });
