import {
  ladderArgs, ladderFor, masterPlaylist, parseProbe, parseProgress, previewArgs, storyboardPlan, storyboardVtt, widthFor,
} from './ffmpeg-args';

const hd = { durationSeconds: 60, width: 1920, height: 1080, fps: 30, hasAudio: true };

describe('ffmpeg arguments', () => {
  it('builds a ladder no taller than the source', () => {
    expect(ladderFor(1080).map((r) => r.name)).toEqual(['240p', '360p', '480p', '720p', '1080p']);
    expect(ladderFor(720).map((r) => r.name)).toEqual(['240p', '360p', '480p', '720p']);
    expect(ladderFor(500).map((r) => r.name)).toEqual(['240p', '360p', '480p']);
    expect(ladderFor(181)).toEqual([expect.objectContaining({ name: '182p', height: 182 })]);
  });

  it('keeps the aspect ratio with even widths', () => {
    expect(widthFor(hd, 360)).toBe(640);
    expect(widthFor({ width: 1080, height: 1920 }, 240)).toBe(136);
  });

  it('cuts segments on keyframes: a GOP of exactly one 4-second segment, flat in the folder', () => {
    const args = ladderArgs('/in.mp4', '/out', ladderFor(360), hd);
    const all = (flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
    expect(all('-g')).toEqual(['120', '120']);
    expect(all('-keyint_min')).toEqual(['120', '120']);
    expect(all('-sc_threshold')).toEqual(['0', '0']);
    expect(all('-hls_time')).toEqual(['4', '4']);
    expect(all('-hls_segment_filename')).toEqual(['/out/240p_%03d.ts', '/out/360p_%03d.ts']);
    expect(args[args.length - 1]).toBe('/out/360p.m3u8');
    expect(all('-map')).toEqual(['[v0]', '0:a:0', '[v1]', '0:a:0']);
    expect(args[args.indexOf('-filter_complex') + 1]).toBe('[0:v]split=2[s0][s1];[s0]scale=426:240[v0];[s1]scale=640:360[v1]');
    expect(ladderArgs('/in.mp4', '/out', ladderFor(360), { ...hd, hasAudio: false })).not.toContain('0:a:0');
  });

  it('writes a master playlist with bandwidth, resolution and codecs per rendition', () => {
    const master = masterPlaylist(ladderFor(480), hd);
    expect(master.split('\n')[0]).toBe('#EXTM3U');
    expect(master).toContain('RESOLUTION=426x240');
    expect(master).toContain('RESOLUTION=854x480,FRAME-RATE=30.000,CODECS="avc1.4d4028,mp4a.40.2"\n480p.m3u8');
    expect(master.match(/#EXT-X-STREAM-INF/g)).toHaveLength(3);
    expect(masterPlaylist(ladderFor(240), { ...hd, hasAudio: false })).toContain('CODECS="avc1.4d4028"');
  });

  it('plans about 100 storyboard cues covering the whole duration', () => {
    const plan = storyboardPlan({ ...hd, durationSeconds: 600 });
    expect(plan).toMatchObject({ interval: 6, cues: 100, tileWidth: 160, tileHeight: 90, sheets: 1 });
    const vtt = storyboardVtt(plan, 600).trim().split('\n');
    expect(vtt[0]).toBe('WEBVTT');
    expect(vtt[2]).toBe('00:00:00.000 --> 00:00:06.000');
    expect(vtt[3]).toBe('sprite-0.jpg#xywh=0,0,160,90');
    expect(vtt[vtt.length - 2]).toBe('00:09:54.000 --> 00:10:00.000');
    expect(vtt[vtt.length - 1]).toBe('sprite-0.jpg#xywh=1440,810,160,90');
    const short = storyboardPlan({ ...hd, durationSeconds: 20.5 });
    expect(short).toMatchObject({ interval: 1, cues: 21 });
    expect(storyboardVtt(short, 20.5).trim().split('\n').slice(-2)[0]).toBe('00:00:20.000 --> 00:00:20.500');
  });

  it('spreads five 2-second clips over a long video for the hover preview, and keeps a short one whole', () => {
    expect(previewArgs('/in.mp4', '/p.mp4', hd).join(' ')).toContain("select='lt(mod(t\\,12.000)\\,2)'");
    expect(previewArgs('/in.mp4', '/p.mp4', { ...hd, durationSeconds: 8 }).join(' ')).not.toContain('select');
    expect(previewArgs('/in.mp4', '/p.mp4', hd)).toContain('-an');
  });

  it('reads probe output and progress lines', () => {
    const probe = parseProbe(JSON.stringify({
      format: { duration: '12.5' },
      streams: [{ codec_type: 'video', width: 1280, height: 720, avg_frame_rate: '25/1', r_frame_rate: '25/1' }, { codec_type: 'audio' }],
    }));
    expect(probe).toEqual({ durationSeconds: 12.5, width: 1280, height: 720, fps: 25, hasAudio: true });
    expect(() => parseProbe(JSON.stringify({ format: { duration: '3' }, streams: [{ codec_type: 'audio' }] }))).toThrow(/no video stream/);
    expect(parseProgress('frame=10\nout_time_ms=2500000\nprogress=continue\nout_time_ms=3000000\n')).toBe(3);
    expect(parseProgress('frame=10\n')).toBeNull();
  });
});
