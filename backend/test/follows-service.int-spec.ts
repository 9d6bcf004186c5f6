import type { DataSource } from 'typeorm';
import type { AuthUser } from '../src/common/decorators/auth.decorators';
import { ConflictError, InvalidInputError, NotFoundError } from '../src/common/errors/domain-errors';
import { BAD_PERFORMER_ID, FOLLOW_CAP, FOLLOW_LIMIT, FollowsService, PERFORMER_NOT_FOUND } from '../src/lists/follows.service';
import { ListsErrorCode } from '../src/lists/lists-errors';
import { TaxonomyService } from '../src/taxonomy/taxonomy.service';
import { CatalogueCache } from '../src/videos/catalogue-cache';
import { insertVideo } from './helpers/factories';
import { catalogueOn, insertMember } from './helpers/services';
import { createTestDatabase } from './helpers/test-app';

/**
 * FollowsService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server), over the real
 * catalogue and taxonomy (the cache off, so that what SQL changes here is read as it is): the performers a member
 * follows, the cap, and the feed of their newest videos.
 */
describe('FollowsService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let cache: CatalogueCache;
  let follows: FollowsService;
  const videos: Record<string, number> = {};
  let userCounter = 0;

  const member = () => insertMember(db, { email: `follower${++userCounter}@example.com`, displayName: 'Follower' });

  const followed = async (user: AuthUser) =>
    (await db.query<{ performer_id: string }[]>('SELECT performer_id FROM performer_follows WHERE user_id = $1 ORDER BY performer_id', [user.id])).map(
      (row) => row.performer_id,
    );
  /** Follows, the first the longest ago, a minute apart. */
  async function followAll(user: AuthUser, performerIds: string[]): Promise<void> {
    for (const [i, id] of performerIds.entries()) {
      await db.query(`INSERT INTO performer_follows (user_id, performer_id, created_at) VALUES ($1, $2, now() - make_interval(mins => $3))`, [
        user.id,
        id,
        performerIds.length - i,
      ]);
    }
  }

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    const parts = catalogueOn(db, { CATALOGUE_CACHE: 'off' });
    ({ cache } = parts);
    const { bus, catalogue, taxa } = parts;
    follows = new FollowsService(db, taxa, new TaxonomyService(taxa, cache, catalogue, bus), catalogue, parts.videos);

    const day = (d: number) => new Date(Date.UTC(2024, 4, d));
    videos.alexOld = await insertVideo(db, { title: 'Alex Old', performers: ['Alex Stone'], upload_date: day(1) });
    videos.alexMid = await insertVideo(db, { title: 'Alex Mid', performers: ['Alex Stone'], upload_date: day(3) });
    videos.ben = await insertVideo(db, { title: 'Ben Solo', performers: ['Ben Cruz'], upload_date: day(4) });
    videos.both = await insertVideo(db, { title: 'Alex and Ben', performers: ['Alex Stone', 'Ben Cruz'], upload_date: day(5) });
    videos.alexHidden = await insertVideo(db, { title: 'Alex Processing', performers: ['Alex Stone'], upload_date: day(6), status: 'processing' });
    videos.carl = await insertVideo(db, { title: 'Carl Only', performers: ['Carl Diaz'], upload_date: day(2) });
    await db.query(`INSERT INTO performers (id, name) VALUES ('dan-eel', 'Dan Eel')`);
  });
  afterAll(async () => {
    cache?.onModuleDestroy();
    await close?.();
  });

  describe('following', () => {
    it('lists nothing for a member who follows no one', async () => {
      expect(await follows.following(await member())).toEqual({ data: [] });
    });

    it('lists the performers most recently followed first, by their names now, with their published videos', async () => {
      const me = await member();
      await followAll(me, ['ben-cruz', 'dan-eel', 'alex-stone']);
      await db.query(`UPDATE performers SET name = 'Benny Cruz' WHERE id = 'ben-cruz'`);
      try {
        expect(await follows.following(me)).toEqual({
          data: [
            { id: 'alex-stone', name: 'Alex Stone', video_count: 3, followed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
            { id: 'dan-eel', name: 'Dan Eel', video_count: 0, followed_at: expect.any(String) },
            { id: 'ben-cruz', name: 'Benny Cruz', video_count: 2, followed_at: expect.any(String) },
          ],
        });
      } finally {
        await db.query(`UPDATE performers SET name = 'Ben Cruz' WHERE id = 'ben-cruz'`);
      }
    });

    it('exports the follows with their names and times, most recent first', async () => {
      const me = await member();
      await followAll(me, ['carl-diaz', 'alex-stone']);
      expect(await follows.exportFollows(me.id)).toEqual([
        { performer_id: 'alex-stone', name: 'Alex Stone', followed_at: expect.stringMatching(/Z$/) },
        { performer_id: 'carl-diaz', name: 'Carl Diaz', followed_at: expect.stringMatching(/Z$/) },
      ]);
      expect(await follows.exportFollows((await member()).id)).toEqual([]);
    });
  });

  describe('follow and unfollow', () => {
    it("follows and unfollows idempotently, answering the new state, and leaves other members' follows alone", async () => {
      const [me, other] = [await member(), await member()];
      await followAll(other, ['alex-stone']);
      expect(await follows.follow(me, 'alex-stone')).toEqual({ following: true });
      expect(await follows.follow(me, 'alex-stone')).toEqual({ following: true });
      expect(await followed(me)).toEqual(['alex-stone']);
      expect(await follows.unfollow(me, 'alex-stone')).toEqual({ following: false });
      expect(await follows.unfollow(me, 'alex-stone')).toEqual({ following: false });
      // Unfollowing one never followed is no error either.
      expect(await follows.unfollow(me, 'carl-diaz')).toEqual({ following: false });
      expect([await followed(me), await followed(other)]).toEqual([[], ['alex-stone']]);
    });

    it('refuses an unknown performer with "Performer not found", following nothing', async () => {
      const me = await member();
      const error = await follows.follow(me, 'nobody-here').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as Error).message).toBe(PERFORMER_NOT_FOUND);
      expect(await followed(me)).toEqual([]);
    });

    it.each(['Alex-Stone', 'alex stone', '-alex', 'alex--stone', '', 'a'.repeat(101)])('refuses %j as a performer id, both ways', async (id) => {
      const me = await member();
      for (const call of [() => follows.follow(me, id), () => follows.unfollow(me, id)]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidInputError);
        expect((error as Error).message).toBe(BAD_PERFORMER_ID);
      }
    });

    it(`stops at ${FOLLOW_CAP} performers with FOLLOW_LIMIT, still answers for one followed, and takes one more after an unfollow`, async () => {
      const me = await member();
      await db.query(`INSERT INTO performers (id, name) SELECT 'capped-' || g, 'Capped ' || g FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`, [FOLLOW_CAP]);
      await db.query(`INSERT INTO performer_follows (user_id, performer_id) SELECT $1, 'capped-' || g FROM generate_series(1, $2::int) g`, [me.id, FOLLOW_CAP]);
      const error = await follows.follow(me, 'alex-stone').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ message: FOLLOW_LIMIT, code: ListsErrorCode.FollowLimit });
      expect(await followed(me)).not.toContain('alex-stone');
      expect(await follows.follow(me, 'capped-7')).toEqual({ following: true });
      await follows.unfollow(me, 'capped-7');
      expect(await follows.follow(me, 'alex-stone')).toEqual({ following: true });
      expect(await followed(me)).toHaveLength(FOLLOW_CAP);
    });
  });

  describe('feed', () => {
    it("pages the followed performers' published videos, each once, newest upload first, with the total", async () => {
      const [me, other] = [await member(), await member()];
      await followAll(me, ['alex-stone', 'ben-cruz', 'dan-eel']);
      await followAll(other, ['carl-diaz']);
      const first = await follows.feed(me, { page: 1, limit: 3 });
      expect(first).toMatchObject({ page: 1, limit: 3, total: 4 });
      expect(first.data.map((card) => card.id)).toEqual([videos.both, videos.ben, videos.alexMid]);
      expect(first.data[0]).toMatchObject({ id: videos.both, title: 'Alex and Ben', upload_date: '2024-05-05T00:00:00.000Z' });
      const second = await follows.feed(me, { page: 2, limit: 3 });
      expect({ ...second, data: second.data.map((card) => card.id) }).toEqual({ data: [videos.alexOld], page: 2, limit: 3, total: 4 });
      expect((await follows.feed(me, { page: 3, limit: 3 })).data).toEqual([]);
    });

    it('is empty for a member who follows no one', async () => {
      expect(await follows.feed(await member(), { page: 1, limit: 24 })).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    });
  });
});
