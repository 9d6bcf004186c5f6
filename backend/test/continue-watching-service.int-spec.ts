import { RESUME_END_MARGIN_SECONDS } from '@hunktube/shared';
import type { DataSource } from 'typeorm';
import type { AuthUser } from '../src/common/decorators/auth.decorators';
import { NotFoundError } from '../src/common/errors/domain-errors';
import { ContinueWatchingService } from '../src/lists/continue-watching.service';
import { CatalogueCache } from '../src/videos/catalogue-cache';
import { VIDEO_NOT_FOUND } from '../src/videos/videos.repository';
import { insertVideo } from './helpers/factories';
import { catalogueOn, insertMember } from './helpers/services';
import { createTestDatabase } from './helpers/test-app';

/**
 * ContinueWatchingService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server),
 * over the real catalogue (its cache off, so that videos changed by SQL here are read as they are): where a
 * member stopped each video, and the row of videos to pick up again.
 */
describe('ContinueWatchingService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let cache: CatalogueCache;
  let service: ContinueWatchingService;
  /** Published, 600 s long. */
  let v: number[];
  let unknownLength: number;
  let unpublished: number;
  let userCounter = 0;

  const member = (historyPaused = false) => insertMember(db, { email: `resume${++userCounter}@example.com`, displayName: 'Resumer', historyPaused });

  const entries = (user: AuthUser) =>
    db.query<{ video_id: number; position_seconds: number | null; recent: boolean }[]>(
      `SELECT video_id, position_seconds, watched_at > now() - interval '1 hour' AS recent FROM history_entries WHERE user_id = $1 ORDER BY video_id`,
      [user.id],
    );
  /** Puts every entry of the member's history back by `minutes` (so that the next write is the newest). */
  const age = (user: AuthUser, minutes: number) =>
    db.query('UPDATE history_entries SET watched_at = watched_at - make_interval(mins => $2) WHERE user_id = $1', [user.id, minutes]);
  const rowIds = async (user: AuthUser, limit = 24) => (await service.list(user, limit)).data.map((card) => [card.id, card.position_seconds]);

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    const parts = catalogueOn(db, { CATALOGUE_CACHE: 'off' });
    ({ cache } = parts);
    const { catalogue, videos } = parts;
    service = new ContinueWatchingService(db, catalogue, videos);
    v = [];
    for (let i = 0; i < 4; i++) v.push(await insertVideo(db, { title: `Resumable ${i}`, duration: 600 }));
    unknownLength = await insertVideo(db, { title: 'No length yet', duration: null });
    unpublished = await insertVideo(db, { title: 'Failed ingest', status: 'failed', duration: 600 });
  });
  afterAll(async () => {
    cache?.onModuleDestroy();
    await close?.();
  });

  describe('save', () => {
    it('records the position in whole seconds, watched now; a new position replaces it, one entry per video', async () => {
      const me = await member();
      expect(await service.save(me, v[0], 125.9)).toEqual({ recorded: true, position: 125 });
      await age(me, 60);
      expect(await service.save(me, v[0], 300)).toEqual({ recorded: true, position: 300 });
      expect(await entries(me)).toEqual([{ video_id: v[0], position_seconds: 300, recent: true }]);
    });

    it.each([
      ['null (watched to the end)', null],
      [`a position in the last ${RESUME_END_MARGIN_SECONDS} seconds`, 600 - RESUME_END_MARGIN_SECONDS],
      ['a position under a second (not started)', 0.5],
    ])('records the watch with no position for %s', async (_case, seconds) => {
      const me = await member();
      await service.save(me, v[1], 200);
      expect(await service.save(me, v[1], seconds)).toEqual({ recorded: true, position: null });
      expect(await entries(me)).toEqual([{ video_id: v[1], position_seconds: null, recent: true }]);
    });

    it('keeps any position of a video whose length is unknown', async () => {
      const me = await member();
      expect(await service.save(me, unknownLength, 86_000)).toEqual({ recorded: true, position: 86_000 });
    });

    it('records nothing while the history is paused, still answering the position it would keep', async () => {
      const me = await member(true);
      expect(await service.save(me, v[0], 42.5)).toEqual({ recorded: false, position: 42 });
      expect(await entries(me)).toEqual([]);
    });

    it('refuses an unknown or unpublished video with "Video not found", recording nothing', async () => {
      const me = await member();
      for (const videoId of [unpublished, 2_000_000_000]) {
        const error = await service.save(me, videoId, 30).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as Error).message).toBe(VIDEO_NOT_FOUND);
      }
      expect(await entries(me)).toEqual([]);
    });
  });

  it("forgets a video's position, idempotently and for any id, leaving it in the history and others' positions alone", async () => {
    const [me, other] = [await member(), await member()];
    await service.save(me, v[0], 100);
    await service.save(other, v[0], 100);
    await service.forget(me, v[0]);
    await service.forget(me, v[0]);
    await service.forget(me, 2_000_000_000);
    expect(await entries(me)).toEqual([{ video_id: v[0], position_seconds: null, recent: true }]);
    expect((await entries(other))[0].position_seconds).toBe(100);
  });

  describe('list', () => {
    it('lists the videos started and not finished, most recently watched first, each card with its time and position', async () => {
      const me = await member();
      await service.save(me, v[2], 30);
      await service.save(me, v[1], 20);
      await service.save(me, unknownLength, 5000);
      await service.save(me, v[0], 10);
      await service.save(me, v[3], null);
      for (const [minutes, videoIds] of [[1, [v[2], v[3]]], [5, [v[1], unknownLength]], [10, [v[0]]]] as const) {
        await db.query('UPDATE history_entries SET watched_at = $2::timestamptz - make_interval(mins => $3) WHERE user_id = $1 AND video_id = ANY($4::int[])', [
          me.id,
          '2026-01-01T12:00:00Z',
          minutes,
          videoIds,
        ]);
      }
      const { data, paused } = await service.list(me, 24);
      expect(paused).toBe(false);
      expect(data.map((card) => [card.id, card.position_seconds])).toEqual([
        [v[2], 30],
        // Same time: the higher id first.
        [unknownLength, 5000],
        [v[1], 20],
        [v[0], 10],
      ]);
      expect(data[0]).toMatchObject({ title: 'Resumable 2', duration: 600, watched_at: '2026-01-01T11:59:00.000Z' });
      expect(await rowIds(me, 2)).toEqual([
        [v[2], 30],
        [unknownLength, 5000],
      ]);
    });

    it('leaves out a video unpublished since, and one whose position is now within its last seconds', async () => {
      const me = await member();
      const [gone, shortened] = [await insertVideo(db, { duration: 600 }), await insertVideo(db, { duration: 600 })];
      await service.save(me, v[0], 100);
      await service.save(me, gone, 100);
      await service.save(me, shortened, 300);
      await db.query(`UPDATE videos SET status = 'processing' WHERE id = $1`, [gone]);
      await db.query('UPDATE videos SET duration = 303 WHERE id = $1', [shortened]);
      expect(await rowIds(me)).toEqual([[v[0], 100]]);
    });

    it("answers nothing while the history is paused, and only the member's own positions", async () => {
      const [me, other] = [await member(), await member()];
      await service.save(other, v[0], 100);
      expect(await service.list(me, 24)).toEqual({ data: [], paused: false });
      await service.save(me, v[1], 50);
      expect(await service.list({ ...me, historyPaused: true }, 24)).toEqual({ data: [], paused: true });
      expect(await rowIds(me)).toEqual([[v[1], 50]]);
    });
  });
});
