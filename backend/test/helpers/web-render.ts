import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * A web client's build with the real render module (frontend/src/entry-server.tsx), for e2e tests of what the
 * pages' documents say: their heads are written by the web client from its route table (docs/web-client.md ›
 * "One author per page"). The render module is built from the web client's sources with `vite build --ssr`
 * (about 1.5 s), once for every version of those sources (kept in the system's temporary folder by a hash of
 * them, so the test files share it); index.html is the test's own, as small as it likes.
 */
export interface RenderedWeb {
  webRoot: string;
  remove(): void;
}

const FRONTEND = path.resolve(__dirname, '../../../frontend');

export function renderedWeb(indexHtml: string, files: Record<string, string | Buffer> = {}): RenderedWeb {
  const dir = mkdtempSync(path.join(tmpdir(), 'rendered-web-'));
  const webRoot = path.join(dir, 'dist');
  mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
  writeFileSync(path.join(webRoot, 'index.html'), indexHtml);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(webRoot, name), content);
  // A copy, not a link: the module's chunks import it by its real path, and Node would load a linked one twice.
  cpSync(renderModule(), path.join(dir, 'dist-server'), { recursive: true });
  return { webRoot, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The folder holding the built entry-server.js for the web client's sources as they are now. */
function renderModule(): string {
  const hash = createHash('sha256');
  for (const file of [...sources(path.join(FRONTEND, 'src')), ...sources(path.join(FRONTEND, '../packages/shared/src'))]) hash.update(file).update(readFileSync(file));
  for (const file of ['vite.config.ts', 'package.json', '../packages/shared/package.json']) hash.update(readFileSync(path.join(FRONTEND, file)));
  const out = path.join(tmpdir(), `hunktube-render-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(out, 'entry-server.js'))) return out;
  // Built beside its final place and renamed into it, so that test files building at once never read half a build.
  const building = `${out}.${process.pid}`;
  const vite = path.join(path.dirname(createRequire(path.join(FRONTEND, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--ssr', 'src/entry-server.tsx', '--outDir', building, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: FRONTEND,
    encoding: 'utf8',
    // As `npm run build` builds it (vitest's NODE_ENV=test would give React's development JSX runtime).
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) throw new Error(`The web client's render module did not build:\n${built.stderr}${built.stdout}`);
  try {
    renameSync(building, out);
  } catch {
    // Another test file renamed its build there first: the same sources, the same module.
    rmSync(building, { recursive: true, force: true });
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.(?:tsx?|css|json)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
}
