import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { ffprobePath } from '../src/media/ffmpeg.runner';
import { decryptSegment, sequenceIv } from '../src/media/hls-encryption';
import { HlsRekeyService } from '../src/media/hls-rekey.service';
import { signedPath } from '../src/media/signing';
import { testClip } from './helpers/clips';
import { bearer, createTestApp, registerAdmin, type TestApp, type TestUser, waitForJob } from './helpers/test-app';
import { binary } from './helpers/binary';

/** Every file under `dir`, relative. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());

/** Whether these bytes are MPEG-TS: the sync byte at the start of each of the first packets. */
const isTransportStream = (bytes: Buffer) => [0, 188, 376, 564].every((at) => bytes[at] === 0x47);

/** ffprobe reading from this process's own server: run without blocking it (spawnSync would deadlock). */
const probe = (args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(ffprobePath(), args, { encoding: 'utf8' }, (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });

const KEY_TAG = /^#EXT-X-KEY:METHOD=AES-128,URI="([0-9a-f]{16})\.key"$/m;

describe('Encrypted HLS (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;
  let media: string;
  let clip: string;
  let admin: TestUser;
  let origin: string;
  const CLIP_SECONDS = 6;

  interface Ingested {
    id: number;
    stem: string;
    /** `/s/{token},{expires}/videos/{stem}/`: the folder's signed URL. */
    folderUrl: string;
    folder: string;
  }

  async function ingest(title: string): Promise<Ingested> {
    const upload = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', title).attach('file', clip).expect(202);
    expect(await waitForJob(t, upload.body.job_id)).toMatchObject({ state: 'done', error: null });
    const video = (await request(t.http).get(`/api/videos/${upload.body.id}`).expect(200)).body as { stream_path: string };
    const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body as { secureUrl: string };
    const stem = video.stream_path.slice('/videos/'.length, -'/index.m3u8'.length);
    return { id: upload.body.id, stem, folderUrl: secureUrl.slice(0, -'index.m3u8'.length), folder: path.join(media, 'videos', stem) };
  }

  const playlistOf = (v: Ingested, name = '240p.m3u8') => readFileSync(path.join(v.folder, name), 'utf8');
  const keyIdOf = (playlist: string) => KEY_TAG.exec(playlist)?.[1] as string;
  const segmentsOf = (playlist: string) => playlist.split('\n').filter((l) => l.endsWith('.ts'));
  const get = (url: string) => request(t.http).get(url).buffer(true).parse(binary);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hls-keys-'));
    media = path.join(dir, 'media');
    clip = path.join(dir, 'clip.mp4');
    testClip(clip, { seconds: CLIP_SECONDS });
    // HLS_ENCRYPTION is not set: it is on by default.
    t = await createTestApp({ MEDIA_DIR: media, MAX_UPLOAD_BYTES: String(5 * 1024 * 1024) });
    admin = await registerAdmin(t);
    const server = (t.app.getHttpServer() as Server).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seals every segment of a new ingest under the video\'s own key, kept wrapped in the database and nowhere in the store', async () => {
    const a = await ingest('Sealed One');
    const b = await ingest('Sealed Two');
    const master = readFileSync(path.join(a.folder, 'index.m3u8'), 'utf8');
    const variants = master.split('\n').filter((l) => l.endsWith('.m3u8'));
    expect(variants.length).toBeGreaterThan(0);
    const keyId = keyIdOf(playlistOf(a));
    for (const variant of variants) {
      const text = playlistOf(a, variant);
      // One key tag, the same key for every rendition, no IV attribute (each segment's sequence number is its IV).
      expect(text.match(/#EXT-X-KEY/g)).toHaveLength(1);
      expect(keyIdOf(text)).toBe(keyId);
      expect(segmentsOf(text).every((s) => s.endsWith(`-${keyId}.ts`))).toBe(true);
    }
    // Another video, another key.
    expect(keyIdOf(playlistOf(b))).not.toBe(keyId);
    // No clear segment and no key among the files; no key file for the edge to find either.
    const files = filesUnder(media);
    expect(files.filter((f) => f.endsWith('.key') || /_\d{3}\.ts$/.test(f))).toEqual([]);
    const rows = await t.db.query<{ stem: string; video_id: number; wrapped: Buffer }[]>('SELECT stem, video_id, wrapped FROM hls_keys WHERE key_id = $1', [keyId]);
    expect(rows.map((r) => [r.stem, r.video_id, Buffer.from(r.wrapped).length])).toEqual([[a.stem, a.id, 45]]);
  }, 120_000);

  it('answers the key only to its folder\'s signed link, and keeps it out of every cache', async () => {
    const a = await ingest('Key Holder');
    const b = await ingest('Key Neighbour');
    const keyId = keyIdOf(playlistOf(a));
    const key = await get(`${a.folderUrl}${keyId}.key`).expect(200);
    expect(key.body).toHaveLength(16);
    expect(key.headers).toMatchObject({ 'content-type': 'application/octet-stream', 'cache-control': 'private, no-store' });
    // It opens the video's first segment.
    const [first] = segmentsOf(playlistOf(a));
    const sealed = readFileSync(path.join(a.folder, first));
    expect(isTransportStream(sealed)).toBe(false);
    expect(isTransportStream(decryptSegment(sealed, key.body as Buffer, sequenceIv(0)))).toBe(true);

    // Another folder's token, a made-up token, an expired link, another folder's key id, an id of no key.
    expect((await get(`${b.folderUrl}${keyId}.key`).expect(404)).body.toString()).toBe(JSON.stringify({ error: 'Not found', statusCode: 404 }));
    await get(`${a.folderUrl.replace(/\/s\/[^,]+/, '/s/AAAAAAAAAAAAAAAAAAAAAA')}${keyId}.key`).expect(403);
    const expired = signedPath(`/videos/${a.stem}/`, `${keyId}.key`, Math.floor(Date.now() / 1000) - 60, t.config.mediaSigningKey);
    expect(JSON.parse((await get(expired).expect(410)).body.toString())).toEqual({ error: 'This media link has expired', statusCode: 410 });
    await get(`${a.folderUrl}${keyIdOf(playlistOf(b))}.key`).expect(404);
    await get(`${a.folderUrl}0000000000000000.key`).expect(404);
    await get(`${a.folderUrl}nothex.key`).expect(404);
  }, 120_000);

  it('plays in ffmpeg through the signed link, the key fetched from the API; a segment alone does not decode', async () => {
    const a = await ingest('Played Sealed');
    const [first] = segmentsOf(playlistOf(a));
    // What ffprobe finds in a file: the codecs of its streams (none when it cannot read it at all). Random bytes
    // may pass for some audio format's frames, so the test is that no H.264 picture is found, as it is once opened.
    const codecsIn = (file: string) => {
      const found = spawnSync(ffprobePath(), ['-v', 'quiet', '-show_entries', 'stream=codec_name', '-of', 'json', file], { encoding: 'utf8' });
      return found.status === 0 ? (JSON.parse(found.stdout || '{}').streams ?? []).map((s: { codec_name: string }) => s.codec_name) : [];
    };
    expect(codecsIn(path.join(a.folder, first))).not.toContain('h264');
    const key = (await get(`${a.folderUrl}${keyIdOf(playlistOf(a))}.key`).expect(200)).body as Buffer;
    const opened = path.join(dir, 'opened.ts');
    writeFileSync(opened, decryptSegment(readFileSync(path.join(a.folder, first)), key, sequenceIv(0)));
    expect(codecsIn(opened)).toEqual(expect.arrayContaining(['h264', 'aac']));

    const played = await probe(['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames,codec_name', '-of', 'json', `${origin}${a.folderUrl}index.m3u8`]);
    expect(played.stderr).toBe('');
    expect(played.status).toBe(0);
    const [stream] = JSON.parse(played.stdout).streams as { codec_name: string; nb_read_frames: string }[];
    expect(stream.codec_name).toBe('h264');
    expect(Number(stream.nb_read_frames)).toBe(CLIP_SECONDS * 30);
  }, 120_000);

  it('re-keys a video while a player that loaded the old playlists goes on, and sweeps the old segments and key once their links expire', async () => {
    const a = await ingest('Re-keyed');
    const before = playlistOf(a);
    const oldKeyId = keyIdOf(before);
    const oldKey = (await get(`${a.folderUrl}${oldKeyId}.key`).expect(200)).body as Buffer;

    const result = await t.app.get(HlsRekeyService).rekey(a.stem);
    expect(result).toMatchObject({ stem: a.stem, wasClear: false, sweepAfterSeconds: 2 * 3600 });
    expect(result.keyId).not.toBe(oldKeyId);
    const after = playlistOf(a);
    expect(keyIdOf(after)).toBe(result.keyId);
    expect(segmentsOf(after)).toEqual(segmentsOf(before).map((s) => s.replace(oldKeyId, result.keyId)));

    // The player that loaded the old playlist: its segments and its key are still served.
    const oldSegment = (await get(`${a.folderUrl}${segmentsOf(before)[1]}`).expect(200)).body as Buffer;
    expect((await get(`${a.folderUrl}${oldKeyId}.key`).expect(200)).body.equals(oldKey)).toBe(true);
    // A new player: new names under the new key, the same pictures.
    const newKey = (await get(`${a.folderUrl}${result.keyId}.key`).expect(200)).body as Buffer;
    const newSegment = (await get(`${a.folderUrl}${segmentsOf(after)[1]}`).expect(200)).body as Buffer;
    expect(decryptSegment(newSegment, newKey, sequenceIv(1)).equals(decryptSegment(oldSegment, oldKey, sequenceIv(1)))).toBe(true);

    // The sweep waits for the links given before to expire (2 h for a short video); brought forward here.
    const [sweep] = await t.db.query<{ id: number; seconds: number }[]>(
      `SELECT id, extract(epoch FROM not_before - now())::float8 AS seconds FROM ingest_jobs WHERE kind = 'hls-sweep' AND video_id = $1`, [a.id]);
    expect(sweep.seconds).toBeGreaterThan(2 * 3600 - 60);
    await t.db.query('UPDATE ingest_jobs SET not_before = now() WHERE id = $1', [sweep.id]);
    expect(await waitForJob(t, sweep.id)).toMatchObject({ state: 'done', error: null });
    await get(`${a.folderUrl}${segmentsOf(before)[1]}`).expect(404);
    await get(`${a.folderUrl}${oldKeyId}.key`).expect(404);
    expect(filesUnder(a.folder).filter((f) => f.includes(oldKeyId))).toEqual([]);
    // What plays now is whole.
    const played = await probe(['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'json', `${origin}${a.folderUrl}index.m3u8`]);
    expect([played.status, played.stderr]).toEqual([0, '']);
    expect(Number(JSON.parse(played.stdout).streams[0].nb_read_frames)).toBe(CLIP_SECONDS * 30);
  }, 180_000);

  it('encrypts a video ingested in the clear, then sweeps the clear copies', async () => {
    // The same process with HLS_ENCRYPTION off for one ingest (a video from before encryption).
    t.config.hlsEncryption = false;
    let a: Ingested;
    try {
      a = await ingest('Once Clear');
    } finally {
      t.config.hlsEncryption = true;
    }
    const before = playlistOf(a);
    expect(before).not.toContain('#EXT-X-KEY');
    const rekeys = t.app.get(HlsRekeyService);
    expect(await rekeys.isEncrypted(a.stem)).toBe(false);
    const clearStems: string[] = [];
    for await (const stem of rekeys.stems()) if (!(await rekeys.isEncrypted(stem))) clearStems.push(stem);
    expect(clearStems).toEqual([a.stem]);

    const result = await rekeys.rekey(a.stem);
    expect(result.wasClear).toBe(true);
    expect(await rekeys.isEncrypted(a.stem)).toBe(true);
    // The clear segment stays for players that loaded the clear playlist, until their links expire.
    const clearSegment = segmentsOf(before)[0];
    await get(`${a.folderUrl}${clearSegment}`).expect(200);
    const [sweep] = await t.db.query<{ id: number }[]>(`SELECT id FROM ingest_jobs WHERE kind = 'hls-sweep' AND video_id = $1`, [a.id]);
    await t.db.query('UPDATE ingest_jobs SET not_before = now() WHERE id = $1', [sweep.id]);
    expect(await waitForJob(t, sweep.id)).toMatchObject({ state: 'done' });
    await get(`${a.folderUrl}${clearSegment}`).expect(404);
    expect(filesUnder(a.folder).filter((f) => /_\d{3}\.ts$/.test(f))).toEqual([]);
  }, 180_000);

  it('forgets the keys of a removed video: the key is no longer answered, its rows are gone', async () => {
    const a = await ingest('Removed Sealed');
    const keyId = keyIdOf(playlistOf(a));
    await get(`${a.folderUrl}${keyId}.key`).expect(200);
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: a.id }).expect(200);
    await get(`${a.folderUrl}${keyId}.key`).expect(404);
    expect(await t.db.query('SELECT 1 FROM hls_keys WHERE stem = $1', [a.stem])).toEqual([]);
  }, 120_000);
});
