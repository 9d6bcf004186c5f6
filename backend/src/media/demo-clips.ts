import { ladderFor, type Rendition } from './ffmpeg-args';

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
 * Demo clips are cut for a first start on a small machine (README, "Quick start"): 24 fps rather than 30 and a
 * source only as good as its top rendition needs, so that generating a clip costs less than ingesting it.
 */
const DEMO_FPS = 24;
const DEMO_SOURCE_CRF = 23;

/**
 * One clip per title (`clips[i]` is for `titles[i]`): 10–20 s, at 480p but every eighth at 720p, so that the
 * quality menu shows some HD. `cheapestFirst` gives the order to make them in, so that the site fills quickly.
 */
export function demoClips(titles: string[]): DemoClip[] {
  return titles.map((title, i) => {
    const height = i % 8 === 5 ? 720 : 480;
    return {
      seconds: 10 + ((i * 7) % 11),
      width: Math.round((height * 16) / 9 / 2) * 2,
      height,
      hue: Math.round((i * 360) / titles.length),
      frequency: 220 + 20 * i,
      title,
    };
  });
}

/** Indexes of `clips`, cheapest to make first (a 720p second costs about twice a 480p one). */
export function cheapestFirst(clips: DemoClip[]): number[] {
  const cost = (c: DemoClip) => c.seconds * c.height * c.height;
  return clips.map((_, i) => i).sort((a, b) => cost(clips[a]) - cost(clips[b]) || a - b);
}

/**
 * The renditions of a demo clip: the top one of the full ladder and the one at about half its height (480p and
 * 240p, 720p and 360p). Two rungs still give the quality menu a choice at some 60% of the full ladder's cost;
 * uploads keep the full ladder.
 */
export function demoLadderFor(sourceHeight: number): Rendition[] {
  const full = ladderFor(sourceHeight);
  return full.filter((_, i) => i === full.length - 1 || i === full.length - 3);
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
    '-f', 'lavfi', '-i', `testsrc2=size=${clip.width}x${clip.height}:rate=${DEMO_FPS}:duration=${clip.seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=${clip.frequency}:duration=${clip.seconds}`,
    '-vf', `hue=h=${clip.hue}:s=1.4${title}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', String(DEMO_SOURCE_CRF), '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-shortest',
    '-progress', 'pipe:1', '-nostats',
    output,
  ];
}
