/**
 * Ends the current task and resumes in a new one, so that the browser can paint and answer input in between
 * (docs/web-client.md › "Boot work"): `scheduler.yield()` where the browser has it (Chromium: the continuation
 * runs ahead of other queued tasks), else a message to this page, which unlike `setTimeout(0)` is never clamped.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}
