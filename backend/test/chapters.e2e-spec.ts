import { editPrecondition } from '@hunktube/shared';
import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

type Chapter = { start: number; title: string };
type Video = Record<string, unknown> & { id: number; chapters: Chapter[] };

/**
 * A video's chapters (issue #34, point 4; api-contract.md › Discovery): written by update-video, answered on
 * `Video` in ascending order, validated (400 in the error shape, nothing written), admins only, part of the edit
 * version, and shown to every visitor on the next read.
 */
describe('Chapters (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(() => t?.close());

  const read = async (id: number): Promise<Video> => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body as Video;
  const update = (body: object, user: TestUser | null = admin) => {
    const req = request(t.http).post('/api/admin/update-video');
    return (user ? req.set(bearer(user)) : req).send(body);
  };
  const stored = async (id: number) => (await t.db.query<{ chapters: unknown }[]>('SELECT chapters FROM videos WHERE id = $1', [id]))[0].chapters;

  it('answers no chapters for a video that has none', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    expect((await read(id)).chapters).toEqual([]);
  });

  it('writes chapters in ascending order with titles trimmed, shows them to every visitor at once, and [] removes them', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    await read(id); // kept by the catalogue's caches
    const res = await update({ id, chapters: [{ start: 300, title: ' Shower ' }, { start: 0, title: 'Intro' }, { start: 95, title: 'Poolside <b>' }] }).expect(200);
    const chapters = [{ start: 0, title: 'Intro' }, { start: 95, title: 'Poolside <b>' }, { start: 300, title: 'Shower' }];
    expect(res.body.data.chapters).toEqual(chapters);
    expect((await read(id)).chapters).toEqual(chapters);

    // Left out: kept; other fields edited meanwhile.
    await update({ id, title: 'Renamed' }).expect(200);
    expect((await read(id)).chapters).toEqual(chapters);
    await update({ id, chapters: [] }).expect(200);
    expect((await read(id)).chapters).toEqual([]);
  });

  it('answers 401 without a token and 403 for a member, writing nothing', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    await update({ id, chapters: [{ start: 1, title: 'x' }] }, null).expect(401);
    await update({ id, chapters: [{ start: 1, title: 'x' }] }, member).expect(403);
    expect(await stored(id)).toEqual([]);
  });

  it.each([
    ['a start below 0', [{ start: -1, title: 'a' }], /a chapter start must not be negative/],
    ['a start in tenths', [{ start: 1.5, title: 'a' }], /a chapter start must be a whole number of seconds/],
    ['a start as text', [{ start: '10', title: 'a' }], /a chapter start must be a whole number of seconds/],
    ['a start past a day', [{ start: 86_401, title: 'a' }], /a chapter start must be at most 86400 seconds/],
    ['an empty title', [{ start: 1, title: '   ' }], /a chapter title must not be empty/],
    ['a title too long', [{ start: 1, title: 'x'.repeat(101) }], /a chapter title must be at most 100 characters long/],
    ['a title that is not text', [{ start: 1, title: 7 }], /a chapter title must be a string/],
    ['51 chapters', Array.from({ length: 51 }, (_, i) => ({ start: i, title: `c${i}` })), /a video has at most 50 chapters/],
    ['an object instead of a list', { start: 1, title: 'a' }, /chapters must be an array of \{start, title\}/],
    ['null', null, /chapters must be an array/],
    ['a list in the list', [[]], /each chapter must be an object \{start, title\}/],
    ['a number in the list', [5], /each chapter must be an object/],
    ['two at one second', [{ start: 5, title: 'a' }, { start: 5, title: 'b' }], /two chapters start at 5 s/],
    ['one at or after the end', [{ start: 0, title: 'a' }, { start: 600, title: 'Credits' }], /the chapter "Credits" starts at 600 s, after the video ends \(600 s\)/],
  ])('answers 400 for %s, writing nothing', async (_case, chapters, message) => {
    const id = await insertVideo(t.db, { duration: 600 });
    await update({ id, chapters: [{ start: 10, title: 'Kept' }] }).expect(200);
    const res = await update({ id, title: 'Not written', chapters }).expect(400);
    expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
    expect((await read(id)).chapters).toEqual([{ start: 10, title: 'Kept' }]);
    expect((await read(id)).title).not.toBe('Not written');
  });

  it('keeps only the start and title of a chapter, as it ignores the rest of the Video object it is sent', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    await update({ id, chapters: [{ start: 1, title: 'a', thumbnail: 'x', end: 5 }] }).expect(200);
    expect(await stored(id)).toEqual([{ start: 1, title: 'a' }]);
  });

  it('takes 50 chapters, and any start while the duration is unknown', async () => {
    const id = await insertVideo(t.db, { duration: null });
    const fifty = Array.from({ length: 50 }, (_, i) => ({ start: i * 100, title: `Part ${i + 1}` }));
    await update({ id, chapters: fifty }).expect(200);
    expect((await read(id)).chapters).toHaveLength(50);
  });

  it('counts chapters in the edit version: an edit from a read before another admin marked them answers 409', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    const before = await read(id);
    const other = await registerAdmin(t);
    await update({ id, chapters: [{ start: 30, title: 'Theirs' }] }, other).expect(200);
    const precondition = (video: Video) => editPrecondition(video as unknown as Parameters<typeof editPrecondition>[0]);
    await update({ id, chapters: [{ start: 60, title: 'Mine' }] }).set('If-Match', precondition(before)).expect(409);
    const after = await read(id);
    expect(after.chapters).toEqual([{ start: 30, title: 'Theirs' }]);
    await update({ id, chapters: [{ start: 60, title: 'Mine' }] }).set('If-Match', precondition(after)).expect(200);
    expect((await read(id)).chapters).toEqual([{ start: 60, title: 'Mine' }]);
  });
});
