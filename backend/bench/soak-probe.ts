import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

/**
 * Preloaded into the API by `npm run soak` (`node --expose-gc -r soak-probe.js main.js`, with an IPC channel):
 * answers the soak's `soak-memory` message with process.memoryUsage() as it is and after a forced garbage
 * collection, so that the heap the server retains can be compared over the run; with the event loop's delay
 * since the last reset and the CPU time used so far, which tell a blocked loop or a busy server from a busy
 * machine. The server never loads it.
 */
interface MemoryRequest {
  type: 'soak-memory';
  id: number;
  resetLoop: boolean;
}

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

process.on('message', (message: unknown) => {
  const snapshot = message as { type?: string; id?: number; file?: string } | null;
  if (snapshot?.type === 'soak-heap-snapshot' && snapshot.file && process.send) {
    (globalThis as { gc?: () => void }).gc?.();
    process.send({ type: 'soak-heap-snapshot', id: snapshot.id, file: writeHeapSnapshot(snapshot.file) });
    return;
  }
  const request = message as Partial<MemoryRequest> | null;
  if (request?.type !== 'soak-memory' || !process.send) return;
  const eventLoop = { p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 };
  if (request.resetLoop) loop.reset();
  const before = process.memoryUsage();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const cpu = process.cpuUsage();
  process.send({ type: 'soak-memory', id: request.id, before, afterGc: gc ? process.memoryUsage() : null, eventLoop, cpuMs: (cpu.user + cpu.system) / 1000 });
});

// The channel must not keep the API alive once it has shut down.
process.channel?.unref();
