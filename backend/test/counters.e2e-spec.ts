import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CountersService } from '../src/videos/counters/counters.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp, type TestUser } from './helpers/test-app';

const stores: [string, Record<string, string>][] = [['in-process buffer', {}]];
if (process.env.TEST_REDIS_URL) {
  stores.push(['Redis buffer', { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `test-${randomUUID().slice(0, 8)}:` }]);
}

describe.each(stores)('Counters with the %s (e2e)', (_name, env) => {
  let t: TestApp;
  let flush: () => Promise<number>;
  const guest = (name: string) => guestFrom(`test-agent/${name}`);

  beforeAll(async () => {
    // An hour between timed flushes: the tests flush when they mean to.
    t = await createTestApp({ TRUST_PROXY: 'loopback', ...env, COUNTER_FLUSH_MS: '3600000' });
    const counters = t.app.get(CountersService);
    flush = () => counters.flush();
  });
  afterAll(() => t.close());

  const dbCounts = async (id: number) => {
    const [row] = await t.db.query('SELECT views, likes, trending_score FROM videos WHERE id = $1', [id]);
    return { views: Number(row.views), likes: Number(row.likes), trending: Number(row.trending_score) };
  };

  describe('POST /api/video/increment-views', () => {
    it('counts a view once per viewer per hour and answers the count, buffered until a flush', async () => {
      const id = await insertVideo(t.db, { views: 10 });
      const first = await request(t.http).post('/api/video/increment-views').set(guest('a')).send({ videoId: id }).expect(200);
      expect(first.body).toEqual({ views: 11 });
      const repeat = await request(t.http).post('/api/video/increment-views').set(guest('a')).send({ videoId: id }).expect(200);
      expect(repeat.body).toEqual({ views: 11 });
      const other = await request(t.http).post('/api/video/increment-views').set(guest('b')).send({ videoId: id }).expect(200);
      expect(other.body).toEqual({ views: 12 });
      expect((await dbCounts(id)).views).toBe(10);

      // Every read includes the buffered counts…
      expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.views).toBe(12);
      const list = await request(t.http).get('/api/videos?sort=newest&limit=60').expect(200);
      expect(list.body.data.find((v: { id: number }) => v.id === id).views).toBe(12);

      // …and after a flush the database has them, counted once.
      expect(await flush()).toBeGreaterThanOrEqual(1);
      expect((await dbCounts(id)).views).toBe(12);
      expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.views).toBe(12);
    });

    it('counts a member by account, whatever device they use', async () => {
      const id = await insertVideo(t.db);
      const member = await registerUser(t.http);
      for (const device of ['phone', 'laptop', 'tv']) {
        await request(t.http).post('/api/video/increment-views').set(bearer(member)).set(guest(device)).send({ videoId: id }).expect(200);
      }
      const res = await request(t.http).post('/api/video/increment-views').set(guest('phone')).send({ videoId: id }).expect(200);
      expect(res.body).toEqual({ views: 2 }); // the member once, the anonymous phone once
    });

    it('answers 404 for an unknown or unpublished video and counts nothing', async () => {
      const hidden = await insertVideo(t.db, { status: 'processing' });
      for (const videoId of [987_654, hidden]) {
        const res = await request(t.http).post('/api/video/increment-views').send({ videoId }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      await flush();
      expect((await dbCounts(hidden)).views).toBe(0);
    });

    it.each([
      [{}, /videoId must be a positive integer/],
      [{ videoId: '12' }, /videoId must be a positive integer/],
      [{ videoId: 0 }, /videoId must be a positive integer/],
      [{ videoId: -4 }, /videoId must be a positive integer/],
      [{ videoId: 1.5 }, /videoId must be a positive integer/],
      [{ videoId: 3_000_000_000 }, /videoId must be a positive integer/],
      [{ videoId: 1, userId: 'x' }, /property userId should not exist/],
    ])('answers 400 for %j', async (body, message) => {
      const res = await request(t.http).post('/api/video/increment-views').send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
    });

    it('stays exact under load: 1,000 distinct viewers, 50 at a time, add exactly 1,000', async () => {
      const id = await insertVideo(t.db, { views: 5 });
      const answers: number[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            request(t.http).post('/api/video/increment-views').set(guest(`viewer-${batch * 50 + i}`)).send({ videoId: id }),
          ),
        );
        for (const r of responses) {
          expect(r.status).toBe(200);
          answers.push(r.body.views);
        }
        if (batch === 9) await flush(); // a flush in the middle of the traffic loses nothing
      }
      expect(Math.max(...answers)).toBe(1005);
      await flush();
      expect((await dbCounts(id)).views).toBe(1005);
    });

    it('counts 1,000 repeats from one viewer once', async () => {
      const id = await insertVideo(t.db);
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 50 }, () => request(t.http).post('/api/video/increment-views').set(guest('same')).send({ videoId: id }).expect(200)));
      }
      await flush();
      expect((await dbCounts(id)).views).toBe(1);
    });
  });

  describe('POST /api/video/add-trending', () => {
    it('records one signal per viewer per hour into today’s stats and the trending score', async () => {
      const id = await insertVideo(t.db);
      await request(t.http).post('/api/video/add-trending').set(guest('t1')).send({ videoId: id }).expect(204);
      await request(t.http).post('/api/video/add-trending').set(guest('t1')).send({ videoId: id }).expect(204);
      await request(t.http).post('/api/video/add-trending').set(guest('t2')).send({ videoId: id }).expect(204);
      await flush();
      const [stats] = await t.db.query('SELECT views FROM video_daily_stats WHERE video_id = $1 AND day = CURRENT_DATE', [id]);
      expect(Number(stats.views)).toBe(2);
      expect((await dbCounts(id)).trending).toBeCloseTo(2);
      const trending = await request(t.http).get('/api/videos?sort=trending&limit=60').expect(200);
      const ids = trending.body.data.map((v: { id: number }) => v.id);
      expect(ids.indexOf(id)).toBeGreaterThanOrEqual(0);
    });

    it('answers 404 for an unknown video and 400 for bad input', async () => {
      await request(t.http).post('/api/video/add-trending').send({ videoId: 999_999 }).expect(404);
      await request(t.http).post('/api/video/add-trending').send({ videoId: 'x' }).expect(400);
    });
  });

  describe('POST /api/video/increment-likes', () => {
    it('lets a member like a video once, remembers it in their likes and answers 409 ALREADY_LIKED after', async () => {
      const id = await insertVideo(t.db, { likes: 3 });
      const member = await registerUser(t.http);
      const first = await request(t.http).post('/api/video/increment-likes').set(bearer(member)).send({ videoId: id }).expect(200);
      expect(first.body).toEqual({ likes: 4 });
      const again = await request(t.http).post('/api/video/increment-likes').set(bearer(member)).set(guest('other-device')).send({ videoId: id }).expect(409);
      expect(again.body).toEqual({ error: 'You already like this video', errorCode: 'ALREADY_LIKED', statusCode: 409 });
      const rows = await t.db.query('SELECT video_id FROM likes WHERE user_id = $1', [member.id]);
      expect(rows).toEqual([{ video_id: id }]);
      await flush();
      expect((await dbCounts(id)).likes).toBe(4);
      const [stats] = await t.db.query('SELECT likes FROM video_daily_stats WHERE video_id = $1 AND day = CURRENT_DATE', [id]);
      expect(Number(stats.likes)).toBe(1);
    });

    it('lets an anonymous visitor like once per video per day', async () => {
      const id = await insertVideo(t.db);
      await request(t.http).post('/api/video/increment-likes').set(guest('anon-liker')).send({ videoId: id }).expect(200, { likes: 1 });
      const again = await request(t.http).post('/api/video/increment-likes').set(guest('anon-liker')).send({ videoId: id }).expect(409);
      expect(again.body.errorCode).toBe('ALREADY_LIKED');
      await request(t.http).post('/api/video/increment-likes').set(guest('another-anon')).send({ videoId: id }).expect(200, { likes: 2 });
    });

    it('answers 404 for an unknown video without recording a like', async () => {
      const member = await registerUser(t.http);
      await request(t.http).post('/api/video/increment-likes').set(bearer(member)).send({ videoId: 999_998 }).expect(404);
      expect(await t.db.query('SELECT 1 FROM likes WHERE user_id = $1', [member.id])).toEqual([]);
    });

    it('answers 400 for wrong types and extra fields', async () => {
      await request(t.http).post('/api/video/increment-likes').send({ videoId: [1] }).expect(400);
      await request(t.http).post('/api/video/increment-likes').send({ videoId: 1, likes: 100 }).expect(400);
    });
  });

  describe('POST /api/video/remove-like (a member takes their like back)', () => {
    const like = (member: TestUser, videoId: unknown) => request(t.http).post('/api/video/increment-likes').set(bearer(member)).send({ videoId });
    const unlike = (member: TestUser | null, body: unknown) => {
      const req = request(t.http).post('/api/video/remove-like');
      return (member ? req.set(bearer(member)) : req).send(body as object);
    };
    const likedIds = async (member: TestUser) =>
      (await request(t.http).get('/api/me/likes').set(bearer(member)).expect(200)).body.data.map((v: { id: number }) => v.id);

    it('takes the like back: the count goes down by one, the video leaves their likes, and they can like it again', async () => {
      const id = await insertVideo(t.db, { likes: 3 });
      const member = await registerUser(t.http);
      await like(member, id).expect(200, { likes: 4 });
      await flush();
      expect(await likedIds(member)).toEqual([id]);

      await unlike(member, { videoId: id }).expect(200, { likes: 3 });
      expect(await likedIds(member)).toEqual([]);
      expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.likes).toBe(3);
      await flush();
      expect((await dbCounts(id)).likes).toBe(3);

      await like(member, id).expect(200, { likes: 4 });
      expect(await likedIds(member)).toEqual([id]);
    });

    it('cancels a like and an unlike made between two flushes: the stored count never moves', async () => {
      const id = await insertVideo(t.db, { likes: 10 });
      const member = await registerUser(t.http);
      await like(member, id).expect(200, { likes: 11 });
      await unlike(member, { videoId: id }).expect(200, { likes: 10 });
      await flush();
      expect((await dbCounts(id)).likes).toBe(10);
      const [stats] = await t.db.query('SELECT likes FROM video_daily_stats WHERE video_id = $1 AND day = CURRENT_DATE', [id]);
      expect(stats === undefined || Number(stats.likes) === 0).toBe(true);
    });

    it('stays exact when many members like and unlike at once', async () => {
      const id = await insertVideo(t.db, { likes: 0 });
      const members = await Promise.all(Array.from({ length: 12 }, () => registerUser(t.http)));
      await Promise.all(members.map((m) => like(m, id).expect(200)));
      await flush();
      // Half take it back while the others' likes are being counted again.
      await Promise.all(members.map((m, i) => (i % 2 ? unlike(m, { videoId: id }).expect(200) : Promise.resolve())));
      await flush();
      expect((await dbCounts(id)).likes).toBe(6);
      expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.likes).toBe(6);
    });

    it('never takes the count below zero, where an admin set it lower than the likes given', async () => {
      const id = await insertVideo(t.db, { likes: 0 });
      const member = await registerUser(t.http);
      await like(member, id).expect(200, { likes: 1 });
      await flush();
      await t.db.query('UPDATE videos SET likes = 0 WHERE id = $1', [id]);
      t.videosChanged([id]);
      await unlike(member, { videoId: id }).expect(200, { likes: 0 });
      await flush();
      expect((await dbCounts(id)).likes).toBe(0);
      expect(await likedIds(member)).toEqual([]);
    });

    it("answers 409 NOT_LIKED for a video the member does not like, even one another member likes, and changes nothing", async () => {
      const id = await insertVideo(t.db, { likes: 5 });
      const [mine, theirs] = [await registerUser(t.http), await registerUser(t.http)];
      await like(theirs, id).expect(200, { likes: 6 });
      const res = await unlike(mine, { videoId: id }).expect(409);
      expect(res.body).toEqual({ error: 'You do not like this video', errorCode: 'NOT_LIKED', statusCode: 409 });
      expect(await likedIds(theirs)).toEqual([id]);
      await flush();
      expect((await dbCounts(id)).likes).toBe(6);
    });

    it('answers 401 without a valid token, and counts nothing', async () => {
      const id = await insertVideo(t.db, { likes: 2 });
      const res = await unlike(null, { videoId: id }).expect(401);
      expect(res.body).toMatchObject({ statusCode: 401 });
      await request(t.http).post('/api/video/remove-like').set('Authorization', 'Bearer not.a.token').send({ videoId: id }).expect(401);
      await flush();
      expect((await dbCounts(id)).likes).toBe(2);
    });

    it('answers 404 for an unknown video and 400 for wrong types, limits and extra fields', async () => {
      const member = await registerUser(t.http);
      await unlike(member, { videoId: 999_997 }).expect(404);
      for (const body of [{}, { videoId: '1' }, { videoId: [1] }, { videoId: 0 }, { videoId: 1.5 }, { videoId: 2_147_483_648 }, { videoId: 1, likes: 0 }, { videoId: 1, userId: 'someone-else' }]) {
        const res = await unlike(member, body).expect(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String) });
      }
    });
  });

  describe('POST /api/video/update-duration', () => {
    it('sets the duration rounded down, only while the video has none', async () => {
      const id = await insertVideo(t.db, { duration: null });
      await request(t.http).post('/api/video/update-duration').send({ videoId: id, videoDuration: 125.97 }).expect(200, { duration: 125 });
      await request(t.http).post('/api/video/update-duration').send({ videoId: id, videoDuration: 300 }).expect(200, { duration: 125 });
      expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.duration).toBe(125);
    });

    it.each([0, -5, 86_400.5, 100_000, 'long', null])('answers 400 for videoDuration %j and changes nothing', async (videoDuration) => {
      const id = await insertVideo(t.db, { duration: null });
      const res = await request(t.http).post('/api/video/update-duration').send({ videoId: id, videoDuration }).expect(400);
      expect(res.body.statusCode).toBe(400);
      const [row] = await t.db.query('SELECT duration FROM videos WHERE id = $1', [id]);
      expect(row.duration).toBeNull();
    });

    it('accepts the 24-hour maximum and answers 404 for an unknown video', async () => {
      const id = await insertVideo(t.db, { duration: null });
      await request(t.http).post('/api/video/update-duration').send({ videoId: id, videoDuration: 86_400 }).expect(200, { duration: 86_400 });
      await request(t.http).post('/api/video/update-duration').send({ videoId: 999_997, videoDuration: 10 }).expect(404);
    });
  });

  it('adds a batch of counts once, however often a flush writes it', async () => {
    const id = await insertVideo(t.db);
    const repository = t.app.get(VideosRepository);
    const batch = `test:${randomUUID()}`;
    const deltas = [{ videoId: id, views: 3, likes: 1, trending: 2 }];
    const day = async () => (await t.db.query('SELECT views, likes, counted_views FROM video_daily_stats WHERE video_id = $1', [id])) as unknown[];
    const site = async () => Number((await t.db.query('SELECT views FROM site_daily_stats WHERE day = CURRENT_DATE'))[0]?.views ?? 0);
    const siteBefore = await site();
    expect(await repository.applyCounts(deltas, batch)).toBe(true);
    const once = { counts: await dbCounts(id), day: await day(), site: await site() };
    expect(once.counts).toMatchObject({ views: 3, likes: 1 });
    expect(once.site).toBe(siteBefore + 3);
    // Written again (its removal from the buffer failed, or its commit's answer was lost): nothing changes.
    expect(await repository.applyCounts(deltas, batch)).toBe(false);
    expect({ counts: await dbCounts(id), day: await day(), site: await site() }).toEqual(once);
    // Another batch of the same counts is added as usual.
    const next = `test:${randomUUID()}`;
    expect(await repository.applyCounts(deltas, next)).toBe(true);
    expect((await dbCounts(id)).views).toBe(6);
    // The daily prune forgets ids older than 7 days, and keeps the others.
    await t.db.query(`UPDATE applied_counter_batches SET applied_at = now() - interval '8 days' WHERE id = $1`, [batch]);
    await repository.pruneAppliedBatches();
    const kept = (await t.db.query('SELECT id FROM applied_counter_batches WHERE id = ANY($1)', [[batch, next]])) as { id: string }[];
    expect(kept.map((row) => row.id)).toEqual([next]);
  });

  it('counts a flush whose answer was lost after its commit once, when the next flush writes it again', async () => {
    const id = await insertVideo(t.db);
    t.videosChanged([id]);
    await request(t.http).post('/api/video/increment-views').set(guest('lost-answer')).send({ videoId: id }).expect(200);
    const repository = t.app.get(VideosRepository);
    const apply = repository.applyCounts.bind(repository);
    // The transaction commits; its answer does not come back (the connection drops on the way).
    repository.applyCounts = async (deltas, batch) => {
      await apply(deltas, batch);
      throw new Error('Connection terminated unexpectedly');
    };
    try {
      await flush().catch(() => 0);
    } finally {
      repository.applyCounts = apply;
    }
    expect((await dbCounts(id)).views).toBe(1);
    await flush();
    expect((await dbCounts(id)).views).toBe(1);
    expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.views).toBe(1);
  });

  it('drops the counts of a video deleted before the flush without failing the others', async () => {
    const gone = await insertVideo(t.db);
    const kept = await insertVideo(t.db);
    await request(t.http).post('/api/video/increment-views').set(guest('d')).send({ videoId: gone }).expect(200);
    await request(t.http).post('/api/video/add-trending').set(guest('d')).send({ videoId: gone }).expect(204);
    await request(t.http).post('/api/video/increment-views').set(guest('d')).send({ videoId: kept }).expect(200);
    await t.db.query('DELETE FROM videos WHERE id = $1', [gone]);
    await flush();
    expect((await dbCounts(kept)).views).toBe(1);
  });
});

describe('Counters without a trusted proxy (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ COUNTER_FLUSH_MS: '3600000' });
  });
  afterAll(() => t.close());

  it('ignores a forged X-Forwarded-For: one address is one guest viewer', async () => {
    const id = await insertVideo(t.db);
    t.videosChanged([id]);
    for (let i = 1; i <= 5; i++) {
      const res = await request(t.http).post('/api/video/increment-views').set('X-Forwarded-For', `203.0.113.${i}`).send({ videoId: id }).expect(200);
      expect(res.body).toEqual({ views: 1 });
    }
  });
});
