import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './free-port';

/** The repository: two folders up from backend/bench (the tests import this file), three from its build in backend/dist-bench/bench. */
const REPO = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'dist-bench' ? '../../..' : '../..');

/** What `npm run stack` writes to {dir}/stack.json (scripts/stack/stack.mjs). */
export interface StackState {
  pid: number;
  state: string;
  rolls: number;
  url: string;
  app?: string;
  processes: Record<string, { pid: number; port?: number; restarts: number; log: string }>;
}

export interface RunningStack {
  child: ChildProcess;
  /** The stack's folder: stack.json, logs/, and the stack's own output in stack.out. */
  dir: string;
  /** nginx, on loopback. */
  base: string;
  output: string;
  state(): StackState;
  /** SIGTERM, as Ctrl-C; resolves with the stack's exit code once it has stopped everything. */
  stop(): Promise<number | null>;
}

/**
 * `npm run stack` (scripts/stack/stack.mjs) as a child of the caller, on free ports and in a new folder, for the
 * stack's tests and its bench; resolves once it serves (stack.json says `running`), and throws with its output when
 * it exits first or is not up within `timeoutMs`.
 */
export async function startStack(options: { api: number; workers: number; env: Record<string, string>; timeoutMs: number }): Promise<RunningStack> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hunktube-stack-'));
  const output = path.join(dir, 'stack.out');
  const port = await freePort();
  // The API processes take consecutive ports from --api-port: an even port below the proxies' range of the tests.
  const apiPort = 12000 + Math.floor(Math.random() * 3000) * 2;
  const args = ['--dir', dir, '--port', String(port), '--api', String(options.api), '--workers', String(options.workers), '--api-port', String(apiPort)];
  for (const flag of ['--redis-port', '--status-port', '--metrics-port']) args.push(flag, String(await freePort()));
  const log = openSync(output, 'a');
  const child = spawn(process.execPath, [path.join(REPO, 'scripts/stack/stack.mjs'), ...args], {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  const stateFile = path.join(dir, 'stack.json');
  const state = () => JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
  for (const deadline = Date.now() + options.timeoutMs; ; ) {
    if (child.exitCode !== null) throw new Error(`npm run stack exited:\n${readFileSync(output, 'utf8')}`);
    if (existsSync(stateFile) && state().state === 'running') break;
    if (Date.now() > deadline) throw new Error(`npm run stack did not start in ${options.timeoutMs / 1000} s:\n${readFileSync(output, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    child,
    dir,
    base: `http://127.0.0.1:${port}`,
    output,
    state,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
