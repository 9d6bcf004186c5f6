// Written by hand rather than with `Intl`: the first `Intl` object a page makes loads ICU's data, 40-70 ms of
// the main thread on this kind of machine (150-300 ms on Lighthouse's 4x slower phone), and every card on the
// first screen formats a count and an age while the page hydrates (docs/web-client.md › "Boot work"). The
// output is English only, as the site is; `format.test.ts` holds each function to `Intl`'s own answer.

const UNITS = ['', 'K', 'M', 'B', 'T'] as const;

/** A count (a whole number) in short form: 950, 1.2K, 3.4M (as `Intl.NumberFormat('en', {notation: 'compact', maximumFractionDigits: 1})`). */
export function formatCompactNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const size = Math.abs(value);
  let unit = Math.min(UNITS.length - 1, size < 1000 ? 0 : Math.floor(Math.log10(size) / 3));
  // Tenths of the unit, rounded half away from zero; 999,950 rounds up to the next unit (1M, not 1000K).
  let tenths = roundHalfUp(unit === 0 ? size * 10 : size / 10 ** (unit * 3 - 1));
  if (tenths >= 10_000 && unit < UNITS.length - 1) {
    unit += 1;
    tenths = roundHalfUp(size / 10 ** (unit * 3 - 1));
  }
  if (tenths === 0) return `${sign}0`;
  const whole = Math.floor(tenths / 10);
  const tenth = tenths % 10;
  // Past 999T the whole part is grouped as ICU's compact patterns do it: from five digits on (1000T, 10,000T).
  return `${sign}${whole >= 10_000 ? grouped(whole) : whole}${tenth ? `.${tenth}` : ''}${UNITS[unit]}`;
}

/** A count in full with thousands separators: 1,234,567 (as `Intl.NumberFormat('en', {maximumFractionDigits: 0})`). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return value === Infinity ? '∞' : value === -Infinity ? '-∞' : 'NaN';
  const rounded = roundHalfUp(Math.abs(value));
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${grouped(rounded)}`;
}

const grouped = (whole: number) => plainDigits(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A whole number's shortest decimal digits, as ICU writes them: 2^60 is 1152921504606847000, 1e21 written out. */
function plainDigits(whole: number): string {
  const text = String(whole);
  const [mantissa, exponent] = text.split('e+');
  if (exponent === undefined) return text;
  const digits = mantissa.replace('.', '');
  return digits.padEnd(Number(exponent) + 1, '0');
}

/** Rounds a non-negative number half up (`Math.round` would too, but not past 2^52 nor at 0.49999999999999994). */
const roundHalfUp = (size: number) => {
  const whole = Math.floor(size);
  return size - whole >= 0.5 ? whole + 1 : whole;
};

/** "3 weeks ago", as `Intl.RelativeTimeFormat('en', {numeric: 'always'}).format(-3, 'week')`. */
const ago = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`;

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
  if (seconds < HOUR) return ago(Math.floor(seconds / MINUTE), 'minute');
  if (seconds < DAY) return ago(Math.floor(seconds / HOUR), 'hour');
  const days = Math.floor(seconds / DAY);
  if (days < 7) return ago(days, 'day');
  if (days < 30) return ago(Math.floor(days / 7), 'week');
  if (days < 365) return ago(Math.max(1, Math.floor(days / 30)), 'month');
  return ago(Math.floor(days / 365), 'year');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The calendar day a date names, as written ("2024-06-01 12:00:00" and "2024-06-01T23:30:00Z" are both
 * "Jun 1, 2024"), the same on the server and in every browser; an unreadable date is an empty string.
 */
export function formatCalendarDate(iso: string): string {
  const match = CALENDAR_DATE.exec(iso.trim());
  if (!match) return '';
  const [, year, month, day] = match;
  const name = MONTHS[Number(month) - 1];
  return name && Number(day) >= 1 && Number(day) <= 31 ? `${name} ${Number(day)}, ${Number(year)}` : '';
}
