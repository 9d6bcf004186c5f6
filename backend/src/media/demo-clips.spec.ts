import { cheapestFirst, demoClipArgs, demoClips } from './demo-clips';

describe('demo clips', () => {
  const titles = Array.from({ length: 24 }, (_, i) => `Demo ${i}`);
  const clips = demoClips(titles);

  it('makes one 20–60 s clip per title, some 1080p and most 720p, in distinct colours, cheapest first', () => {
    expect(clips).toHaveLength(24);
    expect(new Set(clips.map((c) => c.title)).size).toBe(24);
    expect(clips.every((c) => c.seconds >= 20 && c.seconds <= 60)).toBe(true);
    expect(clips.filter((c) => c.height === 1080)).toHaveLength(6);
    expect(clips.filter((c) => c.height === 720)).toHaveLength(18);
    expect(new Set(clips.map((c) => c.hue)).size).toBe(24);
    expect(clips.map((c) => c.title)).toEqual(titles);
    const order = cheapestFirst(clips);
    expect([...order].sort((a, b) => a - b)).toEqual(titles.map((_, i) => i));
    const cost = order.map((i) => clips[i].seconds * clips[i].height);
    expect(cost).toEqual([...cost].sort((a, b) => a - b));
    expect(clips.every((c) => c.width === (c.height * 16) / 9)).toBe(true);
  });

  it('escapes the drawn title and can leave it out', () => {
    const args = demoClipArgs({ ...clips[0], title: "Tom's 100%: Pool, Party" }, '/out.mp4');
    expect(args.join(' ')).toContain("text='Tom\\'s 100\\%\\: Pool\\, Party'");
    expect(demoClipArgs(clips[0], '/out.mp4', false).join(' ')).not.toContain('drawtext');
    expect(args[args.length - 1]).toBe('/out.mp4');
  });
});
