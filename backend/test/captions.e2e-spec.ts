import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

type Caption = { lang: string; label: string; url: string };

const SRT = '1\r\n00:00:01,000 --> 00:00:03,500\r\nHello <font color="red">there</font>\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\nSecond line\r\n';
const VTT_FROM_SRT = 'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello there\n\n00:00:04.000 --> 00:00:06.000\nSecond line\n';

/**
 * Captions (issue #34, point 5; api-contract.md › Discovery): admins upload WebVTT or SRT per language, served as
 * sanitised WebVTT under the image host and listed on `Video`; one per language, replaced by a new upload;
 * removed by DELETE. Auth, limits, hostile values and unknown ids each answer a 4xx and change nothing.
 */
describe('Captions (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(tmpdir(), 'captions-media-'));
    t = await createTestApp({ MEDIA_DIR: mediaDir, INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const upload = (id: number | string, fields: Record<string, string>, file: Buffer | string | null = SRT, user: TestUser | null = admin, name = 'subs.srt') => {
    let req = request(t.http).post(`/api/admin/videos/${id}/captions`);
    if (user) req = req.set(bearer(user));
    for (const [key, value] of Object.entries(fields)) req = req.field(key, value);
    return file === null ? req : req.attach('file', Buffer.from(file), name);
  };
  const remove = (id: number | string, lang: string, user: TestUser | null = admin) => {
    const req = request(t.http).delete(`/api/admin/videos/${id}/captions/${lang}`);
    return user ? req.set(bearer(user)) : req;
  };
  const captionsOf = async (id: number) => ((await request(t.http).get(`/api/videos/${id}`).expect(200)).body as { captions: Caption[] }).captions;
  const served = (url: string) => request(t.http).get(new URL(url, 'http://x').pathname);

  it('converts an SRT to WebVTT, serves it as text/vtt and lists it on the video, with the language’s name as its label', async () => {
    const id = await insertVideo(t.db, { url: '/2026/11/captioned.mp4' });
    expect(await captionsOf(id)).toEqual([]);
    const res = await upload(id, { lang: 'en' }).expect(201);
    expect(res.body).toEqual({ lang: 'en', label: 'English', url: expect.stringMatching(/^\/thumbs\/2026\/11\/captioned\/captions\/en\.vtt\?v=\d+$/) });
    expect(await captionsOf(id)).toEqual([res.body]);
    const file = await served(res.body.url).expect(200);
    expect(file.headers['content-type']).toMatch(/^text\/vtt/);
    expect(file.text).toBe(VTT_FROM_SRT);
  });

  it('keeps one file per language: a new upload replaces it and its label, under a new address', async () => {
    const id = await insertVideo(t.db);
    const first = (await upload(id, { lang: 'PT-br', label: 'Português' }).expect(201)).body as Caption;
    expect(first.lang).toBe('pt-BR');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the address carries the second it was written
    const vtt = 'WEBVTT\n\nNOTE kept out\n\n00:00:02.000 --> 00:00:03.000 align:start\n<v Ana>Olá <script>x</script>\n';
    const second = (await upload(id, { lang: 'pt-br', label: 'Portuguese (Brazil)' }, vtt, admin, 'subs.vtt').expect(201)).body as Caption;
    expect(second.url).not.toBe(first.url);
    await upload(id, { lang: 'fr' }).expect(201);
    expect((await captionsOf(id)).map((c) => [c.lang, c.label])).toEqual([['fr', 'French'], ['pt-BR', 'Portuguese (Brazil)']]);
    expect((await served(second.url).expect(200)).text).toBe('WEBVTT\n\n00:00:02.000 --> 00:00:03.000 align:start\n<v Ana>Olá x</v>\n');
  });

  it('removes a language with DELETE: 204, gone from the video and the store; again, 404', async () => {
    const id = await insertVideo(t.db);
    const caption = (await upload(id, { lang: 'de' }).expect(201)).body as Caption;
    await upload(id, { lang: 'en' }).expect(201);
    await remove(id, 'de').expect(204);
    expect((await captionsOf(id)).map((c) => c.lang)).toEqual(['en']);
    expect((await served(caption.url)).status).toBeGreaterThanOrEqual(400);
    const again = await remove(id, 'de').expect(404);
    expect(again.body).toEqual({ error: 'This video has no captions in that language', statusCode: 404 });
  });

  it('answers 401 without a token and 403 for a member, writing nothing', async () => {
    const id = await insertVideo(t.db);
    await upload(id, { lang: 'en' }, SRT, null).expect(401);
    await upload(id, { lang: 'en' }, SRT, member).expect(403);
    await upload(id, { lang: 'en' }).expect(201);
    await remove(id, 'en', null).expect(401);
    await remove(id, 'en', member).expect(403);
    expect((await captionsOf(id)).map((c) => c.lang)).toEqual(['en']);
  });

  it.each([
    ['no file', { lang: 'en' }, null, 400, /No file selected: send the captions in the multipart field "file"/],
    ['no lang', {}, SRT, 400, /lang must be a string/],
    ['a word for a language', { lang: 'english' }, SRT, 400, /lang must be a BCP 47 language tag/],
    ['a path for a language', { lang: '../en' }, SRT, 400, /lang must be a BCP 47 language tag/],
    ['a tag too long', { lang: `en-${'a'.repeat(40)}` }, SRT, 400, /lang must be at most 35 characters long/],
    ['a label too long', { lang: 'en', label: 'x'.repeat(61) }, SRT, 400, /label must be at most 60 characters long/],
    ['a field of its own', { lang: 'en', kind: 'subtitles' }, SRT, 400, /property kind should not exist/],
    ['an image for captions', { lang: 'en' }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]), 415, /The captions must be UTF-8 text/],
    ['text with no cue', { lang: 'en' }, 'Just a transcript, no timings.\n', 415, /The file holds no WebVTT or SRT captions: send a WebVTT or SRT file/],
    ['a file over 512 kB', { lang: 'en' }, `WEBVTT\n\n00:01.000 --> 00:02.000\n${'x'.repeat(512 * 1024)}\n`, 413, /./],
  ])('answers %s with its 4xx in the error shape, writing nothing', async (_case, fields, file, status, message) => {
    const id = await insertVideo(t.db);
    const res = await upload(id, fields as Record<string, string>, file as Buffer | string | null).expect(status);
    expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: status });
    expect(await captionsOf(id)).toEqual([]);
  });

  it('answers 404 for an unknown video and 400 for a bad id or tag, on both routes', async () => {
    expect((await upload(999_999, { lang: 'en' }).expect(404)).body).toEqual({ error: 'Video not found', statusCode: 404 });
    await upload('abc', { lang: 'en' }).expect(400);
    await remove(999_999, 'en').expect(404);
    await remove('abc', 'en').expect(400);
    const id = await insertVideo(t.db);
    expect((await remove(id, 'not_a_tag').expect(400)).body.error).toMatch(/BCP 47/);
  });

  it('takes captions for a video not yet published (an upload still processing)', async () => {
    const id = await insertVideo(t.db, { status: 'processing' });
    await upload(id, { lang: 'en' }).expect(201);
    const [{ n }] = await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM video_captions WHERE video_id = $1', [id]);
    expect(Number(n)).toBe(1);
  });
});
