import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServerDatabase, onPostgresServer } from './helpers/test-app';

/**
 * The real server process, stopped with SIGTERM while views are still buffered: after a restart the
 * database must hold every view that was answered 200.
 */
describe('Counters across a shutdown (e2e, real process)', () => {
  const backend = path.resolve(__dirname, '..');
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase = async () => undefined as void;
  let server: ChildProcess | undefined;

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });

  async function start(): Promise<string> {
    const port = await freePort();
    server = spawn(process.execPath, [path.join(backend, 'dist', 'main.js')], {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 240; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) return base;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the server did not start');
  }

  beforeAll(async () => {
    // The test runs the compiled server, as `npm start` does.
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(backend, 'tsconfig.build.json')], { stdio: 'inherit' });
    dataDir = mkdtempSync(path.join(tmpdir(), 'shutdown-'));
    env = {
      NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO_SEED: 'false',
      COUNTER_FLUSH_MS: '3600000', RATE_LIMIT_WRITE: '0', DATABASE_URL: '', REDIS_URL: '',
    };
    if (onPostgresServer()) {
      const db = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      env.DATABASE_URL = db.databaseUrl;
      dropDatabase = db.dropDatabase;
    }
    // A few catalogue videos, written by the seeding command as a user would.
    execFileSync(process.execPath, [path.join(backend, 'dist', 'database', 'seeds', 'seed-catalog.cli.js'), '--videos', '3'], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await once(server, 'exit');
    }
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes every buffered view before the process exits', async () => {
    let base = await start();
    const [video] = ((await (await fetch(`${base}/api/videos?limit=1`)).json()) as { data: { id: number; views: number }[] }).data;

    let answered = 0;
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${base}/api/video/increment-views`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'User-Agent': `shutdown-viewer-${batch}-${i}` },
            body: JSON.stringify({ videoId: video.id }),
          }),
        ),
      );
      answered += responses.filter((r) => r.status === 200).length;
    }
    expect(answered).toBe(200);

    const exited = once(server as ChildProcess, 'exit');
    (server as ChildProcess).kill('SIGTERM');
    const [code, signal] = await exited;
    expect(code === 0 || signal === 'SIGTERM').toBe(true);

    base = await start();
    const after = (await (await fetch(`${base}/api/videos/${video.id}`)).json()) as { views: number };
    expect(after.views).toBe(video.views + answered);
    (server as ChildProcess).kill('SIGTERM');
    await once(server as ChildProcess, 'exit');
  }, 180_000);
});
