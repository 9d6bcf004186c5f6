/** A synthetic demo clip: a moving test pattern in its own colour, its title drawn in, and a tone. */
export interface DemoClip {
  seconds: number;
  width: number;
  height: number;
  /** Hue rotation of the test pattern, in degrees. */
  hue: number;
  /** Pitch of the tone, in Hz. */
  frequency: number;
  title: string;
}

/**
 * One clip per title (`clips[i]` is for `titles[i]`): 20–60 s, every fourth at 1080p and the rest at 720p.
 * `cheapestFirst` gives the order to make them in, so that the site fills quickly.
 */
export function demoClips(titles: string[]): DemoClip[] {
  return titles.map((title, i) => {
    const height = i % 4 === 3 ? 1080 : 720;
    return { seconds: 20 + ((i * 17) % 41), width: (height * 16) / 9, height, hue: Math.round((i * 360) / titles.length), frequency: 220 + 20 * i, title };
  });
}

/** Indexes of `clips`, cheapest to make first. */
export function cheapestFirst(clips: DemoClip[]): number[] {
  const cost = (c: DemoClip) => c.seconds * c.height;
  return clips.map((_, i) => i).sort((a, b) => cost(clips[a]) - cost(clips[b]));
}

/** drawtext's text, escaped for its option syntax inside a filter graph. */
function drawtextText(text: string): string {
  return text.replace(/[\\':,%]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '');
}

export function demoClipArgs(clip: DemoClip, output: string, withTitle = true): string[] {
  const title = withTitle
    ? `,drawtext=text='${drawtextText(clip.title)}':fontcolor=white:fontsize=${Math.round(clip.height / 14)}:box=1:boxcolor=black@0.55:boxborderw=${Math.round(clip.height / 50)}:x=(w-text_w)/2:y=h-text_h-${Math.round(clip.height / 9)}`
    : '';
  return [
    '-hide_banner', '-nostdin', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${clip.width}x${clip.height}:rate=30:duration=${clip.seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=${clip.frequency}:duration=${clip.seconds}`,
    '-vf', `hue=h=${clip.hue}:s=1.4${title}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-shortest',
    '-progress', 'pipe:1', '-nostats',
    output,
  ];
}
