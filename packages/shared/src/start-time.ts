// A watch page's `?t=`, read the same way by the web client's player (and a watch page's first script) and by the
// server, which preloads the segment the player starts with (docs/web-client.md › "First frame").

/**
 * A start time from `?t=`: seconds ("90", "90.5") or "1h2m3s" parts ("1m30s"). Null when absent or unreadable.
 */
export function parseStartTime(value: string | null | undefined): number | null {
  if (!value) return null;
  if (/^\d+(?:\.\d+)?s?$/.test(value)) return Number.parseFloat(value);
  const parts = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!parts) return null;
  const [, h = '0', m = '0', s = '0'] = parts;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}
