import { describe, expect, it, vi } from 'vitest';
import { yieldToMain } from './yield-to-main';

describe('yieldToMain', () => {
  it('resumes in a later task: a task queued before it has run by then, microtasks too', async () => {
    const ran: string[] = [];
    const earlier = new MessageChannel();
    earlier.port1.onmessage = () => {
      ran.push('task queued before');
      earlier.port1.close();
    };
    earlier.port2.postMessage(undefined);
    void Promise.resolve().then(() => ran.push('microtask'));
    await yieldToMain();
    expect(ran).toEqual(['microtask', 'task queued before']);
  });

  it('uses scheduler.yield where the browser has it', async () => {
    const schedulerYield = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: schedulerYield });
    await yieldToMain();
    expect(schedulerYield).toHaveBeenCalledOnce();
  });
});
