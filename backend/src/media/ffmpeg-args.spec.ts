import {
  INPUT_LIMITS, InputRefusedError, isSquare, ladderArgs, ladderFor, masterPlaylist, parseProbe, parseProgress, parseSegmentProbe,
  posterArgs, previewArgs, probeArgs, type ProbeResult, segmentProbeArgs, type SourceInput, storyboardArgs, storyboardPlan, storyboardVtt, widthFor,
} from './ffmpeg-args';
import { requiredVersion } from './hls-playlist';
import { DEMUXERS, type VideoType } from './video-type';

const hd = { durationSeconds: 60, width: 1920, height: 1080, fps: 30, hasAudio: true };
const mp4: SourceInput = { path: '/in.mp4', type: 'mp4' };

describe('ffmpeg arguments', () => {
  it('builds a ladder no taller than the source', () => {
    expect(ladderFor(1080).map((r) => r.name)).toEqual(['240p', '360p', '480p', '720p', '1080p']);
    expect(ladderFor(720).map((r) => r.name)).toEqual(['240p', '360p', '480p', '720p']);
    expect(ladderFor(500).map((r) => r.name)).toEqual(['240p', '360p', '480p']);
    expect(ladderFor(181)).toEqual([expect.objectContaining({ name: '182p', height: 182 })]);
  });

  it('keeps the aspect ratio with even widths', () => {
    expect(widthFor(hd, 360)).toBe(640);
    expect(widthFor(hd, 240)).toBe(426);
    expect(widthFor({ width: 854, height: 480 }, 240)).toBe(428);
    expect(widthFor({ width: 1080, height: 1920 }, 240)).toBe(136);
  });

  it('keeps the aspect ratio a source is shown at when its pixels are not square', () => {
    // 720×480 with 32:27 pixels is shown at 16:9 (853⅓×480): its 240p rung is 426×240 in square pixels.
    expect(widthFor({ width: 720, height: 480, sampleAspectRatio: 32 / 27 }, 240)).toBe(426);
    expect(widthFor({ width: 720, height: 480, sampleAspectRatio: 8 / 9 }, 480)).toBe(640);
    expect(storyboardPlan({ ...hd, width: 720, height: 480, sampleAspectRatio: 32 / 27 }).tileHeight).toBe(90);
    expect(previewArgs(mp4, '/p.mp4', { ...hd, width: 720, height: 480, sampleAspectRatio: 32 / 27 }).join(' ')).toContain('scale=320:180,setsar=1');
  });

  it('makes every rung of square pixels, at an even size of the source shape', () => {
    const sources: ProbeResult[] = [hd, { ...hd, width: 854, height: 480 }, { ...hd, width: 720, height: 480, sampleAspectRatio: 32 / 27 }];
    for (const source of sources) {
      const args = ladderArgs(mp4, '/out', ladderFor(source.height), source);
      const graph = args[args.indexOf('-filter_complex') + 1];
      const scales = [...graph.matchAll(/scale=(\d+):(\d+),setsar=1\[v\d\]/g)];
      expect(scales).toHaveLength(ladderFor(source.height).length);
      for (const [, w, h] of scales) {
        expect(Number(w) % 2 + Number(h) % 2).toBe(0);
        // Within a pixel of the shape the source is shown at.
        expect(Math.abs(Number(w) - (source.width * (source.sampleAspectRatio ?? 1) * Number(h)) / source.height)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('cuts segments on keyframes: a GOP of exactly one 4-second segment, flat in the folder', () => {
    const args = ladderArgs(mp4, '/out', ladderFor(360), hd);
    const all = (flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
    expect(all('-g')).toEqual(['120', '120']);
    expect(all('-keyint_min')).toEqual(['120', '120']);
    expect(all('-sc_threshold')).toEqual(['0', '0']);
    expect(all('-hls_time')).toEqual(['4', '4']);
    expect(all('-hls_segment_filename')).toEqual(['/out/240p_%03d.ts', '/out/360p_%03d.ts']);
    expect(args[args.length - 1]).toBe('/out/360p.m3u8');
    expect(all('-map')).toEqual(['[v0]', '0:a:0', '[v1]', '0:a:0']);
    expect(args[args.indexOf('-filter_complex') + 1]).toBe('[0:v]split=2[s0][s1];[s0]scale=426:240,setsar=1[v0];[s1]scale=640:360,setsar=1[v1]');
    expect(ladderArgs(mp4, '/out', ladderFor(360), { ...hd, hasAudio: false })).not.toContain('0:a:0');
  });

  it('writes a master playlist with the measured bit rates, resolution and codecs per rendition, at version 1', () => {
    const rates = {
      '240p': { bandwidth: 521207, averageBandwidth: 496490 },
      '360p': { bandwidth: 1001, averageBandwidth: 900 },
      '480p': { bandwidth: 2002, averageBandwidth: 1800 },
    };
    const master = masterPlaylist(ladderFor(480), hd, rates);
    expect(master.split('\n').slice(0, 3)).toEqual(['#EXTM3U', '#EXT-X-VERSION:1', '#EXT-X-INDEPENDENT-SEGMENTS']);
    expect(master).toContain('#EXT-X-STREAM-INF:BANDWIDTH=521207,AVERAGE-BANDWIDTH=496490,RESOLUTION=426x240,');
    expect(master).toContain('BANDWIDTH=2002,AVERAGE-BANDWIDTH=1800,RESOLUTION=854x480,FRAME-RATE=30.000,CODECS="avc1.4d4028,mp4a.40.2"\n480p.m3u8');
    expect(master.match(/#EXT-X-STREAM-INF/g)).toHaveLength(3);
    expect(master.endsWith('480p.m3u8\n')).toBe(true);
    expect(requiredVersion(master)).toBe(1);
    expect(masterPlaylist(ladderFor(240), { ...hd, hasAudio: false }, rates)).toContain('CODECS="avc1.4d4028"');
    expect(() => masterPlaylist(ladderFor(720), hd, rates)).toThrow(/720p/);
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
    expect(previewArgs(mp4, '/p.mp4', hd).join(' ')).toContain("select='lt(mod(t\\,12.000)\\,2)'");
    expect(previewArgs(mp4, '/p.mp4', { ...hd, durationSeconds: 8 }).join(' ')).not.toContain('select');
    expect(previewArgs(mp4, '/p.mp4', hd)).toContain('-an');
  });

  it('reads probe output and progress lines', () => {
    const probe = parseProbe(JSON.stringify({
      format: { duration: '12.5' },
      streams: [{ codec_type: 'video', width: 1280, height: 720, avg_frame_rate: '25/1', r_frame_rate: '25/1' }, { codec_type: 'audio' }],
    }));
    expect(probe).toEqual({ durationSeconds: 12.5, width: 1280, height: 720, fps: 25, hasAudio: true, sampleAspectRatio: 1 });
    const stream = (sar?: string) => JSON.stringify({ format: { duration: '1' }, streams: [{ codec_type: 'video', width: 720, height: 480, sample_aspect_ratio: sar }] });
    expect(parseProbe(stream('32:27')).sampleAspectRatio).toBeCloseTo(32 / 27, 10);
    for (const unknown of [undefined, '0:1', 'N/A', '1:1']) expect(parseProbe(stream(unknown)).sampleAspectRatio).toBe(1);
    // A portrait phone video, stored 1920×1080 with a quarter turn (ffprobe 4.0 says so in a tag and in side data).
    const turned = (more: object) => JSON.stringify({ format: { duration: '1' }, streams: [{ codec_type: 'video', width: 1920, height: 1080, ...more }] });
    for (const more of [{ tags: { rotate: '90' } }, { tags: { rotate: '270' } }, { side_data_list: [{ rotation: -90 }] }]) {
      expect(parseProbe(turned(more))).toMatchObject({ width: 1080, height: 1920, sampleAspectRatio: 1 });
    }
    expect(parseProbe(turned({ tags: { rotate: '180' } }))).toMatchObject({ width: 1920, height: 1080 });
    expect(parseProbe(turned({ tags: { rotate: '90' }, sample_aspect_ratio: '4:3' })).sampleAspectRatio).toBeCloseTo(3 / 4, 10);
    expect(parseProgress('frame=10\nout_time_ms=2500000\nprogress=continue\nout_time_ms=3000000\n')).toBe(3);
    expect(parseProgress('frame=10\n')).toBeNull();
  });

  it("reads what a rendition's segment decodes to, and tells square pixels", () => {
    const args = segmentProbeArgs('/m/videos/a/240p_000.ts');
    expect(args.slice(args.indexOf('-f'), args.indexOf('-f') + 2)).toEqual(['-f', 'mpegts']);
    expect(args[args.indexOf('-protocol_whitelist') + 1]).toBe('file');
    expect(args[args.length - 1]).toBe('file:/m/videos/a/240p_000.ts');
    const answer = (stream: object) => JSON.stringify({ programs: [], streams: [stream] });
    expect(parseSegmentProbe(answer({ width: 426, height: 240, sample_aspect_ratio: '640:639' }))).toEqual({ width: 426, height: 240, sampleAspectRatio: '640:639' });
    expect(parseSegmentProbe(answer({ width: 426, height: 240, sample_aspect_ratio: '0:1' }))).toEqual({ width: 426, height: 240, sampleAspectRatio: null });
    expect(parseSegmentProbe(JSON.stringify({ streams: [] }))).toBeNull();
    expect(isSquare({ sampleAspectRatio: '1:1' })).toBe(true);
    expect(isSquare({ sampleAspectRatio: null })).toBe(true);
    expect(isSquare({ sampleAspectRatio: '640:639' })).toBe(false);
    expect(isSquare({ sampleAspectRatio: '320:321' })).toBe(false);
  });

  describe('reading an upload', () => {
    const types = Object.keys(DEMUXERS) as VideoType[];
    /** Every run's options up to and including each `-i`: the options that apply to that input. */
    const inputsOf = (args: string[]) => {
      const inputs: string[][] = [];
      let from = 0;
      args.forEach((a, i) => {
        if (a === '-i') {
          inputs.push(args.slice(from, i + 2));
          from = i + 2;
        }
      });
      return inputs;
    };
    const option = (args: string[], flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

    it('forces the sniffed demuxer, local files only and the caps on every input of every run', () => {
      const plan = storyboardPlan(hd);
      for (const type of types) {
        const source = { path: '/media/sources/2024/06/x.bin', type };
        for (const args of [
          ladderArgs(source, '/out', ladderFor(1080), hd),
          posterArgs(source, '/out/poster.jpg', hd),
          storyboardArgs(source, '/out', plan),
          previewArgs(source, '/out/preview.mp4', hd),
        ]) {
          const inputs = inputsOf(args);
          expect(inputs).toHaveLength(1);
          const [input] = inputs;
          expect(input[input.length - 1]).toBe('file:/media/sources/2024/06/x.bin');
          expect(option(input, '-f')).toBe(DEMUXERS[type]);
          expect(option(input, '-format_whitelist')).toBe(DEMUXERS[type]);
          expect(option(input, '-protocol_whitelist')).toBe('file');
          expect(option(input, '-max_pixels')).toBe(String(7680 * 4320));
          expect(option(input, '-max_streams')).toBe('16');
          expect(option(input, '-t')).toBe('14400');
          expect(args.filter((a) => a.includes('x.bin'))).toHaveLength(1);
        }
      }
    });

    it('probes with the same fences, and without -max_streams so that the count can be refused in words', () => {
      for (const type of types) {
        const args = probeArgs({ path: '/s/x', type });
        expect(args[args.length - 1]).toBe('file:/s/x');
        expect(option(args, '-f')).toBe(DEMUXERS[type]);
        expect(option(args, '-format_whitelist')).toBe(DEMUXERS[type]);
        expect(option(args, '-protocol_whitelist')).toBe('file');
        expect(option(args, '-max_pixels')).toBe(String(7680 * 4320));
        expect(args).not.toContain('-max_streams');
      }
    });

    it('turns MOV external references off explicitly, and passes MOV options to MOV only', () => {
      expect(option(probeArgs(mp4), '-enable_drefs')).toBe('0');
      expect(option(probeArgs(mp4), '-use_absolute_path')).toBe('0');
      expect(option(posterArgs(mp4, '/p.jpg', hd), '-enable_drefs')).toBe('0');
      for (const type of types.filter((t) => t !== 'mp4')) {
        expect(probeArgs({ path: '/x', type })).not.toContain('-enable_drefs');
        expect(posterArgs({ path: '/x', type }, '/p.jpg', hd)).not.toContain('-use_absolute_path');
      }
    });

    it('seeks the poster on the input', () => {
      const args = posterArgs(mp4, '/p.jpg', hd);
      expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    });
  });

  describe('input caps', () => {
    const probeOf = (streams: object[], duration = '10') => JSON.stringify({ format: { duration, nb_streams: streams.length }, streams });
    const video = (width: number, height: number, more: object = {}) => ({ codec_type: 'video', width, height, avg_frame_rate: '30/1', ...more });
    const refusal = (json: string) => {
      try {
        parseProbe(json);
      } catch (error) {
        expect(error).toBeInstanceOf(InputRefusedError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };

    it('documents the limits', () => {
      expect(INPUT_LIMITS).toEqual({ maxSide: 8192, maxPixels: 33_177_600, maxDurationSeconds: 14_400, maxStreams: 16 });
    });

    it('accepts 8K UHD in either orientation, 16 streams and 4 hours', () => {
      expect(parseProbe(probeOf([video(7680, 4320)])).width).toBe(7680);
      expect(parseProbe(probeOf([video(4320, 7680)])).height).toBe(7680);
      expect(parseProbe(probeOf([video(8192, 16)])).width).toBe(8192);
      expect(parseProbe(probeOf([video(640, 360), ...Array.from({ length: 15 }, () => ({ codec_type: 'audio' }))])).hasAudio).toBe(true);
      expect(parseProbe(probeOf([video(640, 360)], '14400')).durationSeconds).toBe(14_400);
    });

    it('refuses larger pictures, on any video stream', () => {
      expect(refusal(probeOf([video(8200, 32)]))).toBe('The video is refused: its picture is 8200×32, more than 8192 pixels a side');
      expect(refusal(probeOf([video(32, 8194)]))).toMatch(/32×8194, more than 8192 pixels a side/);
      expect(refusal(probeOf([video(7000, 7000)]))).toBe('The video is refused: its picture is 7000×7000, more pixels than 7680×4320');
      expect(refusal(probeOf([video(640, 360), video(8200, 8200)]))).toMatch(/8200×8200/);
    });

    it('refuses more streams and longer durations', () => {
      const streams = [video(640, 360), ...Array.from({ length: 16 }, () => ({ codec_type: 'audio' }))];
      expect(refusal(probeOf(streams))).toBe('The video is refused: it has 17 streams, more than 16');
      expect(refusal(JSON.stringify({ format: { duration: '5', nb_streams: 40 }, streams: [video(64, 48)] }))).toMatch(/40 streams/);
      expect(refusal(probeOf([video(640, 360)], '14401'))).toBe('The video is refused: it lasts 4:00:01, longer than 4:00:00');
      expect(refusal(probeOf([video(640, 360)], '18000'))).toMatch(/5:00:00/);
    });

    it('refuses a file without video (cover art is none) or without duration', () => {
      expect(refusal(probeOf([{ codec_type: 'audio' }]))).toBe('The video is refused: the file has no video stream');
      expect(refusal(probeOf([{ codec_type: 'audio' }, video(600, 600, { disposition: { attached_pic: 1 } })]))).toMatch(/no video stream/);
      expect(refusal(JSON.stringify({ format: {}, streams: [video(64, 48)] }))).toBe('The video is refused: the file has no duration');
      expect(refusal(probeOf([video(64, 48)], '0'))).toMatch(/no duration/);
    });
  });
});
