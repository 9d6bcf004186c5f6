import type { VASTTracker } from '@dailymotion/vast-client';
import { fillTagMacros, type MacroValues } from './macros';

/** Wrappers followed before an inline ad at most; a longer chain is VAST error 302 and no ad. */
export const MAX_WRAPPERS = 5;
/** The whole tag (our zone's answer included, every wrapper, each fetch) must resolve within this, else no ad. */
export const VAST_TIMEOUT_MS = 4000;

/** VAST 4.1 § 2.3.6.3 error codes the player reports through a tracker. */
export const VAST_ERROR = {
  /** An ad of a kind the slot cannot show (a non-linear ad for a pre-roll, a linear one for a pause). */
  wrongType: 200,
  /** The linear creative failed for another reason (the browser refused to start it). */
  linear: 400,
  /** The media file did not start within its time. */
  mediaTimeout: 402,
  /** No media file of a type this browser plays. */
  noSupportedMedia: 403,
  /** The media file was found but could not be played (an error of the element: 404, a broken file). */
  mediaError: 405,
  /** The non-linear image could not be fetched. */
  nonLinearFetch: 502,
} as const;

const HLS_TYPES = new Set(['application/x-mpegurl', 'application/vnd.apple.mpegurl']);

/** The parts of vast-client's parsed documents this player reads (its published types leave them untyped). */
export interface VastMediaFile {
  fileURL: string | null;
  mimeType: string | null;
  deliveryType: string;
  width: number;
  height: number;
}

interface VastNonLinear {
  type: string | null;
  staticResource: string | null;
  nonlinearClickThroughURLTemplate: string | null;
  width: number | string;
  height: number | string;
}

interface VastCompanion {
  staticResources: { url: string; creativeType: string | null }[];
  companionClickThroughURLTemplate: string | null;
  width: number | string;
  height: number | string;
}

interface VastCreative {
  type: 'linear' | 'nonlinear' | 'companion';
  duration?: number;
  mediaFiles?: VastMediaFile[];
  videoClickThroughURLTemplate?: { url: string } | null;
  variations?: (VastNonLinear | VastCompanion)[];
}

interface VastAd {
  creatives: VastCreative[];
}

/** A media file the ad player can start: an MP4, or an HLS playlist. */
export interface AdMedia {
  url: string;
  hls: boolean;
}

export type VastAnswer =
  | { kind: 'linear'; tracker: VASTTracker; media: AdMedia; clickThrough: string | null; duration: number }
  | { kind: 'image'; tracker: VASTTracker; image: string; clickThrough: string | null; width: number; height: number }
  /** No ad to show: none in the answer, none of the kind wanted or playable (reported through its Error URLs), a timeout or a failed fetch. */
  | { kind: 'none'; reason: 'no-ad' | 'unusable' | 'timeout' | 'failed' };

export interface LoadVastOptions {
  /** A linear video (pre-roll, post-roll), or an image (pause: a non-linear ad or a companion). */
  want: 'linear' | 'image';
  /** Whether this browser plays a media type (`video/mp4`; HLS where native or through hls.js). */
  canPlay: (mimeType: string) => boolean;
  /** The player's width in device pixels: the media file that fits it best is chosen. */
  targetWidth: number;
  macros: MacroValues;
  timeoutMs?: number;
  /** The tag's first answer, already asked for (with these `macros`). */
  prefetched?: PrefetchedTag;
}

/** Whether a media file's type is HLS (VAST names it either way). */
export const isHlsType = (mimeType: string | null) => mimeType !== null && HLS_TYPES.has(mimeType.toLowerCase());

/**
 * The media file to play: an MP4 where there is one (a single request, the quickest first frame), the widest
 * that is not wider than the player (else the narrowest); an HLS playlist where there is no MP4; null where this
 * browser plays none.
 */
export function pickMediaFile(files: readonly VastMediaFile[], canPlay: (mimeType: string) => boolean, targetWidth: number): AdMedia | null {
  const playable = files.filter((file) => file.fileURL && file.mimeType && canPlay(file.mimeType.toLowerCase()));
  const mp4 = playable.filter((file) => file.mimeType?.toLowerCase() === 'video/mp4').sort((a, b) => a.width - b.width);
  if (mp4.length > 0) {
    const fitting = mp4.filter((file) => file.width <= targetWidth);
    const chosen = fitting.length > 0 ? fitting[fitting.length - 1] : mp4[0];
    return { url: chosen.fileURL as string, hls: false };
  }
  const hls = playable.find((file) => isHlsType(file.mimeType));
  return hls ? { url: hls.fileURL as string, hls: true } : null;
}

/** A tag's first answer, asked for before the VAST client was loaded (../early-preroll.ts), for its filled address. */
export interface PrefetchedTag {
  url: string;
  response: Promise<Response>;
}

/**
 * A fetch for vast-client that gives up on `signal` (the tag's time limit, shared by every wrapper), in the
 * shape of its URL handlers: `{xml}` or `{error, statusCode}`. The `first` answer stands for its address, once.
 */
