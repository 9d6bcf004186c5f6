/*
 * The catalogue listings' filters (issue #34; api-contract.md › Discovery): what `GET /api/videos` accepts, what
 * the listing pages keep in their addresses and offer as links, and how both read an address, so that the API,
 * the server's canonical page address and the web client cannot disagree.
 */

/** `quality`: the tallest rendition is at least this many lines. */
export const QUALITY_MIN_HEIGHT = { hd: 720, '4k': 2160 } as const;
export type ListingQuality = keyof typeof QUALITY_MIN_HEIGHT;
export const LISTING_QUALITIES = Object.keys(QUALITY_MIN_HEIGHT) as ListingQuality[];

/** `uploaded`: within this many seconds before now (today: the last 24 hours). */
export const UPLOADED_WITHIN_SECONDS = { today: 86_400, week: 7 * 86_400, month: 30 * 86_400, year: 365 * 86_400 } as const;
export type UploadedWithin = keyof typeof UPLOADED_WITHIN_SECONDS;
export const UPLOADED_WINDOWS = Object.keys(UPLOADED_WITHIN_SECONDS) as UploadedWithin[];

/** `minDuration` and `maxDuration` are whole seconds from 0 to a day (the longest duration a video may have). */
export const DURATION_FILTER_MAX = 86_400;

/** A listing's filters besides its taxon, search, sort and page; absent ones are not set. */
export interface ListingFilters {
  minDuration?: number;
  maxDuration?: number;
  quality?: ListingQuality;
  uploaded?: UploadedWithin;
}

/** The parameter names, in the order addresses write them. */
export const LISTING_FILTER_PARAMS = ['minDuration', 'maxDuration', 'quality', 'uploaded'] as const;

/** A length a listing page offers: its label and its range (inclusive whole seconds; a bound left out is open). */
export interface DurationChoice {
  label: string;
  minDuration?: number;
  maxDuration?: number;
}

/** The lengths a listing page offers: under 10 minutes, 10 to 20, over 20. */
export const DURATION_CHOICES: readonly DurationChoice[] = [
  { label: 'Under 10 min', maxDuration: 599 },
  { label: '10–20 min', minDuration: 600, maxDuration: 1199 },
  { label: 'Over 20 min', minDuration: 1200 },
];

export const QUALITY_LABELS: Record<ListingQuality, string> = { hd: 'HD', '4k': '4K' };
export const UPLOADED_LABELS: Record<UploadedWithin, string> = { today: 'Today', week: 'This week', month: 'This month', year: 'This year' };

const seconds = (value: string | null): number | undefined =>
  value !== null && /^\d{1,5}$/.test(value) && Number(value) <= DURATION_FILTER_MAX ? Number(value) : undefined;

/**
 * A page address's filters as the listing reads them (the first value of each parameter, as URLSearchParams.get
 * answers): a value the API would refuse is left out, and so is a duration range with its minimum above its
 * maximum, so that a hand-edited address shows the unfiltered listing rather than an error.
 */
export function parseListingFilters(get: (name: string) => string | null): ListingFilters {
  const filters: ListingFilters = {};
  const min = seconds(get('minDuration'));
  const max = seconds(get('maxDuration'));
  if (!(min !== undefined && max !== undefined && min > max)) {
    if (min !== undefined) filters.minDuration = min;
    if (max !== undefined) filters.maxDuration = max;
  }
  const quality = get('quality');
  if (quality !== null && (LISTING_QUALITIES as string[]).includes(quality)) filters.quality = quality as ListingQuality;
  const uploaded = get('uploaded');
  if (uploaded !== null && (UPLOADED_WINDOWS as string[]).includes(uploaded)) filters.uploaded = uploaded as UploadedWithin;
  return filters;
}

/** Whether any filter is set. */
export const hasListingFilters = (filters: ListingFilters): boolean => LISTING_FILTER_PARAMS.some((name) => filters[name] !== undefined);

/** The filters as query parameters, in LISTING_FILTER_PARAMS order (for links and the canonical address). */
export function listingFilterParams(filters: ListingFilters): [string, string][] {
  return LISTING_FILTER_PARAMS.flatMap((name) => (filters[name] === undefined ? [] : [[name, String(filters[name])] as [string, string]]));
}

/** What a listing leaves out (`exclude`, and a member's hidden topics): ids by kind. */
export interface ExcludedTopics {
  categories: string[];
  performers: string[];
  tags: string[];
}

/** At most this many ids in `exclude`, and per kind in a member's hidden topics. */
export const EXCLUDE_MAX = 100;
const EXCLUDE_KINDS = { category: 'categories', performer: 'performers', tag: 'tags' } as const;
const TOPIC_ID = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

/**
 * `exclude`'s value (`category:bears,performer:ace-cruz,tag:leather`) as ids by kind, each list sorted and
 * without repeats; null when it is not such a list (an unknown kind, an id that is no slug, more than
 * EXCLUDE_MAX entries). An empty value excludes nothing.
 */
export function parseExclude(value: string): ExcludedTopics | null {
  const topics: ExcludedTopics = { categories: [], performers: [], tags: [] };
  const entries = value.split(',').filter((entry) => entry !== '');
  if (entries.length > EXCLUDE_MAX) return null;
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const kind = EXCLUDE_KINDS[entry.slice(0, colon) as keyof typeof EXCLUDE_KINDS];
    const id = entry.slice(colon + 1);
    if (colon < 0 || !kind || !TOPIC_ID.test(id)) return null;
    topics[kind].push(id);
  }
  for (const kind of Object.values(EXCLUDE_KINDS)) topics[kind] = [...new Set(topics[kind])].sort();
  return topics;
}

/** Topics as `exclude`'s value, canonical (categories, performers, tags; ids sorted, each once); '' for none. */
export function formatExclude(topics: ExcludedTopics): string {
  return (Object.entries(EXCLUDE_KINDS) as [keyof typeof EXCLUDE_KINDS, keyof ExcludedTopics][])
    .flatMap(([kind, field]) => [...new Set(topics[field])].sort().map((id) => `${kind}:${id}`))
    .join(',');
}

/**
 * The cookie a guest's hidden topics are kept in (docs/decisions.md › "Hidden topics"): `exclude`'s value, URI
 * encoded, which the web client sends as `exclude` and the server's renders read, so that a guest's first page
 * already leaves them out. A member's are kept on the server instead.
 */
export const HIDDEN_TOPICS_COOKIE = 'hidden_topics';
