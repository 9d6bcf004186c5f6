/**
 * The version of a video's editable fields, for the admin's optimistic concurrency: the panel sends the version
 * of what it read as `If-Match` with update-video, and the API answers 409 when the video's editable fields are
 * no longer what the admin read (another admin saved in between). Counts are not part of it: views and likes
 * move all the time, and that is no conflict. The token also carries the counts the admin read, so that an edit
 * of views or likes is applied as a change from what they saw, keeping every view counted meanwhile.
 */
export interface EditableVideo {
  slug: string;
  title: string;
  atg_title: string;
  jtg_title: string;
  featured: number;
  upload_date: string;
  thumbnail: string;
  url: string;
  categories: readonly { id: string }[];
  performers: readonly { id: string }[];
  /** Absent or empty: no chapters (a version then reads as it did before chapters existed). */
  chapters?: readonly { start: number; title: string }[];
  /** Absent or empty: no tags (likewise). */
  tags?: readonly { id: string }[];
}

export interface ReadCounts {
  views: number;
  likes: number;
}

/** FNV-1a over UTF-16 code units, the same in Node and the browser; two seeds make a 64-bit value. */
function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The version of the editable fields (not the counts): 16 hex digits. */
export function editVersion(video: EditableVideo): string {
  const canonical = JSON.stringify([
    video.slug,
    video.title,
    video.atg_title,
    video.jtg_title,
    Number(video.featured),
    new Date(video.upload_date).toISOString(),
    video.thumbnail,
    video.url,
    video.categories.map((c) => c.id).sort(),
    video.performers.map((p) => p.id).sort(),
    ...(video.chapters?.length ? [video.chapters.map((c) => [c.start, c.title])] : []),
    ...(video.tags?.length ? ['tags', video.tags.map((t) => t.id).sort()] : []),
  ]);
  return fnv1a(canonical, 0x811c9dc5) + fnv1a(canonical, 0x050c5d1f);
}

/** The `If-Match` value for an edit of a video as it was read: `"{version}-{views}-{likes}"`. */
export function editPrecondition(video: EditableVideo & ReadCounts): string {
  return `"${editVersion(video)}-${Math.trunc(video.views)}-${Math.trunc(video.likes)}"`;
}

/** The version and the read counts in an `If-Match` value, or null when it is not one of ours. */
export function parseEditPrecondition(header: string | undefined | null): ({ version: string } & ReadCounts) | null {
  const match = /^\s*"([0-9a-f]{16})-(\d{1,15})-(\d{1,15})"\s*$/.exec(header ?? '');
  return match ? { version: match[1], views: Number(match[2]), likes: Number(match[3]) } : null;
}

/** What the API answers (409) to an edit made from an outdated read. */
export const EDIT_CONFLICT = 'Another admin changed this video after you opened it: reload it to see their changes, then edit again';