const handlerFor = (signal: AbortSignal, first?: PrefetchedTag) => ({
  async get(url: string) {
    try {
      const prefetched = first?.url === url ? first.response : null;
      if (prefetched) first = undefined;
      const response = await (prefetched ?? fetch(url, { signal, credentials: 'omit' }));
      if (!response.ok) return { error: new Error(`VAST: ${response.status} from ${url}`), statusCode: response.status };
      const text = await response.text();
      return {
        xml: new DOMParser().parseFromString(text, 'text/xml'),
        details: { byteLength: text.length, statusCode: response.status, rawXml: text },
      };
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)), statusCode: signal.aborted ? 408 : null };
    }
  },
});

const isImage = (type: string | null) => type !== null && type.toLowerCase().startsWith('image/');

/** The VAST client's chunk, fetched once (ahead of a break: useBreakWanted). */
let vastClient: Promise<typeof import('@dailymotion/vast-client')> | null = null;
export const loadVastClient = () => (vastClient ??= import('@dailymotion/vast-client'));

/**
 * Fetches a zone's VAST tag (its macros filled, and each wrapper's) with vast-client, which is loaded only now:
 * follows at most MAX_WRAPPERS wrappers within `timeoutMs` in all, and finds the creative the slot wants. A
 * creative there but not usable is reported through the ad's Error URLs (VAST_ERROR); the parser reports its own
 * (no ad 303, wrapper limit 302, wrapper timeout 301).
 */
export async function loadVast(tagUrl: string, options: LoadVastOptions): Promise<VastAnswer> {
  const { want, canPlay, targetWidth, macros, timeoutMs = VAST_TIMEOUT_MS, prefetched } = options;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const timedOut = new Promise<VastAnswer>((resolve) => deadline.signal.addEventListener('abort', () => resolve({ kind: 'none', reason: 'timeout' })));
  try {
    return await Promise.race([timedOut, resolveTag(tagUrl, want, canPlay, targetWidth, macros, deadline.signal, prefetched)]);
  } catch {
    return { kind: 'none', reason: deadline.signal.aborted ? 'timeout' : 'failed' };
  } finally {
    clearTimeout(timer);
    deadline.abort();
  }
}

async function resolveTag(
  tagUrl: string,
  want: LoadVastOptions['want'],
  canPlay: LoadVastOptions['canPlay'],
  targetWidth: number,
  macros: MacroValues,
  signal: AbortSignal,
  prefetched?: PrefetchedTag,
): Promise<VastAnswer> {
  const { VASTClient, VASTTracker } = await loadVastClient();
  const client = new VASTClient();
  client.addURLTemplateFilter((url: string) => fillTagMacros(url, macros));
  const response = (await client.get(tagUrl, {
    urlHandler: handlerFor(signal, prefetched),
    // vast-client counts the responses without an inline ad: MAX_WRAPPERS wrappers, then the inline.
    wrapperLimit: MAX_WRAPPERS + 1,
    withCredentials: false,
  })) as { ads: VastAd[] };
  if (signal.aborted) return { kind: 'none', reason: 'timeout' };
  const ads = response.ads;
  if (ads.length === 0) return { kind: 'none', reason: 'no-ad' };

  const fillClick = (template: string | null | undefined) => (template ? fillTagMacros(template, macros) : null);
  for (const ad of ads) {
    for (const creative of ad.creatives) {
      if (want === 'linear' && creative.type === 'linear') {
        const tracker = new VASTTracker(client, ad, creative);
        const media = pickMediaFile(creative.mediaFiles ?? [], canPlay, targetWidth);
        if (!media) {
          tracker.error({ ERRORCODE: VAST_ERROR.noSupportedMedia });
          return { kind: 'none', reason: 'unusable' };
        }
        return { kind: 'linear', tracker, media, clickThrough: fillClick(creative.videoClickThroughURLTemplate?.url), duration: creative.duration ?? 0 };
      }
      if (want === 'image' && (creative.type === 'nonlinear' || creative.type === 'companion')) {
        for (const variation of creative.variations ?? []) {
          const found = imageOf(variation);
          if (!found) continue;
          return { kind: 'image', tracker: new VASTTracker(client, ad, creative, variation), ...found, clickThrough: fillClick(found.clickThrough) };
        }
      }
    }
  }
  // Ads of another kind only: the first tells its server it could not be shown here.
  const [first] = ads;
  if (first.creatives[0]) new VASTTracker(client, first, first.creatives[0]).error({ ERRORCODE: VAST_ERROR.wrongType });
  return { kind: 'none', reason: 'unusable' };
}

/** A non-linear ad's or a companion's static image, with its size (which the parser may leave as text) and click-through template. */
function imageOf(variation: VastNonLinear | VastCompanion): { image: string; width: number; height: number; clickThrough: string | null } | null {
  if ('staticResource' in variation) {
    if (!variation.staticResource || !isImage(variation.type)) return null;
    return { image: variation.staticResource, width: Number(variation.width), height: Number(variation.height), clickThrough: variation.nonlinearClickThroughURLTemplate };
  }
  const resource = variation.staticResources.find((entry) => isImage(entry.creativeType));
  if (!resource) return null;
  return { image: resource.url, width: Number(variation.width), height: Number(variation.height), clickThrough: variation.companionClickThroughURLTemplate };
}
