import { DataSource } from 'typeorm';
import { RECOMPUTE_TRENDING_SQL } from '../../videos/trending';
import type { GeneratedCatalog } from './catalog-generator';

const BATCH = 5000;

/**
 * Writes a generated catalogue in batches of set-based INSERT … SELECT FROM unnest(...): one statement per
 * table per batch, the same on PGlite and the PostgreSQL server. Existing slugs and taxa are left alone.
 */
export async function writeCatalog(
  db: DataSource,
  catalog: GeneratedCatalog,
  status: 'ready' | 'processing' = 'ready',
): Promise<{ videos: number; ids: number[] }> {
  const allIds: number[] = [];
  for (const [table, rows] of [['categories', catalog.categories], ['performers', catalog.performers], ['tags', catalog.tags]] as const) {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await db.query(
        `INSERT INTO ${table} (id, name) SELECT * FROM unnest($1::varchar[], $2::varchar[]) ON CONFLICT (id) DO NOTHING`,
        [batch.map((r) => r.id), batch.map((r) => r.name)],
      );
    }
  }

  let inserted = 0;
  for (let i = 0; i < catalog.videos.length; i += BATCH) {
    const batch = catalog.videos.slice(i, i + BATCH);
    const col = <K extends keyof (typeof batch)[number]>(key: K) => batch.map((v) => v[key]);
    const ids = await db.query<{ id: number; slug: string }[]>(
      `INSERT INTO videos (slug, url, title, atg_title, jtg_title, views, likes, featured, duration, upload_date, cdn, rendition_height, status)
       SELECT *, $13::varchar FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[],
                            $6::int[], $7::int[], $8::int[], $9::int[], $10::timestamptz[], $11::smallint[], $12::int[])
       ON CONFLICT (slug) DO NOTHING
       RETURNING id, slug`,
      [
        col('slug'), col('url'), col('title'), col('atgTitle'), col('jtgTitle'), col('views'), col('likes'),
        col('featured'), col('duration'), batch.map((v) => v.uploadDate.toISOString()), col('cdn'), col('renditionHeight'), status,
      ],
    );
    inserted += ids.length;
    allIds.push(...batch.flatMap((v) => ids.filter((r) => r.slug === v.slug).map((r) => Number(r.id))));
    const idBySlug = new Map(ids.map((r) => [r.slug, Number(r.id)]));
    for (const [table, column, key] of [
      ['video_categories', 'category_id', 'categoryIds'],
      ['video_performers', 'performer_id', 'performerIds'],
      ['video_tags', 'tag_id', 'tagIds'],
    ] as const) {
      const videoIds: number[] = [];
      const refs: string[] = [];
      for (const video of batch) {
        const id = idBySlug.get(video.slug);
        if (id === undefined) continue;
        for (const ref of video[key]) {
          videoIds.push(id);
          refs.push(ref);
        }
      }
      if (videoIds.length) {
        await db.query(
          `INSERT INTO ${table} (video_id, ${column}) SELECT * FROM unnest($1::int[], $2::varchar[]) ON CONFLICT DO NOTHING`,
          [videoIds, refs],
        );
      }
    }
    const stats = { videoIds: [] as number[], ages: [] as number[], views: [] as number[] };
    for (const video of batch) {
      const id = idBySlug.get(video.slug);
      if (id === undefined) continue;
      video.recentDailyViews.forEach((views, age) => {
        if (views > 0) {
          stats.videoIds.push(id);
          stats.ages.push(age);
          stats.views.push(views);
        }
      });
    }
    if (stats.videoIds.length) {
      await db.query(
        `INSERT INTO video_daily_stats (video_id, day, views)
         SELECT id, CURRENT_DATE - age, views FROM unnest($1::int[], $2::int[], $3::int[]) AS s(id, age, views)
         ON CONFLICT (video_id, day) DO UPDATE SET views = video_daily_stats.views + EXCLUDED.views`,
        [stats.videoIds, stats.ages, stats.views],
      );
    }
  }
  await db.query(RECOMPUTE_TRENDING_SQL);
  // Fresh statistics, so the planner sees the catalogue's real size (PGlite has no autovacuum to do it), and a
  // vacuum: index-only scans need the visibility map, and the search index its pending entries merged.
  await db.query('VACUUM ANALYZE videos, video_categories, video_performers, video_tags');
  await db.query('ANALYZE categories, performers, tags, video_daily_stats');
  return { videos: inserted, ids: allIds };
}
