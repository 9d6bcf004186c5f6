import express from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { byteRange } from './media-serving';

/**
 * Objects streamed from a bucket answer a Range header as files on disk do: each header is sent to Express's
 * `sendFile` over a file of the same size, and byteRange must name what it answered (206 and its range, 200
 * whole, 416).
 */
describe('byteRange (objects streamed from a bucket)', () => {
  const size = 1000;
  let dir: string;
  let app: express.Express;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'byte-range-'));
    writeFileSync(path.join(dir, 'segment.ts'), Buffer.alloc(size, 7));
    app = express().get('/segment.ts', (_req, res) => res.sendFile(path.join(dir, 'segment.ts')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    'bytes=0-99', 'bytes=990-2000', 'bytes=500-', 'bytes=-100', ' bytes=1-1 ', 'bytes=0-1,2-3',
    'bytes=-5000', 'bytes=1000-', 'bytes=1000-1001', 'bytes=-0', 'bytes=5-2', 'bytes=-',
    'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b',
  ])('answers %j as sendFile does', async (header) => {
    const res = await request(app).get('/segment.ts').set('Range', header);
    const expected =
      res.status === 416 ? 'unsatisfiable'
      : res.status === 206 ? (([, start, end]) => ({ start: Number(start), end: Number(end) }))(/^bytes (\d+)-(\d+)\//.exec(res.headers['content-range']) as RegExpExecArray)
      : null;
    expect([res.status, byteRange(header, size)]).toEqual([res.status, expected]);
  });

  it('reads the common ones as a player sends them', () => {
    expect(byteRange('bytes=0-99', size)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=-100', size)).toEqual({ start: 900, end: 999 });
    expect(byteRange(undefined, size)).toBeNull();
    expect(byteRange('bytes=1000-', size)).toBe('unsatisfiable');
    expect(byteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
