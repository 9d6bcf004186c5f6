import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

const MB = 1024 * 1024;

const image = {
  jpeg: (size = 64) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size)]),
  png: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]),
  webp: () => Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x44, 0, 0, 0]), Buffer.from('WEBPVP8 '), randomBytes(64)]),
  avif: () => Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif'), Buffer.alloc(4), Buffer.from('mif1miafavif'), randomBytes(64)]),
};

/** Every file under `dir` (symlinks not followed), relative, with its bytes as hex, skipping `skip`. */
function snapshot(dir: string, skip: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (full === skip) continue;
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = entry.isSymbolicLink() ? 'symlink' : readFileSync(full).toString('hex');
    }
  };
  walk(dir);
  return files;
}

describe('POST /api/admin/update-thumbnail (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let base: string;
  let thumbs: string;
  let outside: string;

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'admin-thumbs-'));
    thumbs = path.join(base, 'media', 'thumbs');
    outside = path.join(base, 'outside');
    mkdirSync(thumbs, { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'target.jpg'), 'original outside file');
    // Links planted inside the store that lead out of it.
    symlinkSync(outside, path.join(thumbs, 'escape'));
    symlinkSync(path.join(outside, 'target.jpg'), path.join(thumbs, 'link.jpg'));
    t = await createTestApp({ MEDIA_DIR: path.join(base, 'media'), INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(async () => {
    await t.close();
    rmSync(base, { recursive: true, force: true });
  });

  const upload = (uploadPath: string | null, bytes: Buffer | null, options: { filename?: string; contentType?: string; user?: TestUser | null } = {}) => {
    let req = request(t.http).post('/api/admin/update-thumbnail');
    if (options.user !== null) req = req.set(bearer(options.user ?? admin));
    if (bytes) req = req.attach('file', bytes, { filename: options.filename ?? 'thumb.jpg', contentType: options.contentType ?? 'image/jpeg' });
    if (uploadPath !== null) req = req.field('uploadPath', uploadPath);
    return req;
  };
  const onDisk = (relative: string) => readFileSync(path.join(thumbs, relative));

  it('writes the image at the path and answers its URL', async () => {
    const bytes = image.jpeg();
    const res = await upload('/thumbs/2024/06/pool-party/poster.jpg', bytes).expect(200);
    expect(res.body).toEqual({ url: '/thumbs/2024/06/pool-party/poster.jpg' });
    expect(onDisk('2024/06/pool-party/poster.jpg').equals(bytes)).toBe(true);
  });

  it('replaces an existing file with the new bytes, leaving no temporary file', async () => {
    const first = image.jpeg();
    const second = image.png();
    await upload('/thumbs/replace/poster.jpg', first).expect(200);
    await upload('/thumbs/replace/poster.jpg', second, { filename: 'new.png', contentType: 'image/png' }).expect(200);
    expect(onDisk('replace/poster.jpg').equals(second)).toBe(true);
    expect(readdirSync(path.join(thumbs, 'replace'))).toEqual(['poster.jpg']);
  });

  it('takes the path of an absolute URL, as the thumbnail URL field may hold one', async () => {
    const bytes = image.webp();
    const res = await upload('https://img.example.com/thumbs/abs/thumb.webp?v=2', bytes, { filename: 'x.webp', contentType: 'image/webp' }).expect(200);
    expect(res.body).toEqual({ url: '/thumbs/abs/thumb.webp' });
    expect(onDisk('abs/thumb.webp').equals(bytes)).toBe(true);
  });

  it.each(['jpeg', 'png', 'webp', 'avif'] as const)('accepts %s bytes', async (kind) => {
    const bytes = image[kind]();
    await upload(`/thumbs/kinds/${kind}.jpg`, bytes, { filename: 'file.bin', contentType: 'application/octet-stream' }).expect(200);
    expect(onDisk(`kinds/${kind}.jpg`).equals(bytes)).toBe(true);
  });

  it.each([
    ['GIF bytes named .jpg and declared image/jpeg', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'evil.jpg', 'image/jpeg'],
    ['HTML named .png', Buffer.from('<!doctype html><script>alert(1)</script>'), 'evil.png', 'image/png'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg', 'image/svg+xml'],
    ['an empty file', Buffer.alloc(0), 'empty.jpg', 'image/jpeg'],
  ])('answers 415 for %s and writes nothing', async (_case, bytes, filename, contentType) => {
    const res = await upload('/thumbs/refused/poster.jpg', bytes, { filename, contentType }).expect(415);
    expect(res.body).toEqual({ error: 'The file must be a JPEG, PNG, WebP or AVIF image', statusCode: 415 });
    expect(snapshot(thumbs, '')).not.toHaveProperty('refused/poster.jpg');
  });

  it('accepts exactly 10 MB and answers 413 past it, keeping the file it had', async () => {
    const exact = image.jpeg(10 * MB - 4);
    expect(exact.length).toBe(10 * MB);
    await upload('/thumbs/big/poster.jpg', exact).expect(200);
    const res = await upload('/thumbs/big/poster.jpg', image.jpeg(10 * MB - 3)).expect(413);
    expect(res.body).toEqual({ error: expect.any(String), statusCode: 413 });
    expect(onDisk('big/poster.jpg').equals(exact)).toBe(true);
  });

  it('answers 400 without a file', async () => {
    const res = await upload('/thumbs/a/poster.jpg', null).expect(400);
    expect(res.body).toEqual({ error: 'No file selected: send the image in the multipart field "file"', statusCode: 400 });
  });

  it.each([
    ['no uploadPath', null, expect.stringContaining('uploadPath must be a string')],
    ['an empty uploadPath', '  ', 'No thumbnail URL provided'],
    ['an extension that is not an image', '/thumbs/a/poster.gif', 'uploadPath must end in .jpg, .jpeg, .png, .webp or .avif'],
    ['no extension', '/thumbs/a/poster', 'uploadPath must end in .jpg, .jpeg, .png, .webp or .avif'],
  ])('answers 400 for %s', async (_case, uploadPath: string | null, error: unknown) => {
    const res = await upload(uploadPath, image.jpeg()).expect(400);
    expect(res.body).toEqual({ error, statusCode: 400 });
  });

  it('answers 400 for an unexpected field or a second file', async () => {
    await upload('/thumbs/a/poster.jpg', image.jpeg()).field('other', 'x').expect(400);
    await upload('/thumbs/a/poster.jpg', image.jpeg()).attach('file', image.jpeg(), 'second.jpg').expect(400);
  });

  it('answers 400 for a path naming a folder', async () => {
    mkdirSync(path.join(thumbs, 'folder.jpg'));
    await upload('/thumbs/folder.jpg', image.jpeg()).expect(400);
  });

  describe('refuses paths that leave the thumbnail store, writing nothing anywhere', () => {
    let before: Record<string, string>;
    beforeAll(() => {
      before = snapshot(base, '');
    });

    it.each([
      '/thumbs/../../etc/x.jpg',
      '/thumbs/../outside/x.jpg',
      '/thumbs/%2e%2e/%2e%2e/outside/x.jpg',
      '/thumbs/%2e%2e/x.jpg',
      '/thumbs/..%2f..%2foutside%2fx.jpg',
      '/thumbs/..\\..\\outside\\x.jpg',
      'https://img.example.com/thumbs/../../outside/x.jpg',
      '/etc/passwd',
      '/etc/x.jpg',
      'file:///etc/x.jpg',
      '/thumbs/escape/x.jpg',
      '/thumbs/escape/new/x.jpg',
      '/thumbs/link.jpg',
    ])('refuses %j', async (uploadPath) => {
      const res = await upload(uploadPath, image.jpeg()).expect(400);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
    });

    it('refuses absolute filesystem paths, inside or outside the store', async () => {
      await upload(path.join(outside, 'x.jpg'), image.jpeg()).expect(400);
      await upload(path.join(thumbs, 'x.jpg'), image.jpeg()).expect(400);
      await upload(`/thumbs/${path.join(outside, 'x.jpg')}`, image.jpeg()).expect(400);
    });

    it('left every file outside the store and behind its links as it was', () => {
      expect(snapshot(base, '')).toEqual(before);
      expect(readFileSync(path.join(outside, 'target.jpg'), 'utf8')).toBe('original outside file');
      expect(readdirSync(outside)).toEqual(['target.jpg']);
    });
  });

  it('writes nothing for a member or an anonymous caller', async () => {
    const res = await upload('/thumbs/guarded/poster.jpg', image.jpeg(), { user: member }).expect(403);
    expect(res.body).toEqual({ error: 'You are not allowed to do this', statusCode: 403 });
    await upload('/thumbs/guarded/poster.jpg', image.jpeg(), { user: null }).expect(401);
    expect(snapshot(thumbs, '')).not.toHaveProperty('guarded/poster.jpg');
  });
});
