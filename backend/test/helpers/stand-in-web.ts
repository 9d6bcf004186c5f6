import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * A web client's build for e2e tests of what the API does with pages (which it draws, keeps, refuses; what it
 * hands the render), without the real render module: index.html, and a render module beside it
 * (`dist-server/entry-server.js`, where the API looks for the real one) that writes a document naming the address
 * and origin it was asked for, with a canonical link and the bootstrap block it was handed, draws the pages the
 * real route table draws, and counts what it draws. `hold()` keeps every drawing waiting until `release()`, so
 * that a test can fill the line of renders. Tests of what the documents say use the real one (web-render.ts).
 */
export interface StandInWeb {
  webRoot: string;
  /** Every address drawn, in order. */
  renders(): string[];
  /** Every address whose document was written, drawn or its head alone, in order. */
  documents(): string[];
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
  type State = { renders: string[]; documents: string[]; held: Promise<void> | null; release: () => void };
  const state: State = { renders: [], documents: [], held: null, release: () => undefined };
  (globalThis as Record<string, unknown>)[key] = state;
  writeFileSync(
    path.join(dir, 'dist-server', 'entry-server.js'),
    `const state = globalThis[${JSON.stringify(key)}];
const text = (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
// The pages the real route table draws on the server (frontend/src/app/router.tsx, handle.draws).
const DRAWN = /^\\/(?:|video\\/[1-9]\\d{0,9}|search|categories|performers|categories\\/[^/]+|performers\\/[^/]+)$/;
export function drawnOnServer(url) {
  return DRAWN.test(url.split('?')[0]);
}
export async function renderDocument(request) {
  const drawn = request.body && drawnOnServer(request.url);
  state.documents.push(request.url);
  if (drawn) {
    state.renders.push(request.url);
    if (state.held) await state.held;
  }
  const bootstrap = { site: request.site, ...(request.user !== undefined ? { user: request.user } : {}), ageConfirmed: request.ageConfirmed };
  const head = '<title>Head of ' + text(request.url) + '</title><link rel="canonical" href="' + text(request.origin + request.url) + '">' +
    '<script type="application/json" id="bootstrap">' + JSON.stringify(bootstrap).replace(/</g, '\\\\u003c') + '</script>';
  const body = drawn ? '<main data-rendered="' + text(request.url) + '" data-origin="' + text(request.origin) + '">Rendered</main>' : '';
  return { html: '<!doctype html><html><head>' + head + '</head><body><div id="root">' + body + '</div></body></html>', drawn, complete: true };
}
`,
  );
  return {
    webRoot,
    renders: () => [...state.renders],
    documents: () => [...state.documents],
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
