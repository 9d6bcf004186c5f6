import { describe, expect, it } from 'vitest';
import { mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { ADS_ORIGIN, pixelPaths, trackPixels, vastFixture, xml } from '@/testing/vast';
import { loadVast, MAX_WRAPPERS, pickMediaFile, type LoadVastOptions } from './vast';

const MACROS = { now: Date.parse('2026-11-21T12:00:00Z'), pageUrl: 'https://hunktube.example/video/7', random: 42 };
const mp4Only = (type: string) => type === 'video/mp4';
const options = (overrides: Partial<LoadVastOptions> = {}): LoadVastOptions => ({
  want: 'linear',
  canPlay: mp4Only,
  targetWidth: 1280,
  macros: MACROS,
  ...overrides,
});

/** The fixtures at /vast/{name}.xml of the ads' origin. */
function serveFixtures(extra: Parameters<typeof mockFetch>[0] = {}) {
  const routes: Parameters<typeof mockFetch>[0] = {};
  for (const name of ['inline-linear', 'wrapper-1', 'wrapper-2', 'no-fill', 'error-404', 'broken', 'non-linear']) {
    routes[`/vast/${name}.xml`] = () => xml(vastFixture(name));
  }
  return mockFetch({ ...routes, ...extra });
}

/** A VAST wrapper pointing at `next`. */
const wrapper = (next: string) => `<VAST version="4.1"><Ad><Wrapper><AdSystem>t</AdSystem>
  <Error><![CDATA[${ADS_ORIGIN}/track/chain/error?code=[ERRORCODE]]]></Error>
  <VASTAdTagURI><![CDATA[${next}]]></VASTAdTagURI></Wrapper></Ad></VAST>`;

describe('loading a VAST tag', () => {
  it('finds the inline linear ad: its MP4, its duration and its click-through, the tag’s macros filled', async () => {
    const fetchMock = serveFixtures();
    const answer = await loadVast(`${ADS_ORIGIN}/vast/inline-linear.xml?cb=[CACHEBUSTING]&page=[PAGEURL]&d=[DOMAIN]`, options());
    expect(answer).toMatchObject({ kind: 'linear', media: { url: `${ADS_ORIGIN}/media/ad.mp4`, hls: false }, duration: 6 });
    if (answer.kind !== 'linear') return;
    expect(answer.clickThrough).toBe(`${ADS_ORIGIN}/landing?cb=00000042`);
    const [asked] = requestedUrls(fetchMock, '/vast/inline-linear.xml');
    expect(Object.fromEntries(asked.searchParams)).toEqual({ cb: '00000042', page: MACROS.pageUrl, d: 'hunktube.example' });
  });

  it('follows a chain of two wrappers to the inline ad, filling each wrapper’s macros, and fires every level’s impression once', async () => {
    const fetchMock = serveFixtures();
    const answer = await loadVast(`${ADS_ORIGIN}/vast/wrapper-1.xml`, options());
    expect(answer.kind).toBe('linear');
    expect(requestedUrls(fetchMock, '/vast/wrapper-2.xml')[0].searchParams.get('cb')).toBe('00000042');
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')[0].searchParams.get('domain')).toBe('hunktube.example');
    if (answer.kind !== 'linear') return;

    const fired = trackPixels();
    answer.tracker.trackImpression();
    answer.tracker.trackImpression();
    expect(pixelPaths(fired).sort()).toEqual(['/track/inline/impression', '/track/wrapper-1/impression', '/track/wrapper-2/impression']);
    fired.length = 0;
    for (const time of [0.5, 1.6, 3.1, 4.6, 5.9, 6]) answer.tracker.setProgress(time);
    expect(pixelPaths(fired).sort()).toEqual([
      '/track/inline/firstQuartile',
      '/track/inline/midpoint',
      '/track/inline/start',
      '/track/inline/thirdQuartile',
      '/track/wrapper-1/start',
      '/track/wrapper-2/midpoint',
    ]);
  });

  it(`follows at most ${MAX_WRAPPERS} wrappers: a longer chain is no ad, reported as error 302`, async () => {
    const chain = (length: number) => {
      const routes: Parameters<typeof mockFetch>[0] = {};
      for (let i = 1; i <= length; i += 1) {
        const next = i === length ? `${ADS_ORIGIN}/vast/inline-linear.xml` : `${ADS_ORIGIN}/vast/chain-${i + 1}.xml`;
        routes[`/vast/chain-${i}.xml`] = () => xml(wrapper(next));
      }
      return routes;
    };
    serveFixtures(chain(MAX_WRAPPERS));
    expect((await loadVast(`${ADS_ORIGIN}/vast/chain-1.xml`, options())).kind).toBe('linear');

    const fetchMock = serveFixtures(chain(MAX_WRAPPERS + 1));
    const fired = trackPixels();
    expect(await loadVast(`${ADS_ORIGIN}/vast/chain-1.xml`, options())).toEqual({ kind: 'none', reason: 'no-ad' });
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')).toEqual([]);
    expect(fired).toContain('/track/chain/error?code=302');
  });

  it('answers no ad for an empty VAST (no fill)', async () => {
    serveFixtures();
    expect(await loadVast(`${ADS_ORIGIN}/vast/no-fill.xml`, options())).toEqual({ kind: 'none', reason: 'no-ad' });
  });

  it('gives up on a tag that does not answer within the time limit, wrappers included', async () => {
    const never = (_url: URL, init?: { signal: AbortSignal }) =>
      new Promise<Response>((_resolve, reject) => init?.signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
    serveFixtures({ '/vast/slow.xml': never });
    const started = Date.now();
    expect(await loadVast(`${ADS_ORIGIN}/vast/slow.xml`, options({ timeoutMs: 300 }))).toEqual({ kind: 'none', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1500);

    serveFixtures({ '/vast/slow-wrapper.xml': () => xml(wrapper(`${ADS_ORIGIN}/vast/slow.xml`)), '/vast/slow.xml': never });
    expect((await loadVast(`${ADS_ORIGIN}/vast/slow-wrapper.xml`, options({ timeoutMs: 300 }))).kind).toBe('none');
  });

  it('answers no ad when the tag cannot be fetched (an ad blocker, a server error)', async () => {
    mockFetch({ '/vast/down.xml': () => new Response('', { status: 500 }) });
    expect(await loadVast(`${ADS_ORIGIN}/vast/down.xml`, options())).toEqual({ kind: 'none', reason: 'failed' });
    mockFetch({ '/vast/blocked.xml': () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(await loadVast(`${ADS_ORIGIN}/vast/blocked.xml`, options())).toEqual({ kind: 'none', reason: 'failed' });
  });

  it('reports a linear ad without a media file this browser plays as error 403', async () => {
    serveFixtures();
    const fired = trackPixels();
    expect(await loadVast(`${ADS_ORIGIN}/vast/inline-linear.xml`, options({ canPlay: () => false }))).toEqual({ kind: 'none', reason: 'unusable' });
    expect(fired).toEqual(['/track/inline/error?code=403']);
  });

  it('finds the non-linear image for a pause, and reports it as error 200 where a video is wanted', async () => {
    serveFixtures();
    const answer = await loadVast(`${ADS_ORIGIN}/vast/non-linear.xml`, options({ want: 'image' }));
    expect(answer).toMatchObject({ kind: 'image', image: `${ADS_ORIGIN}/media/pause.png`, width: 300, height: 250, clickThrough: `${ADS_ORIGIN}/landing?from=non-linear` });
    if (answer.kind === 'image') {
      const fired = trackPixels();
      answer.tracker.trackImpression();
      answer.tracker.click();
      answer.tracker.close();
      expect(pixelPaths(fired)).toEqual(['/track/non-linear/impression', '/track/non-linear/creativeView', '/track/non-linear/click', '/track/non-linear/close']);
    }

    const fired = trackPixels();
    expect(await loadVast(`${ADS_ORIGIN}/vast/non-linear.xml`, options())).toEqual({ kind: 'none', reason: 'unusable' });
    expect(fired).toEqual(['/track/non-linear/error?code=200']);
    // And a linear ad for a pause.
    fired.length = 0;
    expect(await loadVast(`${ADS_ORIGIN}/vast/inline-linear.xml`, options({ want: 'image' }))).toEqual({ kind: 'none', reason: 'unusable' });
    expect(fired).toEqual(['/track/inline/error?code=200']);
  });
});

describe('choosing the media file', () => {
  const file = (mimeType: string, width: number, url = `${mimeType}-${width}`) => ({ fileURL: url, mimeType, deliveryType: 'progressive', width, height: 0 });
  const files = [file('video/mp4', 1920), file('video/webm', 1280), file('video/mp4', 640), file('video/mp4', 1280), file('application/x-mpegURL', 0)];
  const any = () => true;

  it('takes the widest MP4 that fits the player, else the narrowest', () => {
    expect(pickMediaFile(files, any, 1300)).toEqual({ url: 'video/mp4-1280', hls: false });
    expect(pickMediaFile(files, any, 4000)).toEqual({ url: 'video/mp4-1920', hls: false });
    expect(pickMediaFile(files, any, 300)).toEqual({ url: 'video/mp4-640', hls: false });
  });

  it('takes HLS where there is no MP4 to play, and nothing where the browser plays neither', () => {
    expect(pickMediaFile(files, (type) => type !== 'video/mp4', 1280)).toEqual({ url: 'application/x-mpegURL-0', hls: true });
    expect(pickMediaFile([file('application/vnd.apple.mpegurl', 0)], any, 1280)).toEqual({ url: 'application/vnd.apple.mpegurl-0', hls: true });
    expect(pickMediaFile(files, (type) => type === 'video/webm', 1280)).toBeNull();
    expect(pickMediaFile([file('video/mp4', 640, '')], any, 1280)).toBeNull();
  });
});
