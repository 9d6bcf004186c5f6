import { PLAYLIST_TITLE_INVALID, PLAYLIST_TITLE_REQUIRED } from '@hunktube/shared';
import type { DataSource } from 'typeorm';
import type { AuthUser } from '../src/common/decorators/auth.decorators';
import { NOT_YOUR_ACCOUNT } from '../src/common/utils/ownership';
import { PlaylistsErrorCode } from '../src/playlists/playlists-errors';
import {
  ALREADY_IN_PLAYLIST,
  DUPLICATE_TITLE,
  NOT_A_PERMUTATION,
  NOT_IN_PLAYLIST,
  NOT_YOUR_PLAYLIST,
  PLAYLIST_NOT_FOUND,
  PlaylistsService,
} from '../src/playlists/playlists.service';
import { CatalogueCache } from '../src/videos/catalogue-cache';
import { VIDEO_NOT_FOUND } from '../src/videos/videos.repository';
import { insertVideo } from './helpers/factories';
import { catalogueOn, insertMember, refusal } from './helpers/services';
import { createTestDatabase } from './helpers/test-app';

/**
 * PlaylistsService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server), over the
 * real catalogue (its cache off, so that videos changed by SQL here are read as they are): a member's playlists,
 * their titles, items and order, who may change them, and their export.
 */
