const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A count in short form: 950, 1.2K, 3.4M. */
export function formatCompactNumber(value: number): string {
  return compact.format(value);
}

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** A count in full with thousands separators: 1,234,567. */
export function formatNumber(value: number): string {
  return whole.format(value);
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface UploadAgeOptions {
  /** The moment to measure from (default: now). */
  now?: Date;
  /**
   * The UTC offset, in hours, of a date written without one ("2024-06-01 12:00:00"). Dates that carry their
   * offset ("…Z", "…+02:00") are read as written.
   */
  utcOffsetHours?: number;
}

const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(iso: string, utcOffsetHours: number): number {
  const text = iso.trim();
  if (HAS_OFFSET.test(text)) return Date.parse(text);
  const local = Date.parse(`${DATE_ONLY.test(text) ? `${text}T00:00:00` : text.replace(' ', 'T')}Z`);
  return local - utcOffsetHours * HOUR * 1000;
}

/**
 * How long ago something was uploaded, e.g. "3 days ago". Dates in the future (a clock running ahead)
 * read "just now"; an unreadable date reads as an empty string.
 */
export function formatUploadAge(iso: string, { now = new Date(), utcOffsetHours = 0 }: UploadAgeOptions = {}): string {
  const then = parseDate(iso, utcOffsetHours);
  if (Number.isNaN(then)) return '';
  const seconds = Math.floor((now.getTime() - then) / 1000);
  if (seconds < MINUTE) return 'just now';
  if (seconds < HOUR) return relative.format(-Math.floor(seconds / MINUTE), 'minute');
  if (seconds < DAY) return relative.format(-Math.floor(seconds / HOUR), 'hour');
  const days = Math.floor(seconds / DAY);
  if (days < 7) return relative.format(-days, 'day');
  if (days < 30) return relative.format(-Math.floor(days / 7), 'week');
  if (days < 365) return relative.format(-Math.max(1, Math.floor(days / 30)), 'month');
  return relative.format(-Math.floor(days / 365), 'year');
}
