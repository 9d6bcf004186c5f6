import { act, render } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keepEarlyStream } from '../utils/early-stream';
import { useHls, type UseHlsOptions, type UseHlsResult } from './use-hls';

// A stand-in for hls.js: records what the hook asks of it and lets a test raise its events.
const hls = vi.hoisted(() => {
  type Listener = (event: string, data: unknown) => void;
  class FakeHls {
    static instances: FakeHls[] = [];
    static supported = true;
    static isSupported = () => FakeHls.supported;
    static Events = { MANIFEST_PARSED: 'hlsManifestParsed', ERROR: 'hlsError', FRAG_BUFFERED: 'hlsFragBuffered' };
    static ErrorTypes = { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError', OTHER_ERROR: 'otherError' };
    listeners = new Map<string, Listener>();
    config: unknown;
    currentLevel = -1;
    loadSource = vi.fn();
    attachMedia = vi.fn();
    destroy = vi.fn();
    startLoad = vi.fn();
    recoverMediaError = vi.fn();
    constructor(config: unknown) {
      this.config = config;
      FakeHls.instances.push(this);
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
    }
    emit(event: string, data: unknown) {
      this.listeners.get(event)?.(event, data);
    }
  }
  return FakeHls;
});

vi.mock('hls.js/light', () => ({ default: hls }));

const latest: { result: UseHlsResult | null } = { result: null };

function Player({ src, options }: { src: string | null; options: UseHlsOptions }) {
  const ref = useRef<HTMLVideoElement>(null);
  const result = useHls(ref, src, options);
  useEffect(() => {
    latest.result = result;
  });
  return <video ref={ref} data-testid="video" />;
}

const options = (overrides: Partial<UseHlsOptions> = {}): UseHlsOptions => ({
  startPosition: () => 0,
  autoPlay: () => false,
  onSourceExpired: vi.fn(),
  ...overrides,
});

const SRC = 'https://media.example.com/s/t,1/videos/a/index.m3u8';

/** The hls.js instance once the hook's on-demand import has resolved. */
async function attached() {
  await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
  return hls.instances[0];
}

beforeEach(() => {
  hls.instances = [];
  hls.supported = true;
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockReturnValue('');
});

describe('useHls', () => {
  it('attaches hls.js to the video with the source and start position', async () => {
    render(<Player src={SRC} options={options({ startPosition: () => 90 })} />);

    const instance = await attached();
    expect(instance.config).toMatchObject({ startPosition: 90, enableWorker: false });
    // The first segment is transmuxed on the page, later ones in hls.js's worker (stream-config.test.ts).
    expect(instance.listeners.has('hlsFragBuffered')).toBe(true);
    expect(instance.loadSource).toHaveBeenCalledWith(SRC);
    expect(instance.attachMedia).toHaveBeenCalledWith(expect.any(HTMLVideoElement));
  });

  it('buffers one segment while the video waits for Play, and the full buffer once it plays', async () => {
    render(<Player src={SRC} options={options()} />);

    const instance = await attached();
    const config = instance.config as { maxBufferLength: number; maxMaxBufferLength: number };
    expect(config).toMatchObject({ maxBufferLength: 1, maxMaxBufferLength: 1, startFragPrefetch: true });
    const video = document.querySelector('video') as HTMLVideoElement;
    act(() => {
      video.dispatchEvent(new Event('play'));
    });
    expect(config).toMatchObject({ maxBufferLength: 30, maxMaxBufferLength: 600 });
  });

  it('buffers fully from the start when the video is to play at once', async () => {
    render(<Player src={SRC} options={options({ autoPlay: () => true })} />);

    const instance = await attached();
    expect(instance.config).toMatchObject({ maxBufferLength: 30, maxMaxBufferLength: 600 });
  });

  it('takes over the stream a server-rendered page started before the app, without loading it again', async () => {
    const { getByTestId } = render(<Player src={SRC} options={options()} />);
    // The page's early script (src/early.ts) started it in this very element, from the start.
    const early = new hls({ startPosition: -1 }) as unknown as InstanceType<typeof hls> & { levels: unknown[] };
    early.levels = [{ height: 240 }, { height: 480 }];
    keepEarlyStream({ hls: early as never, src: SRC, position: 0, video: getByTestId('video') as HTMLVideoElement });

    await vi.waitFor(() => expect(latest.result?.levels).toEqual([{ index: 1, label: '480p' }, { index: 0, label: '240p' }]));
    expect(hls.instances).toEqual([early]);
    expect(early.loadSource).not.toHaveBeenCalled();
    expect(early.attachMedia).not.toHaveBeenCalled();
    // It is the player's now: errors are handled and a level can be chosen.
    act(() => early.emit(hls.Events.ERROR, { type: 'mediaError', details: 'bufferStalledError', fatal: true }));
    expect(early.recoverMediaError).toHaveBeenCalled();
    act(() => latest.result?.setLevel(1));
    expect(early.currentLevel).toBe(1);
    // It buffers fully once the video plays, as a stream of the player's own would.
    act(() => {
      getByTestId('video').dispatchEvent(new Event('play'));
    });
    expect(early.config).toMatchObject({ maxBufferLength: 30, maxMaxBufferLength: 600 });
  });

  it('stops an early stream that is not the one it would start, and starts its own', async () => {
    const { getByTestId } = render(<Player src={SRC} options={options({ startPosition: () => 30 })} />);
    const early = new hls({ startPosition: -1 }) as unknown as InstanceType<typeof hls> & { levels: unknown[] };
    early.levels = [];
    keepEarlyStream({ hls: early as never, src: SRC, position: 0, video: getByTestId('video') as HTMLVideoElement });

    await vi.waitFor(() => expect(hls.instances).toHaveLength(2));
    expect(early.destroy).toHaveBeenCalled();
    expect(hls.instances[1].config).toMatchObject({ startPosition: 30 });
    expect(hls.instances[1].loadSource).toHaveBeenCalledWith(SRC);
  });

  it('prefers hls.js where Media Source Extensions exist, even if the browser plays HLS itself', async () => {
    vi.mocked(HTMLMediaElement.prototype.canPlayType).mockReturnValue('maybe');
    vi.stubGlobal('MediaSource', class {});
    render(<Player src={SRC} options={options()} />);

    const instance = await attached();
    expect(instance.loadSource).toHaveBeenCalledWith(SRC);
  });

  it('plays natively where the browser has HLS but no Media Source Extensions, without hls.js', async () => {
    vi.mocked(HTMLMediaElement.prototype.canPlayType).mockReturnValue('maybe');
    const { getByTestId } = render(<Player src={SRC} options={options({ startPosition: () => 30 })} />);
    const video = getByTestId('video') as HTMLVideoElement;

    expect(video.src).toBe(SRC);
    act(() => {
      video.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(video.currentTime).toBe(30);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hls.instances).toHaveLength(0);
  });

  it('lists the renditions, highest first, and switches level', async () => {
    render(<Player src={SRC} options={options()} />);
    const instance = await attached();

    act(() =>
      instance.emit(hls.Events.MANIFEST_PARSED, {
        levels: [{ height: 360 }, { height: 1080 }, { height: 720 }],
      }),
    );
    expect(latest.result?.levels).toEqual([
      { index: 1, label: '1080p' },
      { index: 2, label: '720p' },
      { index: 0, label: '360p' },
    ]);

    act(() => latest.result?.setLevel(2));
    expect(instance.currentLevel).toBe(2);
    expect(latest.result?.level).toBe(2);
  });

  it.each([403, 410])('reports an expired signature when a fragment answers %i', async (code) => {
    const onSourceExpired = vi.fn();
    render(<Player src={SRC} options={options({ onSourceExpired })} />);
    const instance = await attached();

    act(() => instance.emit(hls.Events.ERROR, { type: 'networkError', details: 'fragLoadError', fatal: false, response: { code } }));
    act(() => instance.emit(hls.Events.ERROR, { type: 'networkError', details: 'fragLoadError', fatal: true, response: { code } }));

    expect(onSourceExpired).toHaveBeenCalledTimes(1);
    expect(instance.startLoad).not.toHaveBeenCalled();
  });

  it('recovers from fatal media and network errors', async () => {
    render(<Player src={SRC} options={options()} />);
    const instance = await attached();

    act(() => instance.emit(hls.Events.ERROR, { type: 'mediaError', details: 'bufferStalledError', fatal: true }));
    act(() => instance.emit(hls.Events.ERROR, { type: 'networkError', details: 'manifestLoadError', fatal: true, response: { code: 0 } }));

    expect(instance.recoverMediaError).toHaveBeenCalledTimes(1);
    expect(instance.startLoad).toHaveBeenCalledTimes(1);
  });

  it('ignores errors that hls.js handles itself', async () => {
    render(<Player src={SRC} options={options()} />);
    const instance = await attached();

    act(() => instance.emit(hls.Events.ERROR, { type: 'mediaError', details: 'bufferStalledError', fatal: false }));

    expect(instance.recoverMediaError).not.toHaveBeenCalled();
    expect(instance.destroy).not.toHaveBeenCalled();
  });

  it('destroys hls.js when the source changes and when the player goes away', async () => {
    const { rerender, unmount } = render(<Player src={SRC} options={options()} />);
    const first = await attached();

    rerender(<Player src={`${SRC}?v=2`} options={options()} />);
    await vi.waitFor(() => expect(hls.instances).toHaveLength(2));
    expect(first.destroy).toHaveBeenCalled();

    unmount();
    expect(hls.instances[1].destroy).toHaveBeenCalled();
  });

  it('attaches nothing without a source', async () => {
    render(<Player src={null} options={options()} />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hls.instances).toHaveLength(0);
  });
});