describe('PlaylistsService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let cache: CatalogueCache;
  let playlists: PlaylistsService;
  /** Published, each with a thumbnail. */
  let v: number[];
  let unpublished: number;
  let userCounter = 0;
  let titleCounter = 0;

  const member = () => insertMember(db, { email: `curator${++userCounter}@example.com`, displayName: 'Curator' });

  /** A playlist of `user` holding `videoIds` in that order, made through the service. */
  async function playlistOf(user: AuthUser, videoIds: number[], title = `Mix ${++titleCounter}`): Promise<number> {
    const { data } = await playlists.create(user, { video_id: videoIds[0], title });
    for (const videoId of videoIds.slice(1)) await playlists.addVideo(user, { playlist_id: data.playlist_id, video_id: videoId });
    return data.playlist_id;
  }

  /** The playlist's items in stored order, whatever their videos' state. */
  const items = async (playlistId: number) =>
    (await db.query<{ video_id: number }[]>('SELECT video_id FROM playlist_items WHERE playlist_id = $1 ORDER BY position', [playlistId])).map((r) =>
      Number(r.video_id),
    );
  const playlistIds = async (user: AuthUser) =>
    (await db.query<{ id: number }[]>('SELECT id FROM playlists WHERE user_id = $1 ORDER BY id', [user.id])).map((r) => Number(r.id));

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    const parts = catalogueOn(db, { CATALOGUE_CACHE: 'off' });
    ({ cache } = parts);
    const { catalogue, videos } = parts;
    playlists = new PlaylistsService(db, videos, catalogue);
    v = [];
    for (let i = 0; i < 5; i++) v.push(await insertVideo(db, { title: `Track ${i}`, thumbnail: `/thumbs/${i}.jpg` }));
    unpublished = await insertVideo(db, { title: 'Not yet', status: 'processing', thumbnail: '/thumbs/hidden.jpg' });
  });
  afterAll(async () => {
    cache?.onModuleDestroy();
    await close?.();
  });

  describe('create', () => {
    it('creates the playlist, its title trimmed, holding the video, and answers its reference', async () => {
      const me = await member();
      const created = await playlists.create(me, { video_id: v[0], title: '  Gym Mix  ', user_id: me.id });
      expect(created).toEqual({ data: { playlist_id: expect.any(Number), title: 'Gym Mix', user_id: me.id }, error: null });
      expect(await items(created.data.playlist_id)).toEqual([v[0]]);
    });

    it.each([
      ['no title', undefined, PLAYLIST_TITLE_REQUIRED],
      ['a blank title', '   ', PLAYLIST_TITLE_REQUIRED],
      ['a title too short', 'abc', PLAYLIST_TITLE_INVALID],
      ['a title with a forbidden character', 'Mix <script>', PLAYLIST_TITLE_INVALID],
    ])('refuses %s, creating nothing', async (_case, title, message) => {
      const me = await member();
      const error = await refusal(playlists.create(me, { video_id: v[0], title }));
      expect(error).toMatchObject({ name: 'InvalidInputError', message });
      expect(await playlistIds(me)).toEqual([]);
    });

    it('refuses a title the member already has, whatever its case, with 23505; another member may have it', async () => {
      const [me, other] = [await member(), await member()];
      await playlists.create(me, { video_id: v[0], title: 'Leg Day' });
      const error = await refusal(playlists.create(me, { video_id: v[1], title: ' LEG DAY ' }));
      expect(error).toMatchObject({ name: 'ConflictError', message: DUPLICATE_TITLE, code: PlaylistsErrorCode.AlreadyExists });
      expect(await playlistIds(me)).toHaveLength(1);
      await expect(playlists.create(other, { video_id: v[1], title: 'leg day' })).resolves.toMatchObject({ data: { title: 'leg day' } });
    });

    it('refuses an unknown or unpublished video with "Video not found", leaving no playlist behind', async () => {
      const me = await member();
      for (const videoId of [unpublished, 2_000_000_000]) {
        expect(await refusal(playlists.create(me, { video_id: videoId, title: 'Empty Mix' }))).toMatchObject({ name: 'NotFoundError', message: VIDEO_NOT_FOUND });
      }
      expect(await playlistIds(me)).toEqual([]);
      // The title is still free.
      await expect(playlists.create(me, { video_id: v[0], title: 'Empty Mix' })).resolves.toBeDefined();
    });

    it("refuses a playlist under another member's id, creating nothing for either", async () => {
      const [me, other] = [await member(), await member()];
      expect(await refusal(playlists.create(me, { video_id: v[0], title: 'Not Mine', user_id: other.id }))).toMatchObject({
        name: 'ForbiddenError',
        message: NOT_YOUR_ACCOUNT,
      });
      expect([await playlistIds(me), await playlistIds(other)]).toEqual([[], []]);
    });
  });

  describe('addVideo', () => {
    it('appends videos in the order added', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[2], v[0]]);
      expect(await playlists.addVideo(me, { playlist_id: id, video_id: v[1], playlistUserId: me.id })).toEqual({ error: null });
      expect(await items(id)).toEqual([v[2], v[0], v[1]]);
    });

    it('refuses a video already there with 23505, and an unknown or unpublished one with "Video not found"', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[0]]);
      expect(await refusal(playlists.addVideo(me, { playlist_id: id, video_id: v[0] }))).toMatchObject({
        name: 'ConflictError',
        message: ALREADY_IN_PLAYLIST,
        code: PlaylistsErrorCode.AlreadyExists,
      });
      for (const videoId of [unpublished, 2_000_000_000]) {
        expect(await refusal(playlists.addVideo(me, { playlist_id: id, video_id: videoId }))).toMatchObject({ name: 'NotFoundError', message: VIDEO_NOT_FOUND });
      }
      expect(await items(id)).toEqual([v[0]]);
    });

    it("refuses another member's playlist (403) or owner id, and an unknown playlist (404), changing nothing", async () => {
      const [me, other] = [await member(), await member()];
      const theirs = await playlistOf(other, [v[0]]);
      const mine = await playlistOf(me, [v[0]]);
      expect(await refusal(playlists.addVideo(me, { playlist_id: theirs, video_id: v[1] }))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      expect(await refusal(playlists.addVideo(me, { playlist_id: mine, video_id: v[1], playlistUserId: other.id }))).toMatchObject({
        name: 'ForbiddenError',
        message: NOT_YOUR_ACCOUNT,
      });
      expect(await refusal(playlists.addVideo(me, { playlist_id: 2_000_000_000, video_id: v[1] }))).toMatchObject({
        name: 'NotFoundError',
        message: PLAYLIST_NOT_FOUND,
      });
      expect([await items(theirs), await items(mine)]).toEqual([[v[0]], [v[0]]]);
    });
  });

  describe('reading', () => {
    it("lists the member's playlists most recently changed first, counting and showing published videos only", async () => {
      const [me, other] = [await member(), await member()];
      const older = await playlistOf(me, [v[0], v[1]], 'Older Mix');
      const hidden = await playlistOf(me, [v[2], v[3]], 'Hidden First');
      await playlistOf(other, [v[4]]);
      await db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, -1)`, [hidden, unpublished]);
      await db.query(`UPDATE playlists SET updated_at = now() - interval '1 hour' WHERE id = $1`, [older]);
      expect(await playlists.list(me)).toEqual({
        data: [
          { playlist_id: hidden, title: 'Hidden First', user_id: me.id, video_count: 2, thumbnail: '/thumbs/2.jpg' },
          { playlist_id: older, title: 'Older Mix', user_id: me.id, video_count: 2, thumbnail: '/thumbs/0.jpg' },
        ],
        error: null,
      });
      expect(await playlists.list(await member())).toEqual({ data: [], error: null });
    });

    it('answers an owned playlist with its published videos in order as cards', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[3], v[1], v[4]], 'Ordered');
      await db.query(`UPDATE videos SET status = 'failed' WHERE id = $1`, [v[4]]);
      try {
        const found = await playlists.findOne(me, id);
        expect(found.playlist).toEqual({ playlist_id: id, title: 'Ordered', user_id: me.id });
        expect(found.data.map((card) => card.id)).toEqual([v[3], v[1]]);
        expect(found.data[0]).toMatchObject({ id: v[3], title: 'Track 3', thumbnail: '/thumbs/3.jpg' });
      } finally {
        await db.query(`UPDATE videos SET status = 'ready' WHERE id = $1`, [v[4]]);
      }
    });

    it("refuses to show another member's playlist (403) or an unknown one (404)", async () => {
      const [me, other] = [await member(), await member()];
      const theirs = await playlistOf(other, [v[0]]);
      expect(await refusal(playlists.findOne(me, theirs))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      expect(await refusal(playlists.findOne(me, 2_000_000_000))).toMatchObject({ name: 'NotFoundError', message: PLAYLIST_NOT_FOUND });
    });
  });

  describe('rename', () => {
    it('renames, trimmed, and a change of case of its own title is no conflict', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[0]], 'Cardio');
      expect(await playlists.rename(me, id, '  Cardio Blast ')).toEqual({ playlist: { playlist_id: id, title: 'Cardio Blast', user_id: me.id } });
      expect(await playlists.rename(me, id, 'CARDIO BLAST')).toEqual({ playlist: { playlist_id: id, title: 'CARDIO BLAST', user_id: me.id } });
    });

    it("refuses another of the member's titles with 23505, a bad title, and another member's playlist, renaming nothing", async () => {
      const [me, other] = [await member(), await member()];
      const id = await playlistOf(me, [v[0]], 'Warm Up');
      await playlistOf(me, [v[0]], 'Cool Down');
      const theirs = await playlistOf(other, [v[0]], 'Theirs');
      expect(await refusal(playlists.rename(me, id, 'cool down'))).toMatchObject({
        name: 'ConflictError',
        message: DUPLICATE_TITLE,
        code: PlaylistsErrorCode.AlreadyExists,
      });
      expect(await refusal(playlists.rename(me, id, undefined))).toMatchObject({ name: 'InvalidInputError', message: PLAYLIST_TITLE_REQUIRED });
      expect(await refusal(playlists.rename(me, theirs, 'Stolen'))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      expect(await refusal(playlists.rename(me, 2_000_000_000, 'Nowhere'))).toMatchObject({ name: 'NotFoundError', message: PLAYLIST_NOT_FOUND });
      const titles = await db.query<{ title: string }[]>('SELECT title FROM playlists WHERE id = ANY($1::int[]) ORDER BY id', [[id, theirs]]);
      expect(titles).toEqual([{ title: 'Warm Up' }, { title: 'Theirs' }]);
    });
  });

  describe('remove and removeVideo', () => {
    it('deletes an owned playlist with its items; refuses one of another member or unknown', async () => {
      const [me, other] = [await member(), await member()];
      const mine = await playlistOf(me, [v[0], v[1]]);
      const theirs = await playlistOf(other, [v[0]]);
      expect(await refusal(playlists.remove(me, theirs))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      await playlists.remove(me, mine);
      expect(await playlistIds(me)).toEqual([]);
      expect(await items(mine)).toEqual([]);
      expect(await refusal(playlists.remove(me, mine))).toMatchObject({ name: 'NotFoundError', message: PLAYLIST_NOT_FOUND });
      expect(await playlistIds(other)).toEqual([theirs]);
    });

    it('takes one video out, marking the playlist changed; a video not there is "Video is not in this playlist"', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[0], v[1], v[2]]);
      await db.query(`UPDATE playlists SET updated_at = '2020-01-01' WHERE id = $1`, [id]);
      await playlists.removeVideo(me, id, v[1]);
      expect(await items(id)).toEqual([v[0], v[2]]);
      const [{ touched }] = await db.query<{ touched: boolean }[]>(`SELECT updated_at > '2020-01-02' AS touched FROM playlists WHERE id = $1`, [id]);
      expect(touched).toBe(true);
      expect(await refusal(playlists.removeVideo(me, id, v[1]))).toMatchObject({ name: 'NotFoundError', message: NOT_IN_PLAYLIST });
    });

    it("refuses to take a video out of another member's playlist", async () => {
      const [me, other] = [await member(), await member()];
      const theirs = await playlistOf(other, [v[0]]);
      expect(await refusal(playlists.removeVideo(me, theirs, v[0]))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      expect(await items(theirs)).toEqual([v[0]]);
    });
  });

  describe('reorder', () => {
    it('puts the videos shown in the order given, keeping unpublished ones after them in their order', async () => {
      const me = await member();
      const id = await playlistOf(me, [v[0], v[1], v[2]]);
      await db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 1)`, [id, unpublished]);
      await playlists.reorder(me, id, [v[2], v[0], v[1]]);
      expect(await items(id)).toEqual([v[2], v[0], v[1], unpublished]);
      expect((await playlists.findOne(me, id)).data.map((card) => card.id)).toEqual([v[2], v[0], v[1]]);
    });

    it.each([
      ['a video left out', (v: number[]) => [v[1], v[0]]],
      ['a video twice', (v: number[]) => [v[0], v[1], v[2], v[0]]],
      ['a video not in the playlist', (v: number[]) => [v[0], v[1], v[2], v[3]]],
    ])('refuses an order with %s, changing nothing', async (_case, order) => {
      const me = await member();
      const id = await playlistOf(me, [v[0], v[1], v[2]]);
      expect(await refusal(playlists.reorder(me, id, order(v)))).toMatchObject({ name: 'InvalidInputError', message: NOT_A_PERMUTATION });
      expect(await items(id)).toEqual([v[0], v[1], v[2]]);
    });

    it("refuses to reorder another member's playlist", async () => {
      const [me, other] = [await member(), await member()];
      const theirs = await playlistOf(other, [v[0], v[1]]);
      expect(await refusal(playlists.reorder(me, theirs, [v[1], v[0]]))).toMatchObject({ name: 'ForbiddenError', message: NOT_YOUR_PLAYLIST });
      expect(await items(theirs)).toEqual([v[0], v[1]]);
    });
  });

  it('exports every playlist with all its videos in order, whatever their state, and nothing of anyone else', async () => {
    const [me, other] = [await member(), await member()];
    const first = await playlistOf(me, [v[1], v[0]], 'First Made');
    const second = await playlistOf(me, [v[2]], 'Second Made');
    await db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 5)`, [second, unpublished]);
    await db.query(`UPDATE playlists SET updated_at = now() - interval '1 hour' WHERE id = $1`, [first]);
    await playlistOf(other, [v[3]]);
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await playlists.exportPlaylists(me.id)).toEqual([
      {
        id: second,
        title: 'Second Made',
        created_at: iso,
        updated_at: iso,
        videos: [
          { video_id: v[2], added_at: iso },
          { video_id: unpublished, added_at: iso },
        ],
      },
      {
        id: first,
        title: 'First Made',
        created_at: iso,
        updated_at: iso,
        videos: [
          { video_id: v[1], added_at: iso },
          { video_id: v[0], added_at: iso },
        ],
      },
    ]);
  });
});
