/** Browsers drop tabs and newlines from URLs, which could turn "/\t/evil.com" into "//evil.com". */
const hasControlCharacter = (text: string) =>
  Array.from(text).some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/**
 * Where to go after logging in: `ref` is the path and query of the page that sent the visitor here, without its
 * leading slash (`video/7?context=watch-later`). Only a path on this site is followed; anything else (`//evil.com`,
 * `/\evil.com`, `https://evil.com`, control characters) leads home.
 */
export function returnPath(ref: string | null | undefined, origin: string = window.location.origin): string {
  if (!ref) return '/';
  // A ref that starts with a slash or names a scheme would make "/{ref}" an address on another host.
  if (/^[/\\]/.test(ref) || /^[a-z][a-z\d+.-]*:/i.test(ref) || hasControlCharacter(ref)) return '/';
  let url: URL;
  try {
    url = new URL(`/${ref}`, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  // Dot segments resolve away ('.//evil.com', 'x/../\\evil.com'): a result that starts with two slashes (or a slash
  // and a backslash) would be a protocol-relative address on another host wherever it is used as a link.
  if (/^\/[/\\]/.test(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The `ref` value for a page: its path and query without the leading slash, escaped only where it has to be so
 * that `/login?ref=…` keeps it whole (`&`, `#`, `%`, `+` and spaces), and readable otherwise: `video/7`.
 */
export function refFor(pathname: string, search = ''): string {
  const ref = `${pathname}${search}`.replace(/^\/+/, '');
  return encodeURIComponent(ref).replace(/%(2F|3F|3D|3A|40|2C)/gi, (escaped) => decodeURIComponent(escaped));
}

/** The login page's address that brings the visitor back to a page. */
export const loginHref = (pathname: string, search = '') => `/login?ref=${refFor(pathname, search)}`;
