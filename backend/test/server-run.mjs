// Which test files run a second time on the PostgreSQL server (`npm test` with TEST_DATABASE_URL; docs/testing.md ›
// "Two databases"). PGlite is PostgreSQL itself (the same parser, planner and types, compiled to WebAssembly), so a
// file whose SQL runs one statement at a time answers the same on both; it runs on PGlite only. A file runs on the
// server too when the server can show what PGlite cannot:
export const SERVER_RUN = {
  // Every repository and service spec (test/*.int-spec.ts; a path filter, as Vitest's command line takes it): the
  // SQL itself, on the real database, without an app.
  specs: '.int-spec.ts',
  files: {
    // Files that behave differently on the server: a database of their own, a second process, a TCP proxy.
    'test/ads.e2e-spec.ts': 'the ad zones through a Redis and a database outage, both behind TCP proxies',
    'test/backup.e2e-spec.ts': 'pg_dump and pg_restore against a server database',
    'test/catalogue-cache.e2e-spec.ts': 'two API processes on one database and one Redis',
    'test/freshness.e2e-spec.ts': 'every write seen by a second process on the same database and Redis',
    'test/hot-answers.e2e-spec.ts': 'two API processes on one database and one Redis',
    'test/media-context.e2e-spec.ts': 'the media tools on a server database',
    'test/outage.e2e-spec.ts': 'the database cut and restored through a TCP proxy',
    'test/process.e2e-spec.ts': 'the built server and worker as processes, killed and resumed',
    'test/search-index.e2e-spec.ts': 'two API processes keep one index each on one database and one Redis',
    // Files whose writes race: PGlite runs one statement at a time, the server runs them at once (row locks,
    // unique constraints, SKIP LOCKED).
    'test/counters.e2e-spec.ts': 'likes and unlikes at once stay exact',
    'test/direct-counting.e2e-spec.ts': 'views counted at once, straight to the database',
    'test/jobs.e2e-spec.ts': 'claims made at once: exactly one granted',
    'test/playlists.e2e-spec.ts': 'concurrent adds get distinct positions',
    'test/removal-requests.e2e-spec.ts': 'copies sent at the same moment merge into one request',
  },
  // Files that run on the server only: what they test is made of server processes.
  only: {
    'test/stack.e2e-spec.ts': 'npm run stack: API processes, workers, nginx, Redis and the Ceph RGW on the PostgreSQL server',
  },
};

/** Files that must be listed above: they ask which database they run on, or open server databases themselves. */
export const SERVER_MARKERS = /\bonPostgresServer\(|\bcreateServerDatabase\(|process\.env\.TEST_DATABASE_URL|process\.env\.TEST_DB\b/;
