import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Content codings the build is precompressed in (frontend/vite.config.ts), in the order the server prefers them. */
export const ENCODINGS = [
  { coding: 'br', extension: '.br' },
  { coding: 'gzip', extension: '.gz' },
] as const;
export type Coding = (typeof ENCODINGS)[number]['coding'];

/** One file of the build, by the URL path it is served at. */
export interface BuiltAsset {
  /** Absolute path on disk. */
  file: string;
  /** The extension that gives its Content-Type (`.js`, `.css`, `.svg` …). */
  extension: string;
  /** Precompressed copies beside it, by content coding. */
  encoded: Partial<Record<Coding, string>>;
  /** Vite's hashed bundles (`/assets/*-[hash].*`): one name, one content, forever. */
  immutable: boolean;
}

/**
 * The built web client as the server reads it at start: its index.html and the facts of Vite's manifest, which
 * the web client's render writes each page's document from (frontend/src/app/head/document.ts, DocumentBuild),
 * and every other file, which the server sends itself.
 */
export interface WebBuild {
  indexHtml: string;
  assets: Map<string, BuiltAsset>;
  /** The scripts and style sheets modules of the client need besides the entry's (Vite's manifest). */
  chunks: (sources: string[], options?: ChunkOptions) => RouteChunks;
  /**
   * What a server-rendered page starts with instead of the app (frontend/src/early.ts: it loads the app once the
   * page shows its first picture, a watch page's after starting its stream; docs/web-client.md › "Server
   * rendering"); null for a build without it.
   */
  early: EarlyEntry | null;
}

export interface EarlyEntry {
  /**
   * index.html for such a page: without the app's entry script and its modules' preloads (the early script loads
   * the app once the page shows its first picture; its modules are fetched then, not in the meantime).
   */
  indexHtml: string;
  /** The early script, as a URL path. */
  script: string;
  /** Its own imports as URL paths: hls.js first, for a page with a stream; and without hls.js, for the others. */
  imports: { stream: string[]; still: string[] };
  /**
   * The CSP sources of the style sheet written into `indexHtml` (`'sha256-…'`): the app's own sheet, inlined so
   * that the first paint waits for no second request (docs/web-client.md › "Boot work"); none when it was left
   * as a link.
   */
  styleHashes: string[];
}

/** A style sheet is written into the rendered pages only up to this size (the build's is 20 kB, 6 kB compressed). */
export const INLINE_STYLE_MAX_BYTES = 48 * 1024;

/** The early entry's module in the web client (frontend/vite.config.ts). */
const EARLY_SOURCE = 'src/early.ts';
/** hls.js as the web client imports it (its light build, frontend/vite.config.ts). */
const HLS_SOURCE = 'hls.js/dist/hls.light.min.js';

export interface ChunkOptions {
  /** Also the chunks the app's entry loads anyway (for a script that runs before it: src/early.ts). */
  withEntry?: boolean;
}

/** What a lazily loaded route brings: its scripts (modulepreload) and style sheets, as URL paths. */
export interface RouteChunks {
  scripts: string[];
  styles: string[];
}

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** A hashed bundle's name as Vite writes it: `name-[hash].ext`, the hash 8 URL-safe base64 characters. */
const HASHED = /^\/assets\/.+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/**
 * Reads the build once, at start: index.html (its `<title>` is where each page's head goes) and the list of
 * files with their precompressed copies, so that serving a file never looks at the disk to choose one. A build
 * replaced while the server runs is seen at the next start (`npm start` restarts after building).
 */
export function loadWebBuild(root: string | null | undefined): WebBuild | null {
  if (!root || !existsSync(path.join(root, 'index.html'))) return null;
  const files = listFiles(root);
  const present = new Set(files);
  const assets = new Map<string, BuiltAsset>();
  for (const file of files) {
    if (ENCODINGS.some((e) => file.endsWith(e.extension)) || file === path.join(root, 'index.html')) continue;
    const url = `/${path.relative(root, file).split(path.sep).join('/')}`;
    const encoded: BuiltAsset['encoded'] = {};
    for (const { coding, extension } of ENCODINGS) if (present.has(file + extension)) encoded[coding] = file + extension;
    assets.set(url, { file, extension: path.extname(file), encoded, immutable: HASHED.test(url) });
  }
  const indexHtml = readFileSync(path.join(root, 'index.html'), 'utf8');
  const manifestFile = path.join(root, '.vite', 'manifest.json');
  const manifest: Record<string, ManifestEntry> = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestEntry>) : {};
  const chunks = manifestChunks(manifest);
  return { indexHtml, assets, chunks, early: earlyEntry(indexHtml, manifest, chunks, assets) };
}

function earlyEntry(
  indexHtml: string,
  manifest: Record<string, ManifestEntry>,
  chunks: WebBuild['chunks'],
  assets: Map<string, BuiltAsset>,
): EarlyEntry | null {
  const entry = manifest['index.html']?.file;
  const early = manifest[EARLY_SOURCE]?.file;
  if (!entry || !early) return null;
  const entryTag = new RegExp(`<script type="module" crossorigin src="/${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"></script>\\s*`).exec(indexHtml)?.[0];
  if (!entryTag) return null;
  const own = (sources: string[]) => chunks(sources, { withEntry: true }).scripts.filter((script) => script !== `/${early}`);
  const shell = indexHtml.replace(entryTag, '').replace(/<link rel="modulepreload" crossorigin href="[^"]+">\s*/g, '');
  const styled = inlineStyleSheets(shell, assets);
  return {
    indexHtml: styled.html,
    script: `/${early}`,
    imports: { stream: own([HLS_SOURCE, EARLY_SOURCE]), still: own([EARLY_SOURCE]) },
    styleHashes: styled.hashes,
  };
}

