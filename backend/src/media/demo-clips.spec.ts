import { cheapestFirst, demoClipArgs, demoClips, demoLadderFor } from './demo-clips';
import { ladderFor } from './ffmpeg-args';

describe('demo clips', () => {
  const titles = Array.from({ length: 24 }, (_, i) => `Demo ${i}`);
  const clips = demoClips(titles);
  const names = (ladder: { name: string }[]) => ladder.map((r) => r.name);

  it('makes one 10–20 s clip per title, most at 480p and three at 720p, in distinct colours', () => {
    expect(clips).toHaveLength(24);
    expect(clips.map((c) => c.title)).toEqual(titles);
    expect(clips.every((c) => c.seconds >= 10 && c.seconds <= 20)).toBe(true);
    expect(clips.filter((c) => c.height === 480)).toHaveLength(21);
    expect(clips.filter((c) => c.height === 720)).toHaveLength(3);
    expect(new Set(clips.map((c) => c.hue)).size).toBe(24);
    expect(clips.map((c) => [c.width, c.height])).toContainEqual([854, 480]);
    expect(clips.every((c) => c.width % 2 === 0 && Math.abs(c.width / c.height - 16 / 9) < 0.01)).toBe(true);
    // About six minutes of video in all, a first start's budget on two cores.
    const total = clips.reduce((sum, c) => sum + c.seconds, 0);
    expect(total).toBeGreaterThan(300);
    expect(total).toBeLessThan(400);
  });

  it('orders them cheapest first: the shortest 480p clip, the 720p ones after 480p clips of their length', () => {
    const order = cheapestFirst(clips);
    expect([...order].sort((a, b) => a - b)).toEqual(titles.map((_, i) => i));
    expect(clips[order[0]]).toMatchObject({ seconds: 10, height: 480 });
    const cost = order.map((i) => clips[i].seconds * clips[i].height ** 2);
    expect(cost).toEqual([...cost].sort((a, b) => a - b));
    const first720 = order.findIndex((i) => clips[i].height === 720);
    expect(order.slice(0, first720).every((i) => clips[i].height === 480)).toBe(true);
    expect(first720).toBeGreaterThan(12);
  });

  it('gives demo clips two rungs, the top one and about half its height, where an upload gets the full ladder', () => {
    expect(names(demoLadderFor(480))).toEqual(['240p', '480p']);
    expect(names(demoLadderFor(720))).toEqual(['360p', '720p']);
    expect(names(demoLadderFor(1080))).toEqual(['480p', '1080p']);
    expect(names(demoLadderFor(360))).toEqual(['360p']);
    expect(names(ladderFor(480))).toEqual(['240p', '360p', '480p']);
    expect(names(ladderFor(720))).toEqual(['240p', '360p', '480p', '720p']);
  });

  it('makes the source at 24 fps, escapes the drawn title and can leave it out', () => {
    const args = demoClipArgs({ ...clips[0], title: "Tom's 100%: Pool, Party" }, '/out.mp4');
    expect(args.join(' ')).toContain("text='Tom\\'s 100\\%\\: Pool\\, Party'");
    expect(args.join(' ')).toContain(`testsrc2=size=854x480:rate=24:duration=${clips[0].seconds}`);
    expect(demoClipArgs(clips[0], '/out.mp4', false).join(' ')).not.toContain('drawtext');
    expect(args[args.length - 1]).toBe('/out.mp4');
  });
});
