import { JwtService } from '@nestjs/jwt';
import type { DataSource } from 'typeorm';
import { AuthBudgets } from '../src/auth/auth-budgets';
import { AuthService } from '../src/auth/auth.service';
import { User } from '../src/auth/user.entity';
import type { AuthUser } from '../src/common/decorators/auth.decorators';
import { ForbiddenError, NotFoundError } from '../src/common/errors/domain-errors';
import { NOT_YOUR_ACCOUNT } from '../src/common/utils/ownership';
import { BOOKMARKS_CAP, ListsService } from '../src/lists/lists.service';
import { CatalogueCache } from '../src/videos/catalogue-cache';
import { VIDEO_NOT_FOUND } from '../src/videos/videos.repository';
import { insertVideo } from './helpers/factories';
import { catalogueOn, insertMember } from './helpers/services';
import { createTestDatabase } from './helpers/test-app';

/**
 * ListsService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server), over the real
 * catalogue (its cache off, so that videos changed by SQL here are read as they are): a member's history,
 * bookmarks, watch later queue and likes, their pages and their export.
 */
describe('ListsService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let cache: CatalogueCache;
  let lists: ListsService;
  /** Published, in upload order. */
  let v: number[];
  let unpublished: number;
  let userCounter = 0;

  const member = () => {
    userCounter += 1;
    return insertMember(db, { email: `lists${userCounter}@example.com`, displayName: `Lists ${userCounter}` });
  };

  /** Adds entries to one of the member's lists, oldest first, a minute apart, ending a minute ago. */
  async function listed(table: string, user: AuthUser, videoIds: number[], at = 'created_at'): Promise<void> {
    for (const [i, videoId] of videoIds.entries()) {
      await db.query(`INSERT INTO ${table} (user_id, video_id, ${at}) VALUES ($1, $2, now() - make_interval(mins => $3))`, [
        user.id,
        videoId,
        videoIds.length - i,
      ]);
    }
  }

  const ids = (cards: { id: number }[]) => cards.map((card) => card.id);
  const rowsOf = async (table: string, user: AuthUser) =>
    (await db.query<{ video_id: number }[]>(`SELECT video_id FROM ${table} WHERE user_id = $1 ORDER BY video_id`, [user.id])).map((r) => Number(r.video_id));

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    const parts = catalogueOn(db, { CATALOGUE_CACHE: 'off' });
    ({ cache } = parts);
    const { config, videos } = parts;
    const auth = new AuthService(db.getRepository(User), new JwtService({ secret: config.jwtSecret }), config, new AuthBudgets(null, config));
    lists = new ListsService(db, videos, auth);
    v = [];
    for (let i = 0; i < 5; i++) v.push(await insertVideo(db, { title: `Listed ${i}`, upload_date: new Date(Date.UTC(2024, 0, i + 1)) }));
    unpublished = await insertVideo(db, { title: 'Still processing', status: 'processing' });
  });
  afterAll(async () => {
    cache?.onModuleDestroy();
    await close?.();
  });

  describe('addHistory', () => {
    it('records a watch; watching again moves it to now, keeping one entry', async () => {
      const me = await member();
      await lists.addHistory(me, { videoId: v[0] });
      await db.query(`UPDATE history_entries SET watched_at = now() - interval '1 day' WHERE user_id = $1`, [me.id]);
      await lists.addHistory(me, { videoId: v[0], userId: me.id });
      const rows = await db.query<{ video_id: number; recent: boolean }[]>(
        `SELECT video_id, watched_at > now() - interval '1 hour' AS recent FROM history_entries WHERE user_id = $1`,
        [me.id],
      );
      expect(rows).toEqual([{ video_id: v[0], recent: true }]);
    });

    it('records nothing while the history is paused', async () => {
      const me = { ...(await member()), historyPaused: true };
      await lists.addHistory(me, { videoId: v[0] });
      expect(await rowsOf('history_entries', me)).toEqual([]);
    });

    it('refuses an unknown or unpublished video with "Video not found", recording nothing', async () => {
      const me = await member();
      for (const videoId of [unpublished, 2_000_000_000]) {
        const error = await lists.addHistory(me, { videoId }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as Error).message).toBe(VIDEO_NOT_FOUND);
      }
      expect(await rowsOf('history_entries', me)).toEqual([]);
    });

    it("refuses another member's id, recording nothing for either", async () => {
      const [me, other] = [await member(), await member()];
      const error = await lists.addHistory(me, { videoId: v[0], userId: other.id }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as Error).message).toBe(NOT_YOUR_ACCOUNT);
      expect([await rowsOf('history_entries', me), await rowsOf('history_entries', other)]).toEqual([[], []]);
    });
  });

  describe('bookmarks', () => {
    it("answers the caller's published bookmarks as cards, newest first, and no one else's", async () => {
      const [me, other] = [await member(), await member()];
      await listed('bookmarks', me, [v[1], unpublished, v[3], v[0]]);
      await listed('bookmarks', other, [v[2]]);
      const answer = await lists.bookmarks(me, { userId: me.id });
      expect(answer.error).toBeNull();
      expect(ids(answer.bookmarks)).toEqual([v[0], v[3], v[1]]);
      expect(answer.bookmarks[0]).toEqual({
        id: v[0],
        slug: expect.any(String),
        title: 'Listed 0',
        atg_title: '',
        jtg_title: '',
        thumbnail: '',
        preview: null,
        views: 0,
        likes: 0,
        featured: 0,
        duration: 120,
        upload_date: '2024-01-01T00:00:00.000Z',
        cdn: 1,
        url: expect.stringMatching(/\.mp4$/),
      });
      expect((await lists.bookmarks(await member(), {})).bookmarks).toEqual([]);
    });

    it(`answers at most the ${BOOKMARKS_CAP} newest`, async () => {
      const me = await member();
      // One bookmark of the same video cannot be made twice: the cap is reached with as many videos.
      const many = await db.query<{ id: number }[]>(
        `INSERT INTO videos (slug, url, title) SELECT 'cap-' || g, '/cap/' || g || '.mp4', 'Cap ' || g
         FROM generate_series(1, $1::int) g RETURNING id`,
        [BOOKMARKS_CAP + 1],
      );
      await db.query(
        `INSERT INTO bookmarks (user_id, video_id, created_at)
         SELECT $1, id, now() - make_interval(secs => row_number() OVER (ORDER BY id DESC)) FROM unnest($2::int[]) AS t(id)`,
        [me.id, many.map((row) => row.id)],
      );
      const { bookmarks } = await lists.bookmarks(me, {});
      expect(bookmarks).toHaveLength(BOOKMARKS_CAP);
      // The oldest (the first inserted) is the one left out.
      expect(ids(bookmarks)).not.toContain(Number(many[0].id));
      expect(bookmarks[0].id).toBe(Number(many.at(-1)?.id));
    });

    it("refuses to read another member's bookmarks", async () => {
      const [me, other] = [await member(), await member()];
      await expect(lists.bookmarks(me, { userId: other.id })).rejects.toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_ACCOUNT });
    });
  });

  describe.each([
    ['setBookmark', 'bookmarks', 'bookmarked'],
    ['setWatchLater', 'watch_later_items', 'queued'],
  ] as const)('%s', (method, table, state) => {
    it('adds and removes idempotently, answering the new state', async () => {
      const me = await member();
      expect(await lists[method](me, { videoId: v[2], action: 'create' })).toEqual({ [state]: true, error: null });
      expect(await lists[method](me, { videoId: v[2], action: 'create', userId: me.id })).toEqual({ [state]: true, error: null });
      await lists[method](me, { videoId: v[3], action: 'create' });
      expect(await rowsOf(table, me)).toEqual([v[2], v[3]]);
      expect(await lists[method](me, { videoId: v[2], action: 'delete' })).toEqual({ [state]: false, error: null });
      expect(await lists[method](me, { videoId: v[2], action: 'delete' })).toEqual({ [state]: false, error: null });
      expect(await rowsOf(table, me)).toEqual([v[3]]);
    });

    it('refuses to add an unknown or unpublished video, but removes any id', async () => {
      const me = await member();
      for (const videoId of [unpublished, 2_000_000_000]) {
        await expect(lists[method](me, { videoId, action: 'create' })).rejects.toMatchObject({ name: 'NotFoundError', message: VIDEO_NOT_FOUND });
      }
      expect(await rowsOf(table, me)).toEqual([]);
      await listed(table, me, [unpublished]);
      expect(await lists[method](me, { videoId: unpublished, action: 'delete' })).toEqual({ [state]: false, error: null });
      expect(await lists[method](me, { videoId: 2_000_000_000, action: 'delete' })).toEqual({ [state]: false, error: null });
      expect(await rowsOf(table, me)).toEqual([]);
    });

    it("refuses a change under another member's id, changing nothing for either", async () => {
      const [me, other] = [await member(), await member()];
      await listed(table, other, [v[1]]);
      for (const action of ['create', 'delete'] as const) {
        await expect(lists[method](me, { videoId: v[1], action, userId: other.id })).rejects.toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_ACCOUNT });
      }
      expect([await rowsOf(table, me), await rowsOf(table, other)]).toEqual([[], [v[1]]]);
    });
  });

  describe.each([
    ['bookmarks', 'bookmarks'],
    ['watchLater', 'watch_later_items'],
    ['likes', 'likes'],
  ] as const)('page of %s', (list, table) => {
    it('pages the published videos newest first; the total counts the published ones only', async () => {
      const [me, other] = [await member(), await member()];
      await listed(table, me, [v[0], v[1], unpublished, v[2], v[3], v[4]]);
      await listed(table, other, [v[0]]);
      const first = await lists.page(list, me, { page: 1, limit: 2 });
      expect({ ...first, data: ids(first.data) }).toEqual({ data: [v[4], v[3]], page: 1, limit: 2, total: 5 });
      const last = await lists.page(list, me, { page: 3, limit: 2 });
      expect({ ...last, data: ids(last.data) }).toEqual({ data: [v[0]], page: 3, limit: 2, total: 5 });
      expect(await lists.page(list, await member(), { page: 1, limit: 24 })).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    });
  });

  it('pages the history most recently watched first, each card with when it was watched', async () => {
    const me = await member();
    await listed('history_entries', me, [v[3], v[1], v[2], unpublished], 'watched_at');
    const [{ at }] = await db.query<{ at: Date }[]>('SELECT watched_at AS at FROM history_entries WHERE user_id = $1 AND video_id = $2', [me.id, v[2]]);
    const page = await lists.historyPage(me, { page: 1, limit: 2 });
    expect(page).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.data.map((card) => [card.id, card.watched_at])).toEqual([
      [v[2], new Date(at).toISOString()],
      [v[1], expect.stringMatching(/Z$/)],
    ]);
  });

  it("clears the caller's history and no one else's", async () => {
    const [me, other] = [await member(), await member()];
    await listed('history_entries', me, [v[0], v[1]], 'watched_at');
    await listed('history_entries', other, [v[0]], 'watched_at');
    await lists.clearHistory(me);
    expect([await rowsOf('history_entries', me), await rowsOf('history_entries', other)]).toEqual([[], [v[0]]]);
  });

  it('pauses and resumes the history on the account, answering the new state', async () => {
    const me = await member();
    const paused = async () => (await db.query<{ p: boolean }[]>('SELECT history_paused AS p FROM users WHERE id = $1', [me.id]))[0].p;
    expect(await lists.setHistoryPaused(me, true)).toEqual({ paused: true });
    expect(await paused()).toBe(true);
    expect(await lists.setHistoryPaused(me, false)).toEqual({ paused: false });
    expect(await paused()).toBe(false);
  });

  it('exports every entry of every list, newest first, whatever the state of the video, and nothing of anyone else', async () => {
    const [me, other] = [await member(), await member()];
    await listed('bookmarks', me, [v[0], unpublished]);
    await listed('watch_later_items', me, [v[1]]);
    await listed('likes', me, [v[2], v[3]]);
    await listed('history_entries', me, [v[4], unpublished], 'watched_at');
    await db.query('UPDATE history_entries SET position_seconds = 42 WHERE user_id = $1 AND video_id = $2', [me.id, v[4]]);
    await listed('bookmarks', other, [v[4]]);
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await lists.exportLists(me.id)).toEqual({
      bookmarks: [
        { video_id: unpublished, added_at: iso },
        { video_id: v[0], added_at: iso },
      ],
      watch_later: [{ video_id: v[1], added_at: iso }],
      likes: [
        { video_id: v[3], liked_at: iso },
        { video_id: v[2], liked_at: iso },
      ],
      history: [
        { video_id: unpublished, watched_at: iso, position_seconds: null },
        { video_id: v[4], watched_at: iso, position_seconds: 42 },
      ],
    });
  });
});
