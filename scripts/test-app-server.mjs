// Starts the built app (backend/dist, serving frontend/dist) as `npm start` would on a new machine, on a free
// port with a fresh embedded database and media folder and a few demo clips, for the browser tests and the
// watch-route benchmark. Resolves once the demo clips are encoded and published.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const TEST_ADMIN = { email: 'admin@e2e.test', password: 'the e2e keeper of the keys' };
/** The host name the app under test serves the jtg brand on, and that brand's site name. */
export const TEST_BRAND_HOST = 'jtg.localhost';
export const TEST_BRAND_NAME = 'JTG Test Site';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/**
 * @param {{ demoVideos?: number }} [options]
 * @returns {Promise<{ baseURL: string, adminToken: string, stop: () => Promise<void> }>}
 */
export async function startTestApp({ demoVideos = 3 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hunktube-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let server = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      MEDIA_DIR: path.join(dir, 'media'),
      DATABASE_URL: '',
      REDIS_URL: '',
      DEMO_SEED: 'true',
      DEMO_SEED_VIDEOS: String(demoVideos),
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      // The site's addresses come from configuration only (docs/security.md › "Origins"): the one the tests use.
      PUBLIC_URL: baseURL,
      // A second brand on its own host (docs/decisions.md › "Brands by host"): Chromium takes *.localhost to this machine.
      BRAND_HOSTS: `http://${TEST_BRAND_HOST}:${port}=jtg`,
      BRAND_SITE_NAMES: `jtg=${TEST_BRAND_NAME}`,
      COUNTER_FLUSH_MS: '1000',
      // Every flow registers and logs in; the production limit would throttle a fast run.
      RATE_LIMIT_AUTH: '1000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.once('exit', (code) => {
    if (server) console.error(`The app under test exited early with code ${code}`);
    server = undefined;
  });

  const stop = async () => {
    const running = server;
    server = undefined;
    if (running) {
      running.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitFor('the app to answer', 120_000, async () => {
      if (!server) throw new Error('the app exited');
      return (await fetch(`${baseURL}/api/health`)).ok || undefined;
    });
    const login = await fetch(`${baseURL}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(TEST_ADMIN),
    });
    const { accessToken } = await login.json();
    const auth = { Authorization: `Bearer ${accessToken}` };
    // The demo clips are encoded one after another by the app's own ingest worker.
    await waitFor(`${demoVideos} demo videos to be encoded`, 540_000, async () => {
      if (!server) throw new Error('the app exited');
      const { data } = await (await fetch(`${baseURL}/api/admin/jobs`, { headers: auth })).json();
      const failed = data.find((job) => job.state === 'failed');
      if (failed) throw new Error(`a demo clip failed: ${failed.error}`);
      return data.length >= demoVideos && data.every((job) => job.state === 'done') ? true : undefined;
    });
    // Listing totals are cached for half a minute; start from a catalogue that shows every demo video.
    await fetch(`${baseURL}/api/admin/clear-cache`, { method: 'POST', headers: auth });
    return { baseURL, adminToken: accessToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
