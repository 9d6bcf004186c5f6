import { hasImageVariants, imageVariantPath } from '@hunktube/shared';
/** One seek-preview tile: a region of a sprite image shown for [start, end) seconds of the video. */
export interface StoryboardCue {
  start: number;
  end: number;
  /** The sprite's absolute URL. */
  url: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}(?:\.\d{1,3})?)\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}(?:\.\d{1,3})?)/;
const TILE = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)\s*$/;

/** "01:02:03.500" or "02:03.5" in seconds. */
export function parseTimestamp(value: string): number {
  const parts = value.split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/**
 * The cues of a storyboard WebVTT file whose payloads are `sprite-N.jpg#xywh=x,y,w,h`, sprite paths resolved
 * against the VTT file's own URL. Cues that are not tiles (no `#xywh=`) are skipped; so is anything unreadable.
 */
export function parseStoryboard(text: string, vttUrl: string): StoryboardCue[] {
  const cues: StoryboardCue[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const timing = TIMING.exec(lines[i]);
    if (!timing) continue;
    const payload = lines[i + 1]?.trim() ?? '';
    const tile = TILE.exec(payload);
    if (!tile) continue;
    i += 1;
    let url: string;
    try {
      url = new URL(tile[1], vttUrl).href;
    } catch {
      continue;
    }
    cues.push({
      start: parseTimestamp(timing[1]),
      end: parseTimestamp(timing[2]),
      url: spriteCopy(url),
      x: Number(tile[2]),
      y: Number(tile[3]),
      width: Number(tile[4]),
      height: Number(tile[5]),
    });
  }
  return cues;
}

/**
 * A stored sprite's WebP copy at its own size (docs/media.md › "Images"), which keeps the tiles where the cues say; a
 * sprite elsewhere is used as it is.
 */
function spriteCopy(url: string): string {
  const { pathname, search, hash } = new URL(url);
  return !search && !hash && hasImageVariants(pathname) ? imageVariantPath(url, 'full') : url;
}

/** The tile to show at a time: the cue covering it, else the nearest one before it (gaps between cues). */
export function cueAt(cues: readonly StoryboardCue[], time: number): StoryboardCue | null {
  let found: StoryboardCue | null = null;
  for (const cue of cues) {
    if (cue.start <= time) found = cue;
    if (cue.start <= time && time < cue.end) return cue;
  }
  return found ?? cues[0] ?? null;
}