/**
 * The shell's style sheets (the app's own, `<link rel="stylesheet">` as Vite writes it) written into it as
 * `<style>` elements, with their CSP hashes, each link kept beside its copy but disabled. A sheet stays a link
 * when it is larger than INLINE_STYLE_MAX_BYTES, could end its element early (`</style`), or names a relative URL
 * (it would resolve against the page, not /assets/).
 */
function inlineStyleSheets(shell: string, assets: Map<string, BuiltAsset>): { html: string; hashes: string[] } {
  const hashes: string[] = [];
  const html = shell.replace(/<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g, (link, href: string) => {
    const asset = assets.get(href);
    if (!asset) return link;
    const css = readFileSync(asset.file, 'utf8').trim();
    const relativeUrl = /url\(\s*['"]?(?!data:|\/|#)/i.test(css);
    if (Buffer.byteLength(css) > INLINE_STYLE_MAX_BYTES || /<\/style/i.test(css) || relativeUrl) return link;
    hashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    // The link stays, disabled: a disabled sheet is not fetched, and Vite's loader, which the early script's
    // import of the app goes through, looks for the app's sheet among the page's links; finding none, it would
    // fetch the sheet again and hold the app until it came.
    return `<style>${css}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`;
  });
  return { html, hashes };
}

/**
 * Modules' chunks from Vite's manifest, their static imports followed, less what the entry (index.html) loads
 * already; nothing for a build without a manifest or a module it does not name. A module is named by its path
 * from the web client's folder, or by the end of it (`hls.js/dist/hls.light.mjs`, wherever npm put it).
 */
function manifestChunks(manifest: Record<string, ManifestEntry>): WebBuild['chunks'] {
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, seen);
    return seen;
  };
  const entry = closure('index.html');
  const keyOf = (source: string) => (manifest[source] ? source : Object.keys(manifest).find((key) => key.endsWith(`/${source}`)));
  const kept = new Map<string, RouteChunks>();
  return (sources, { withEntry = false } = {}) => {
    const name = `${withEntry} ${sources.join(' ')}`;
    let chunks = kept.get(name);
    if (!chunks) {
      const seen = new Set<string>();
      for (const source of sources) {
        const key = keyOf(source);
        if (key) closure(key, seen);
      }
      const own = withEntry ? [...seen] : [...seen].filter((key) => !entry.has(key));
      chunks = {
        scripts: own.map((key) => `/${manifest[key].file}`),
        styles: [...new Set(own.flatMap((key) => manifest[key].css ?? []))].map((css) => `/${css}`),
      };
      kept.set(name, chunks);
    }
    return chunks;
  };
}

/**
 * What the web client's render module (frontend/src/entry-server.tsx) exports: every page's document, written
 * from its route table (docs/web-client.md › "One author per page").
 */
export interface PageRenderer {
  renderDocument(request: DocumentRequest): Promise<RenderedDocument>;
  /** Whether the page at this address is drawn on the server, not only its head (its route says so). */
  drawnOnServer(url: string): boolean;
}

export interface RenderedDocument {
  html: string;
  /** Its body was drawn (else the browser draws it). */
  drawn: boolean;
  /** Its head read what it needed (false while the catalogue is down): a page that may be kept. */
  complete: boolean;
}

/** What the render is handed: the page, the visitor, the site, the build, and what only the media store knows. */
export interface DocumentRequest {
  /** The page's canonical address (canonicalPage). */
  url: string;
  origin: string;
  /** Where the page's reads go: this process. */
  api: string;
  headers: Record<string, string>;
  site: unknown;
  /** The member, null for a guest, undefined when the database could not say. */
  user: unknown;
  ageConfirmed: boolean;
  /**
   * A guest's hidden topics (their `hidden_topics` cookie) as `exclude`'s canonical value, for the page's reads
   * to leave out; '' for none and for members (the API applies theirs).
   */
  hidden: string;
  /** Draw the body where the route is drawn on the server; false for the head alone. */
  body: boolean;
  build: { indexHtml: string; chunks: (sources: string[]) => RouteChunks; early: EarlyEntry | null };
  media: {
    imageSize: (pathOrUrl: string | null) => Promise<{ width: number; height: number } | null>;
    streamStarts: (streams: string[]) => Promise<string[]>;
  };
}

/**
 * The render module built beside the web client (`frontend/dist-server/entry-server.js`, docs/web-client.md ›
 * "Server rendering"); null without one (the pages are then index.html as built, drawn by the browser).
 */
export async function loadPageRenderer(root: string | null | undefined): Promise<PageRenderer | null> {
  if (!root) return null;
  const file = path.join(root, '..', 'dist-server', 'entry-server.js');
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return entry.isFile() ? [full] : [];
  });
}
