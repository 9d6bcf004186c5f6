/**
 * What changed, as the owner of the data announces it on the InvalidationBus (once per write, to every process).
 * Caches declare which of these evict them (`InvalidationBus.declareCache`); a new kind of change is a new
 * member here, and the compiler then shows every cache that must decide what it does with it.
 */

/** The columns and relations of a video a write can change. */
export const VIDEO_FIELDS = [
  'slug', 'title', 'atg_title', 'jtg_title', 'views', 'likes', 'featured', 'upload_date', 'thumbnail', 'url',
  /** processing, ready (published), failed; a deleted video changed every field. */
  'status',
  'duration',
  /** media_ready, width, height and rendition_height: what the ingest measured and made. */
  'media',
  'categories',
  'performers',
  'tags',
  /** The moments an admin marked (the watch page's chapter list and JSON-LD). */
  'chapters',
  /** Its caption files (video_captions). */
  'captions',
] as const;
export type VideoField = (typeof VIDEO_FIELDS)[number];

export type ChangeEvent =
  /** Videos edited, published, failed or deleted (the fields written; every field for a delete or a whole edit). */
  | { type: 'VideoChanged'; ids: number[]; fields: readonly VideoField[] }
  /** A counter flush wrote these counts: [video id, views added, likes added] (0, 0 when only its trending score). */
  | { type: 'CountsFlushed'; deltas: [number, number, number][] }
  /** Every trending score was recomputed. */
  | { type: 'RankingRecomputed' }
  /** A category, performer or tag was created, renamed, merged or deleted. */
  | { type: 'TaxaChanged' }
  /** A member changed the topics they hide (their listings read them). */
  | { type: 'HiddenTopicsChanged'; userId: string }
  /** An admin created, changed or removed an ad zone (docs/ads.md): the zones each process keeps, and the pages' CSP. */
  | { type: 'AdZonesChanged' }
  /** Videos' media now read from another store (`npm run media:migrate`): the folders' stems and the store. */
  | { type: 'MediaPlaced'; stems: string[]; store: 'disk' | 's3' }
  /**
   * Anything may have changed: an admin asked to clear every cache (`asked`), or announcements may have been
   * missed while the bus was down (`missed`; the outage answers stay: they are what an outage is answered from).
   */
  | { type: 'CachesCleared'; reason: 'asked' | 'missed' };

export type ChangeEventType = ChangeEvent['type'];

/** What a cache does on each event that evicts it; events it is not evicted by are left out. */
export type CachedEvictions = { [K in ChangeEventType]?: (event: Extract<ChangeEvent, { type: K }>) => void };

const TYPES: ReadonlySet<string> = new Set<ChangeEventType>(['VideoChanged', 'CountsFlushed', 'RankingRecomputed', 'TaxaChanged', 'HiddenTopicsChanged', 'AdZonesChanged', 'MediaPlaced', 'CachesCleared']);

/** Whether a message from another process is an event of this version (a rolling deploy may mix versions). */
export function isChangeEvent(message: unknown): message is ChangeEvent {
  if (typeof message !== 'object' || message === null) return false;
  const { type, ids, fields, deltas, reason } = message as Record<string, unknown>;
  if (typeof type !== 'string' || !TYPES.has(type)) return false;
  if (type === 'VideoChanged') return Array.isArray(ids) && Array.isArray(fields);
  if (type === 'CountsFlushed') return Array.isArray(deltas);
  if (type === 'MediaPlaced') {
    const { stems, store } = message as Record<string, unknown>;
    return Array.isArray(stems) && stems.every((stem) => typeof stem === 'string') && (store === 'disk' || store === 's3');
  }
  if (type === 'CachesCleared') return reason === 'asked' || reason === 'missed';
  if (type === 'HiddenTopicsChanged') return typeof (message as Record<string, unknown>).userId === 'string';
  return true;
}

/** Whether a VideoChanged event wrote any of these fields. */
export const touches = (event: { fields: readonly VideoField[] }, ...fields: VideoField[]): boolean =>
  fields.some((field) => event.fields.includes(field));
