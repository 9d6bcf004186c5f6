import { DataSource } from 'typeorm';
import { slugify } from '@hunktube/shared';

export interface VideoFields {
  title: string;
  slug: string;
  url: string;
  atg_title: string;
  jtg_title: string;
  thumbnail: string;
  views: number;
  likes: number;
  featured: number;
  duration: number | null;
  upload_date: Date;
  cdn: number;
  status: 'processing' | 'ready' | 'failed';
  media_ready: boolean;
  /** The tallest rendition's lines; unknown when not given. */
  rendition_height: number | null;
  categories: string[];
  performers: string[];
  tags: string[];
}

let videoCounter = 0;

/** Inserts a video (and any categories, performers and tags it names, by name) straight into the database. */
export async function insertVideo(db: DataSource, fields: Partial<VideoFields> = {}): Promise<number> {
  videoCounter += 1;
  const title = fields.title ?? `Test Video ${videoCounter}`;
  const slug = fields.slug ?? `${slugify(title)}-${videoCounter}-${Math.random().toString(36).slice(2, 7)}`;
  const [{ id }] = await db.query<{ id: number }[]>(
    `INSERT INTO videos (slug, url, title, atg_title, jtg_title, thumbnail, views, likes, featured, duration,
                         upload_date, cdn, status, media_ready, rendition_height)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      slug, fields.url ?? `/2024/06/${slug}.mp4`, title, fields.atg_title ?? '', fields.jtg_title ?? '',
      fields.thumbnail ?? '', fields.views ?? 0, fields.likes ?? 0, fields.featured ?? 0,
      fields.duration === undefined ? 120 : fields.duration, (fields.upload_date ?? new Date()).toISOString(),
      fields.cdn ?? 1, fields.status ?? 'ready', fields.media_ready ?? false, fields.rendition_height ?? null,
    ],
  );
  for (const [kind, join, column, names] of [
    ['categories', 'video_categories', 'category_id', fields.categories ?? []],
    ['performers', 'video_performers', 'performer_id', fields.performers ?? []],
    ['tags', 'video_tags', 'tag_id', fields.tags ?? []],
  ] as const) {
    for (const name of names) {
      const taxonId = slugify(name);
      await db.query(`INSERT INTO ${kind} (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [taxonId, name]);
      await db.query(`INSERT INTO ${join} (video_id, ${column}) VALUES ($1, $2)`, [id, taxonId]);
    }
  }
  return Number(id);
}

/** Adds views for a video on a day `daysAgo` before today, as the counters' flush writes them. */
export async function insertDailyViews(db: DataSource, videoId: number, daysAgo: number, views: number): Promise<void> {
  await db.query(
    `INSERT INTO video_daily_stats (video_id, day, views) VALUES ($1, CURRENT_DATE - $2::int, $3)
     ON CONFLICT (video_id, day) DO UPDATE SET views = video_daily_stats.views + EXCLUDED.views`,
    [videoId, daysAgo, views],
  );
}

const guestNetworks = new Map<string, number>();

/**
 * A guest viewer of its own: a guest is their network whatever the user agent (api-contract.md), so tests tell
 * guests apart by address, sent as X-Forwarded-For from the loopback proxy; the app under test must believe it
 * (`TRUST_PROXY: 'loopback'`). The same name is always the same network, another name another (10.0.0.0/8).
 */
export function guestFrom(name: string): { 'X-Forwarded-For': string } {
  let n = guestNetworks.get(name);
  if (n === undefined) guestNetworks.set(name, (n = guestNetworks.size + 1));
  return { 'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
}
