import type Hls from 'hls.js/light';
import { describe, expect, it, vi } from 'vitest';
import { newStream, PLAYING_BUFFER, streamConfig, workerAfterFirstSegment } from './stream-config';

const EVENTS = { FRAG_BUFFERED: 'hlsFragBuffered' } as typeof Hls.Events;

/** hls.js as far as the hand-over sees it: its config, its events and its main stream's transmuxer. */
function fakeHls() {
  const listeners = new Map<string, Set<(event: string, data: unknown) => void>>();
  const transmuxer = { destroy: vi.fn() };
  const hls = {
    config: streamConfig(0, false),
    streamController: { transmuxer: transmuxer as { destroy(): void } | null },
    on: (event: string, listener: (event: string, data: unknown) => void) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event))?.add(listener),
    off: (event: string, listener: (event: string, data: unknown) => void) => void listeners.get(event)?.delete(listener),
    emit: (event: string, data: unknown) => [...(listeners.get(event) ?? [])].forEach((listener) => listener(event, data)),
  };
  return { hls, transmuxer };
}

describe('streamConfig', () => {
  it('starts at the position, asks for the first segment at once, and transmuxes it on the page', () => {
    expect(streamConfig(90, false)).toEqual({ startPosition: 90, startFragPrefetch: true, enableWorker: false, maxBufferLength: 1, maxMaxBufferLength: 1 });
    expect(streamConfig(0, true)).toEqual({ startPosition: -1, startFragPrefetch: true, enableWorker: false, ...PLAYING_BUFFER });
  });
});

describe('workerAfterFirstSegment', () => {
  it("drops the page's transmuxer once the first segment of the main stream is appended, for one with a worker", () => {
    const { hls, transmuxer } = fakeHls();
    workerAfterFirstSegment(hls as unknown as Hls, EVENTS);

    hls.emit(EVENTS.FRAG_BUFFERED, { frag: { type: 'audio' } });
    expect(hls.config.enableWorker).toBe(false);
    expect(transmuxer.destroy).not.toHaveBeenCalled();

    hls.emit(EVENTS.FRAG_BUFFERED, { frag: { type: 'main' } });
    expect(hls.config.enableWorker).toBe(true);
    expect(transmuxer.destroy).toHaveBeenCalledOnce();
    expect(hls.streamController.transmuxer).toBeNull();

    // Only once: the worker's transmuxer stays.
    const workerTransmuxer = { destroy: vi.fn() };
    hls.streamController.transmuxer = workerTransmuxer;
    hls.emit(EVENTS.FRAG_BUFFERED, { frag: { type: 'main' } });
    expect(workerTransmuxer.destroy).not.toHaveBeenCalled();
  });
});

describe('newStream', () => {
  it('starts hls.js with streamConfig and the hand-over to the worker', () => {
    const on = vi.fn();
    const HlsClass = vi.fn(function (this: { config: unknown; on: typeof on }, config: unknown) {
      this.config = config;
      this.on = on;
    }) as unknown as typeof Hls;
    Object.assign(HlsClass, { Events: EVENTS });
    const hls = newStream(HlsClass, 12, false);
    expect(hls.config).toEqual(streamConfig(12, false));
    expect(on).toHaveBeenCalledWith(EVENTS.FRAG_BUFFERED, expect.any(Function));
  });
});
