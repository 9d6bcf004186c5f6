import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The boundaries docs/architecture.md draws, checked on the source: each table is written and read in SQL only
 * by the module that owns it, "published" is defined once, only the storage service touches the file system of
 * the media store and only the ffmpeg runner spawns processes. Tooling that builds or saves whole databases
 * (migrations, seeds, backups: tar, pg_dump) is outside the rule; the benchmarks live outside backend/src (backend/bench).
 */
const SRC = __dirname;

/** Table → the folder of backend/src that owns it. */
const OWNERS: Record<string, string> = {
  users: 'auth',
  sessions: 'auth',
  videos: 'videos',
  video_categories: 'videos',
  video_performers: 'videos',
  video_daily_stats: 'videos',
  site_daily_stats: 'videos',
  site_rankings: 'videos',
  categories: 'taxonomy',
  performers: 'taxonomy',
  bookmarks: 'lists',
  watch_later_items: 'lists',
  likes: 'lists',
  history_entries: 'lists',
  performer_follows: 'lists',
  playlists: 'playlists',
  playlist_items: 'playlists',
  ingest_jobs: 'jobs',
  scheduled_tasks: 'jobs',
  removal_requests: 'removal-requests',
};

/** Folders that build whole databases: every table is theirs by design. */
const TOOLING = new Set(['database']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file),
  folder: path.relative(SRC, file).split(path.sep)[0],
  text: readFileSync(file, 'utf8'),
}));

const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_]+)\b/g;

describe('architecture', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.file === path.join('videos', 'videos.repository.ts'))).toBe(true);
  });

  it('has SQL on each table only in the module that owns it', () => {
    const trespasses = files
      .filter((f) => !TOOLING.has(f.folder))
      .flatMap((f) =>
        [...f.text.matchAll(SQL_TABLE)]
          .map((m) => m[1])
          .filter((table) => OWNERS[table] !== undefined && OWNERS[table] !== f.folder)
          .map((table) => `${f.file}: ${table} (owned by ${OWNERS[table]})`),
      );
    expect(trespasses).toEqual([]);
  });

  it('catches a trespass (the check itself works)', () => {
    const text = "await db.query(`SELECT id FROM videos WHERE status = 'ready'`)";
    expect([...text.matchAll(SQL_TABLE)].map((m) => m[1])).toEqual(['videos']);
  });

  it('defines "published" once', () => {
    const places = files
      .filter((f) => !TOOLING.has(f.folder) && /status\s*=\s*'ready'/.test(f.text))
      .map((f) => f.file);
    expect(places).toEqual([path.join('videos', 'videos.repository.ts')]);
  });

  it('touches the file system of the media store only in the storage service', () => {
    // Not media files: the embedded database's folder, the built web client's, the exported OpenAPI file, the
    // install's secrets file and DATA_DIR's modes, the web client's build (read once at start).
    const allowed = new Set([
      path.join('config', 'install-secrets.ts'),
      path.join('config', 'data-dir.ts'),
      path.join('media', 'storage.service.ts'),
      path.join('database', 'pglite-pool.ts'),
      'app.module.ts',
      path.join('openapi', 'export-openapi.ts'),
      path.join('web', 'web-build.ts'),
    ]);
    const users = files
      .filter((f) => !TOOLING.has(f.folder) && /from 'node:fs(?:\/promises)?'/.test(f.text) && !allowed.has(f.file))
      .map((f) => f.file);
    expect(users).toEqual([]);
  });

  it('spawns processes only in the ffmpeg runner', () => {
    const spawners = files
      .filter((f) => !TOOLING.has(f.folder) && /from 'node:child_process'/.test(f.text))
      .map((f) => f.file);
    expect(spawners).toEqual([path.join('media', 'ffmpeg.runner.ts')]);
  });
});
