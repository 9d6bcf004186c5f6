import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * A web client's build for e2e tests that need server-rendered pages without building the real one: index.html,
 * and a render module beside it (`dist-server/entry-server.js`, where the API looks for the real one) that draws a
 * page naming the address and origin it was asked for, and counts its renders. `hold()` keeps every render
 * waiting until `release()`, so that a test can fill the line of renders. (The real render module comes from
 * `npm run build`, which the backend's suites do not wait for; the browser suite draws pages with it.)
 */
export interface StandInWeb {
  webRoot: string;
  /** Every address rendered, in order. */
  renders(): string[];
  hold(): void;
  release(): void;
  remove(): void;
}

/** A built web client's index.html, as small as the API needs it (its `<title>` is where a page's head goes). */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Videos</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

let made = 0;

export function standInWeb(): StandInWeb {
  const dir = mkdtempSync(path.join(tmpdir(), 'stand-in-web-'));
  const webRoot = path.join(dir, 'dist');
  mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
  mkdirSync(path.join(dir, 'dist-server'));
  writeFileSync(path.join(webRoot, 'index.html'), INDEX_HTML);
  const key = `__standInWeb${++made}_${process.pid}`;
  type State = { renders: string[]; held: Promise<void> | null; release: () => void };
  const state: State = { renders: [], held: null, release: () => undefined };
  (globalThis as Record<string, unknown>)[key] = state;
  writeFileSync(
    path.join(dir, 'dist-server', 'entry-server.js'),
    `const state = globalThis[${JSON.stringify(key)}];
export async function render(request) {
  state.renders.push(request.url);
  if (state.held) await state.held;
  const text = (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
  return { html: '<main data-rendered="' + text(request.url) + '" data-origin="' + text(request.origin) + '">Rendered</main>', rendered: { url: request.url }, streams: [] };
}
`,
  );
  return {
    webRoot,
    renders: () => [...state.renders],
    hold() {
      state.held = new Promise<void>((resolve) => (state.release = resolve));
    },
    release() {
      state.held = null;
      state.release();
    },
    remove() {
      delete (globalThis as Record<string, unknown>)[key];
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
