import type { DataSource } from 'typeorm';
import { insertVideo } from '../factories';
import type { Fixtures, Users } from './fill';

let round = 0;

/**
 * A fresh set of everything a route may name, written straight into the database: a published video with a
 * category, a performer and a tag (with a synonym), member A's playlist with another video, member B's playlist, an unpublished video,
 * a failed and a finished job, an open and a closed removal request, an ad zone; member A likes the published video.
 */
export async function createFixtures(db: DataSource, users: Users): Promise<Fixtures> {
  round += 1;
  const tag = `fx${round}`;
  const categoryName = `Hostile Category ${tag}`;
  const performerName = `Hostile Performer ${tag}`;
  const slug = `hostile-${tag}`;
  const tagId = `hostile-tag-${tag}`;
  const videoId = await insertVideo(db, { slug, url: `/2024/06/${slug}.mp4`, categories: [categoryName], performers: [performerName], tags: [tagId] });
  await db.query(`INSERT INTO tag_synonyms (alias, tag_id) VALUES ($1, $2)`, [`hostile-alias-${tag}`, tagId]);
  const playlistVideoId = await insertVideo(db, { categories: [categoryName] });
  const hiddenVideoId = await insertVideo(db, { status: 'processing' });
  // English captions to remove (the file itself need not exist: removing a missing object is no error).
  await db.query(`INSERT INTO video_captions (video_id, lang, label) VALUES ($1, 'en', 'English')`, [videoId]);
  const playlist = async (userId: string, videoIdInside: number) => {
    const [{ id }] = await db.query<{ id: number }[]>(`INSERT INTO playlists (user_id, title) VALUES ($1, $2) RETURNING id`, [userId, `Hostile ${tag}`]);
    await db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 0)`, [id, videoIdInside]);
    return Number(id);
  };
  const job = async (state: string) => {
    const [{ id }] = await db.query<{ id: number }[]>(
      `INSERT INTO ingest_jobs (video_id, kind, state, progress, error, payload) VALUES ($1, 'ingest', $2, $3, $4, '{}') RETURNING id`,
      [hiddenVideoId, state, state === 'done' ? 100 : 0, state === 'failed' ? 'Hostile fixture failure' : null],
    );
    return Number(id);
  };
  const removalRequest = async (open: boolean) => {
    const [{ id }] = await db.query<{ id: number }[]>(
      `INSERT INTO removal_requests (video_ids, reason, contact, state, closed_at) VALUES ($1::int[], 'other', 'hostile@example.com', $2, $3) RETURNING id`,
      [[videoId], open ? 'open' : 'dismissed', open ? null : new Date().toISOString()],
    );
    return Number(id);
  };
  // An ad zone to change, count and remove (banners: html, every field of its kind).
  const [{ id: adZoneId }] = await db.query<{ id: number }[]>(
    `INSERT INTO ad_zones (name, placement, kind, html, brands) VALUES ($1, 'banner-footer', 'html', '<b>Ad</b>', '{default}') RETURNING id`,
    [`Hostile zone ${tag}`],
  );
  // Member A likes the video, so that taking a like back (remove-like) has one to take.
  await db.query(`INSERT INTO likes (user_id, video_id) VALUES ($1, $2)`, [users.memberA.id, videoId]);
  const row = (await db.query<{ id: string }[]>(`SELECT id FROM categories WHERE name = $1`, [categoryName]))[0];
  const performer = (await db.query<{ id: string }[]>(`SELECT id FROM performers WHERE name = $1`, [performerName]))[0];
  return {
    videoId,
    streamPath: `/videos/2024/06/${slug}/index.m3u8`,
    playlistVideoId,
    playlistId: await playlist(users.memberA.id, playlistVideoId),
    foreignPlaylistId: await playlist(users.memberB.id, playlistVideoId),
    hiddenVideoId,
    categoryId: row.id,
    performerId: performer.id,
    tagId,
    tagAlias: `hostile-alias-${tag}`,
    jobId: await job('failed'),
    doneJobId: await job('done'),
    removalRequestId: await removalRequest(true),
    closedRemovalRequestId: await removalRequest(false),
    adZoneId: Number(adZoneId),
  };
}
