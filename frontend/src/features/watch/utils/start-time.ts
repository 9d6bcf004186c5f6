// Its own module, with nothing imported, because a watch page's first script reads it before the app (src/early.ts).

/**
 * A start time from `?t=`: seconds ("90", "90.5") or "1h2m3s" parts ("1m30s"). Null when absent or unreadable.
 */
export function parseStartTime(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+(?:\.\d+)?s?$/.test(value)) return Number.parseFloat(value);
  const parts = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!parts || value === '') return null;
  const [, h = '0', m = '0', s = '0'] = parts;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}
