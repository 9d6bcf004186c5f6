import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Parser, type Manifest } from 'm3u8-parser';
import request from 'supertest';
import { ladderArgs, ladderFor, parseProbe, probeArgs } from '../src/media/ffmpeg-args';
import { FfmpegRunner, ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { rewritePlaylists, SAR_NOTE, summaryLine } from '../src/media/playlists-rewrite';
import { StorageService } from '../src/media/storage.service';
import { bearer, createTestApp, registerAdmin, TestApp, TestUser } from './helpers/test-app';

/**
 * Issue #30, point 3: what the HLS playlists of an ingested video declare, checked from outside with m3u8-parser
 * (video.js's parser), the segments on disk and ffprobe, against RFC 8216: BANDWIDTH at least the peak segment
 * bit rate (§4.1, §4.3.4.2), AVERAGE-BANDWIDTH at least the average and not far above, the lowest EXT-X-VERSION
 * each playlist's features need (§7), RESOLUTION as decoded, square pixels on every rung. Then
 * `npm run media:playlists` on playlists written the old way.
 */

/** m3u8-parser's manifest of a playlist, failing on anything it warns about. */
function parse(text: string, name: string): Manifest {
  const parser = new Parser();
  const warnings: string[] = [];
  parser.on('warn', (e) => warnings.push(e.message));
  parser.push(text);
  parser.end();
  expect(warnings, `m3u8-parser's warnings on ${name}`).toEqual([]);
  return parser.manifest;
}

/** The tags the version check below knows the whole of: a playlist with another one needs a new look. */
const KNOWN_TAGS = new Set([
  'EXTM3U', 'EXT-X-VERSION', 'EXT-X-INDEPENDENT-SEGMENTS', 'EXT-X-STREAM-INF', 'EXT-X-TARGETDURATION', 'EXT-X-MEDIA-SEQUENCE',
  'EXT-X-PLAYLIST-TYPE', 'EXTINF', 'EXT-X-ENDLIST',
]);

/**
 * RFC 8216 §7, for what these playlists can hold: 3 for decimal EXTINF durations, 4 for byte ranges or
 * I-frames only, 5 or 6 for an initialisation section (EXT-X-MAP), 2 for a key's IV; 1 otherwise.
 */
function lowestVersion(text: string, manifest: Manifest): number {
  const tags = [...text.matchAll(/^#(EXT[\w-]*)/gm)].map((m) => m[1]);
  expect(tags.filter((tag) => !KNOWN_TAGS.has(tag))).toEqual([]);
  let version = 1;
  if (/^#EXTINF:[^,]*\./m.test(text)) version = 3;
  if (manifest.segments.some((s) => s.key?.iv)) version = Math.max(version, 2);
  if (manifest.iFramesOnly || manifest.segments.some((s) => s.byterange)) version = Math.max(version, 4);
  if (manifest.segments.some((s) => s.map)) version = Math.max(version, manifest.iFramesOnly ? 5 : 6);
  return version;
}

/**
 * Bits per second: the peak (RFC 8216 §4.1: the largest of any contiguous set of segments 0.5 to 1.5 target
 * durations long), the average (all bits over the whole duration), and the largest of any one segment.
 */
function measured(segments: { bytes: number; seconds: number }[], target: number) {
  const bits = (list: typeof segments) => list.reduce((sum, s) => sum + s.bytes * 8, 0);
  const seconds = (list: typeof segments) => list.reduce((sum, s) => sum + s.seconds, 0);
  const average = bits(segments) / seconds(segments);
  let peak = 0;
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j <= segments.length; j++) {
      const set = segments.slice(i, j);
      const length = seconds(set);
      if (length >= 0.5 * target - 1e-6 && length <= 1.5 * target + 1e-6) peak = Math.max(peak, bits(set) / length);
    }
  }
  // A playlist shorter than half its target has no such set but itself.
  return { peak: peak || average, average, eachSegment: Math.max(...segments.map((s) => (s.bytes * 8) / s.seconds)) };
}

const ffprobeJson = (args: string[]) => JSON.parse(execFileSync(ffprobePath(), ['-v', 'error', '-print_format', 'json', ...args]).toString());

interface RungReport {
  uri: string;
  bandwidth: number;
  averageBandwidth: number;
  peak: number;
  average: number;
  eachSegment: number;
  resolution: string;
  sampleAspectRatio: string | undefined;
}

/**
 * Every playlist of a video's HLS folder against its segments and ffprobe. `shownAspect` is the source's width
 * over height as shown; each rung keeps it within a pixel of width. Answers what was measured, per rung.
 */
function checkFolder(folder: string, shownAspect: number, squarePixels = true): RungReport[] {
  const masterText = readFileSync(path.join(folder, 'index.m3u8'), 'utf8');
  const master = parse(masterText, 'index.m3u8');
  expect(master.version ?? 1, 'the master playlist declares the lowest version it needs').toBe(lowestVersion(masterText, master));
  const rungs: RungReport[] = [];
  expect(master.playlists?.length).toBeGreaterThan(0);
  for (const variant of master.playlists ?? []) {
    const text = readFileSync(path.join(folder, variant.uri), 'utf8');
    const media = parse(text, variant.uri);
    expect(media.version ?? 1, `${variant.uri} declares the lowest version it needs`).toBe(lowestVersion(text, media));
    expect(media.endList).toBe(true);
    const target = media.targetDuration as number;
    for (const s of media.segments) expect(Math.round(s.duration)).toBeLessThanOrEqual(target);

    const segments = media.segments.map((s) => ({ bytes: statSync(path.join(folder, s.uri)).size, seconds: s.duration }));
    const { peak, average, eachSegment } = measured(segments, target);
    const bandwidth = variant.attributes.BANDWIDTH as number;
    // m3u8-parser reads it as text in the master's attributes.
    const averageBandwidth = Number(variant.attributes['AVERAGE-BANDWIDTH']);
    expect(bandwidth, `${variant.uri}: BANDWIDTH at least the peak segment bit rate`).toBeGreaterThanOrEqual(peak);
    // Nor under a short last segment's own bit rate, which the RFC counts only with the segment before it.
    expect(bandwidth, `${variant.uri}: BANDWIDTH at least any one segment's bit rate`).toBeGreaterThanOrEqual(eachSegment);
    expect(bandwidth, `${variant.uri}: BANDWIDTH no more than that, rounded up`).toBeLessThanOrEqual(Math.ceil(Math.max(peak, eachSegment)) + 1);
    expect(averageBandwidth, `${variant.uri}: AVERAGE-BANDWIDTH at least the average`).toBeGreaterThanOrEqual(average);
    expect(averageBandwidth, `${variant.uri}: AVERAGE-BANDWIDTH not far above the average`).toBeLessThanOrEqual(average * 1.1);

    // What each segment decodes to is what the master says, in square pixels of the source's shape.
    const declared = variant.attributes.RESOLUTION as { width: number; height: number };
    let sampleAspectRatio: string | undefined;
    for (const segment of media.segments) {
      const [stream] = ffprobeJson(['-select_streams', 'v:0', '-show_entries', 'stream=width,height,sample_aspect_ratio', path.join(folder, segment.uri)]).streams;
      expect({ width: stream.width, height: stream.height }, `${segment.uri} decodes at the declared RESOLUTION`).toEqual(declared);
      sampleAspectRatio = stream.sample_aspect_ratio;
      if (squarePixels) {
        // 0:1 or none is "unknown", which players take as square.
        expect([undefined, '0:1', '1:1'], `${segment.uri}: square pixels`).toContain(stream.sample_aspect_ratio);
      }
    }
    expect(declared.width % 2 + declared.height % 2).toBe(0);
    expect(Math.abs(declared.width - declared.height * shownAspect), `${variant.uri} keeps the source's shape`).toBeLessThanOrEqual(1);
    rungs.push({ uri: variant.uri, bandwidth, averageBandwidth, peak, average, eachSegment, resolution: `${declared.width}x${declared.height}`, sampleAspectRatio });
  }
  return rungs;
}

describe('HLS playlists that say what the segments are (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;
  let media: string;
  let admin: TestUser;
  /** Stems of the ingested videos, by source. */
  const stems: Record<string, string> = {};
  const SOURCES = {
    // 16:9 at 720p: 240p is 426⅔ pixels wide, which ffmpeg's scale made 426×240 of 640:639 pixels. 5 s: a 1 s tail.
    wide: { size: '1280x720', rate: 30, seconds: 5, sar: '1', rotate: 0, shownAspect: 16 / 9, rungs: ['240p', '360p', '480p', '720p'], first: '426x240' },
    // A DVD's 720×480 of 32:27 pixels, shown at 16:9. 6.5 s: a 2.5 s tail, a set of its own.
    anamorphic: { size: '720x480', rate: 25, seconds: 6.5, sar: '32/27', rotate: 0, shownAspect: 16 / 9, rungs: ['240p', '360p', '480p'], first: '426x240' },
    // A phone's portrait video: stored 640×360 with a quarter turn, decoded 360×640.
    portrait: { size: '640x360', rate: 30, seconds: 4, sar: '1', rotate: 90, shownAspect: 9 / 16, rungs: ['240p', '360p', '480p'], first: '136x240' },
  };

  const waitForJob = async (jobId: number) => {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const [job] = await t.db.query('SELECT state, error FROM ingest_jobs WHERE id = $1', [jobId]);
      if (job.state === 'done' || job.state === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.state}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hls-'));
    media = path.join(dir, 'media');
    // Segments in the clear, read here by ffprobe from the folder; sealed ones: hls-encryption.e2e-spec.ts.
    t = await createTestApp({ HLS_ENCRYPTION: 'off', MEDIA_DIR: media, MAX_UPLOAD_BYTES: String(20 * 1024 * 1024) });
    admin = await registerAdmin(t);
    for (const [name, source] of Object.entries(SOURCES)) {
      const clip = path.join(dir, `${name}.mp4`);
      execFileSync(ffmpegPath(), [
        '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${source.size}:rate=${source.rate}:duration=${source.seconds}`,
        '-f', 'lavfi', '-i', `sine=frequency=440:duration=${source.seconds}`,
        '-vf', `setsar=${source.sar}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip,
      ]);
      if (source.rotate) {
        // ffmpeg 4.1 writes the turn only on a stream copy.
        const turned = path.join(dir, `${name}-turned.mp4`);
        execFileSync(ffmpegPath(), ['-v', 'error', '-i', clip, '-c', 'copy', '-metadata:s:v', `rotate=${source.rotate}`, turned]);
        renameSync(turned, clip);
      }
      const res = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', `HLS ${name}`).attach('file', clip).expect(202);
      expect(await waitForJob(res.body.job_id)).toEqual({ state: 'done', error: null });
      const video = (await request(t.http).get(`/api/videos/${res.body.id}`).expect(200)).body;
      stems[name] = video.stream_path.replace(/^\/videos\//, '').replace(/\/index\.m3u8$/, '');
    }
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(SOURCES) as (keyof typeof SOURCES)[])('declares what the %s source\'s segments measure, in square pixels', (name) => {
    const rungs = checkFolder(path.join(media, 'videos', stems[name]), SOURCES[name].shownAspect);
    expect(rungs.map((r) => r.uri)).toEqual(SOURCES[name].rungs.map((r) => `${r}.m3u8`));
    expect(rungs[0].resolution).toBe(SOURCES[name].first);
  });

  describe('npm run media:playlists', () => {
    const storage = () => new StorageService({ mediaDir: media });
    const ffmpeg = () => new FfmpegRunner({ ffmpegPath: null, ffprobePath: null });
    const run = async (dryRun = false) => {
      const lines: string[] = [];
      const summary = await rewritePlaylists(storage(), ffmpeg(), { dryRun, log: (line) => lines.push(line) });
      return { summary, lines };
    };
    /** Every playlist of the store with its text and inode: a rename shows as a new inode. */
    const playlists = () => {
      const found: Record<string, { text: string; ino: number }> = {};
      const walk = (folder: string) => {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const file = path.join(folder, entry.name);
          if (entry.isDirectory()) walk(file);
          else if (entry.name.endsWith('.m3u8')) found[path.relative(media, file)] = { text: readFileSync(file, 'utf8'), ino: statSync(file).ino };
        }
      };
      walk(path.join(media, 'videos'));
      return found;
    };

    /** What the ingest wrote before this change: nominal bit rates, version 3 in the master, 6 in media playlists. */
    function writeOldStyle(folder: string, nominal: Record<string, number>, resolutions: Record<string, string>) {
      const uris = Object.keys(nominal);
      const master = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
      for (const uri of uris) {
        master.push(
          `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(nominal[uri] * 1100)},AVERAGE-BANDWIDTH=${nominal[uri] * 1000},RESOLUTION=${resolutions[uri]},FRAME-RATE=30.000,CODECS="avc1.4d4028,mp4a.40.2"`,
          uri,
        );
      }
      writeFileSync(path.join(folder, 'index.m3u8'), `${master.join('\n')}\n`);
      for (const uri of uris) {
        const file = path.join(folder, uri);
        writeFileSync(file, readFileSync(file, 'utf8').replace(/^#EXT-X-VERSION:\d+$/m, '#EXT-X-VERSION:6'));
      }
    }

    it('restates old playlists from the segments on disk, says what only a re-encode fixes, and changes nothing the second time', async () => {
      // The 16:9 video as the ingest wrote it before: its honest playlists kept to compare.
      const wide = path.join(media, 'videos', stems.wide);
      const honest = playlists();
      const kbps: Record<string, number> = { '240p.m3u8': 464, '360p.m3u8': 896, '480p.m3u8': 1528, '720p.m3u8': 2928 };
      writeOldStyle(wide, kbps, { '240p.m3u8': '426x240', '360p.m3u8': '640x360', '480p.m3u8': '854x480', '720p.m3u8': '1280x720' });

      // And a video encoded the old way: its 240p rung scaled without setsar=1, so of 640:639 pixels.
      const old = path.join(media, 'videos', 'old', 'wide');
      mkdirSync(old, { recursive: true });
      const source = { path: path.join(dir, 'wide.mp4'), type: 'mp4' as const };
      const probe = parseProbe(execFileSync(ffprobePath(), probeArgs(source)).toString());
      const args = ladderArgs(source, old, ladderFor(240), probe).map((a) => a.replace(',setsar=1', ''));
      execFileSync(ffmpegPath(), args, { stdio: 'ignore' });
      writeOldStyle(old, { '240p.m3u8': 464 }, { '240p.m3u8': '426x240' });
      // Something that is not this site's: left alone.
      const foreign = path.join(media, 'videos', 'foreign');
      mkdirSync(foreign);
      writeFileSync(path.join(foreign, 'index.m3u8'), '#EXTM3U\n#EXT-X-DEFINE:NAME="a",VALUE="b"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n240p.m3u8\n');
      const before = playlists();

      // A dry run reports and writes nothing.
      const dry = await run(true);
      expect(dry.summary).toEqual({ videos: 5, rewritten: 2, unchanged: 2, skipped: 1, nonSquare: 1 });
      expect(playlists()).toEqual(before);

      const first = await run();
      expect(first.summary).toEqual({ videos: 5, rewritten: 2, unchanged: 2, skipped: 1, nonSquare: 1 });
      const report = first.lines.join('\n');
      expect(report).toMatch(new RegExp(`videos/${stems.wide}: rewritten \\(240p\\.m3u8: BANDWIDTH 510400 → \\d+, AVERAGE-BANDWIDTH 464000 → \\d+, EXT-X-VERSION 6 → 3;`));
      expect(report).toContain('index.m3u8: EXT-X-VERSION 3 → 1)');
      expect(report).toContain(`videos/${stems.anamorphic}: unchanged`);
      expect(report).toContain('videos/foreign: skipped');
      expect(report).toContain('videos/old/wide/240p.m3u8: pixels are not square (sample aspect ratio 640:639, 426x240): only a re-encode fixes that');
      expect(summaryLine(first.summary)).toBe(`5 videos: 2 rewritten, 2 unchanged, 1 skipped. 1 rendition has non-square pixels: ${SAR_NOTE}.`);

      // The 16:9 video's playlists are again exactly what its ingest wrote; the old one's are honest but for its pixels.
      const after = playlists();
      for (const [file, { text }] of Object.entries(honest)) expect(after[file].text, file).toBe(text);
      checkFolder(old, 16 / 9, false);
      expect(after['videos/foreign/index.m3u8']).toEqual(before['videos/foreign/index.m3u8']);

      // A second run finds nothing to do and writes nothing.
      const second = await run();
      expect(second.summary).toEqual({ videos: 5, rewritten: 0, unchanged: 4, skipped: 1, nonSquare: 1 });
      expect(playlists()).toEqual(after);
      // No temporary file is left behind.
      expect(readdirSync(wide).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    }, 60_000);
  });
});
