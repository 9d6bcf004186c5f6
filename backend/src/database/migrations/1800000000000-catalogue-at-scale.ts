import { MigrationInterface, QueryRunner } from 'typeorm';

/** A join table of videos and one kind of taxon, whose rows carry their video's sort keys (see below). */
export interface CatalogueJoin {
  table: string;
  key: string;
  /** Its scope in catalogue_counts. */
  scope: string;
  /** The prefix of its indexes' names. */
  short: string;
  /** The taxon table its key references. */
  taxa: string;
}

const JOINS: CatalogueJoin[] = [
  { table: 'video_categories', key: 'category_id', scope: 'category', short: 'vc', taxa: 'categories' },
  { table: 'video_performers', key: 'performer_id', scope: 'performer', short: 'vp', taxa: 'performers' },
];

/** The listing sorts' keys, as in SqlCatalogueReader's ORDER BY, with the join table's `video_id` for the id. */
const SORT_KEYS = {
  newest: 'upload_date DESC, video_id DESC',
  most_viewed: 'views DESC, video_id DESC',
  top_rated: 'likes DESC, views DESC, video_id DESC',
  trending: 'trending_score DESC, video_id DESC',
  longest: 'duration DESC NULLS LAST, video_id DESC',
} as const;

/** The video columns copied into the join tables: the listing sorts' keys and whether the video is published. */
const COPIED = ['upload_date', 'views', 'likes', 'duration', 'trending_score'] as const;

/** Gives a join table its copies of the video's sort keys, one partial index per sort, and the trigger filling a new row's copies. */
export async function addSortCopies(q: QueryRunner, { table, key, short }: CatalogueJoin): Promise<void> {
  await q.query(`
    ALTER TABLE ${table}
      ADD COLUMN ready boolean NOT NULL DEFAULT false,
      ADD COLUMN upload_date timestamptz NULL,
      ADD COLUMN views integer NULL,
      ADD COLUMN likes integer NULL,
      ADD COLUMN duration integer NULL,
      ADD COLUMN trending_score double precision NULL`);
  await q.query(`
    UPDATE ${table} t SET ready = v.status = 'ready', ${COPIED.map((c) => `${c} = v.${c}`).join(', ')}
    FROM videos v WHERE v.id = t.video_id`);
  for (const [sort, order] of Object.entries(SORT_KEYS)) {
    await q.query(`CREATE INDEX ${short}_${sort}_idx ON ${table} (${key}, ${order}) WHERE ready`);
  }
  // Fills the copies of a new join row from its video (the video is written before its taxa).
  await q.query(`
    CREATE FUNCTION ${table}_copy_video() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT v.status = 'ready', ${COPIED.map((c) => `v.${c}`).join(', ')}
        INTO NEW.ready, ${COPIED.map((c) => `NEW.${c}`).join(', ')}
        FROM videos v WHERE v.id = NEW.video_id;
      RETURN NEW;
    END $$`);
  await q.query(`
    CREATE TRIGGER ${table}_copy_video BEFORE INSERT OR UPDATE OF video_id ON ${table}
    FOR EACH ROW EXECUTE FUNCTION ${table}_copy_video()`);
}

/** Keeps a join table's taxa's rows of catalogue_counts: its inserts, deletes and moves, and its taxa's renames. */
export async function addJoinCounts(q: QueryRunner, { table, key, scope, taxa }: CatalogueJoin): Promise<void> {
  // A join row counts while its video is published. Inserts and deletes (also by cascade) are counted here;
  // a video's publishing or withdrawal by the videos trigger below, so that the join rows' updates (every
  // counter flush) carry no trigger of their own.
  await q.query(`
    CREATE FUNCTION ${table}_count() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE deltas jsonb;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        SELECT jsonb_agg(jsonb_build_object('scope', '${scope}', 'key', k, 'delta', n)) INTO deltas
        FROM (SELECT ${key} AS k, count(*) AS n FROM new_rows WHERE ready GROUP BY ${key}) g;
      ELSE
        SELECT jsonb_agg(jsonb_build_object('scope', '${scope}', 'key', k, 'delta', -n)) INTO deltas
        FROM (SELECT ${key} AS k, count(*) AS n FROM old_rows WHERE ready GROUP BY ${key}) g;
      END IF;
      IF deltas IS NOT NULL THEN PERFORM catalogue_counts_add(deltas); END IF;
      RETURN NULL;
    END $$`);
  await q.query(`CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count()`);
  await q.query(`CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count()`);
  // A join row moved to another video or taxon (no code does). A taxon rename cascades here too, but then the
  // old taxon is gone and the rename trigger below has moved its counts row already.
  await q.query(`
    CREATE FUNCTION ${table}_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.video_id <> NEW.video_id OR EXISTS (SELECT 1 FROM ${taxa} WHERE id = OLD.${key}) THEN
        PERFORM catalogue_counts_add(jsonb_build_array(
          jsonb_build_object('scope', '${scope}', 'key', OLD.${key}, 'delta', CASE WHEN OLD.ready THEN -1 ELSE 0 END),
          jsonb_build_object('scope', '${scope}', 'key', NEW.${key}, 'delta', CASE WHEN NEW.ready THEN 1 ELSE 0 END)));
      END IF;
      RETURN NULL;
    END $$`);
  await q.query(`CREATE TRIGGER ${table}_count_move AFTER UPDATE OF video_id, ${key} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_count_move()`);
  await q.query(`
    CREATE FUNCTION ${taxa}_count_rename() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH moved AS (DELETE FROM catalogue_counts WHERE scope = '${scope}' AND key = OLD.id RETURNING videos)
      INSERT INTO catalogue_counts AS c (scope, key, videos) SELECT '${scope}', NEW.id, videos FROM moved
      ON CONFLICT (scope, key) DO UPDATE SET videos = c.videos + EXCLUDED.videos;
      RETURN NULL;
    END $$`);
  await q.query(`CREATE TRIGGER ${taxa}_count_rename AFTER UPDATE OF id ON ${taxa} FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ${taxa}_count_rename()`);
}

/**
 * (Re)defines videos_catalogue_sync, the videos' statement trigger: the published and featured counts, and for
 * each join table the copies of its videos' keys and its taxa's counts when a video is published or withdrawn.
 */
export async function defineCatalogueSync(q: QueryRunner, joins: readonly CatalogueJoin[]): Promise<void> {
  const copyTo = (table: string) => `
          UPDATE ${table} t SET ready = v.status = 'ready', ${COPIED.map((c) => `${c} = v.${c}`).join(', ')}
          FROM unnest(changed) AS c(id) JOIN videos v ON v.id = c.id WHERE t.video_id = c.id`;
  await q.query(`
    CREATE OR REPLACE FUNCTION videos_catalogue_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE deltas jsonb; changed int[]; flipped int[];
    BEGIN
      IF TG_OP = 'INSERT' THEN
        SELECT jsonb_build_array(jsonb_build_object('scope', 'all', 'key', '', 'delta', count(*)),
                                 jsonb_build_object('scope', 'featured', 'key', '', 'delta', count(*) FILTER (WHERE featured > 0)))
          INTO deltas FROM new_rows WHERE status = 'ready';
      ELSIF TG_OP = 'DELETE' THEN
        SELECT jsonb_build_array(jsonb_build_object('scope', 'all', 'key', '', 'delta', -count(*)),
                                 jsonb_build_object('scope', 'featured', 'key', '', 'delta', -count(*) FILTER (WHERE featured > 0)))
          INTO deltas FROM old_rows WHERE status = 'ready';
      ELSE
        SELECT array_agg(n.id) FILTER (WHERE (n.status, ${COPIED.map((c) => `n.${c}`).join(', ')}) IS DISTINCT FROM (o.status, ${COPIED.map((c) => `o.${c}`).join(', ')})),
               array_agg(n.id) FILTER (WHERE (n.status = 'ready') <> (o.status = 'ready'))
          INTO changed, flipped
          FROM new_rows n JOIN old_rows o ON o.id = n.id;
        IF changed IS NOT NULL THEN
          ${joins.map((join) => `${copyTo(join.table)};`).join('\n          ')}
        END IF;
        SELECT jsonb_agg(jsonb_build_object('scope', s, 'key', k, 'delta', d)) INTO deltas FROM (
          SELECT s, k, sum(d) AS d FROM (
            SELECT 'all' AS s, '' AS k, -1 AS d FROM old_rows WHERE status = 'ready'
            UNION ALL SELECT 'featured', '', -1 FROM old_rows WHERE status = 'ready' AND featured > 0
            UNION ALL SELECT 'all', '', 1 FROM new_rows WHERE status = 'ready'
            UNION ALL SELECT 'featured', '', 1 FROM new_rows WHERE status = 'ready' AND featured > 0
            ${joins.map(({ table, key, scope }) => `UNION ALL SELECT '${scope}', t.${key}, CASE WHEN t.ready THEN 1 ELSE -1 END
              FROM unnest(flipped) AS f(id) JOIN ${table} t ON t.video_id = f.id`).join('\n            ')}
          ) a GROUP BY s, k HAVING sum(d) <> 0
        ) n;
      END IF;
      IF deltas IS NOT NULL THEN PERFORM catalogue_counts_add(deltas); END IF;
      RETURN NULL;
    END $$`);
}

/** Undoes addSortCopies and addJoinCounts for a join table. */
export async function dropJoinCatalogue(q: QueryRunner, { table, short, taxa }: CatalogueJoin): Promise<void> {
  for (const op of ['insert', 'delete', 'move']) await q.query(`DROP TRIGGER IF EXISTS ${table}_count_${op} ON ${table}`);
  await q.query(`DROP FUNCTION IF EXISTS ${table}_count()`);
  await q.query(`DROP FUNCTION IF EXISTS ${table}_count_move()`);
  await q.query(`DROP TRIGGER IF EXISTS ${taxa}_count_rename ON ${taxa}`);
  await q.query(`DROP FUNCTION IF EXISTS ${taxa}_count_rename()`);
  await q.query(`DROP TRIGGER IF EXISTS ${table}_copy_video ON ${table}`);
  await q.query(`DROP FUNCTION IF EXISTS ${table}_copy_video()`);
  for (const sort of Object.keys(SORT_KEYS)) await q.query(`DROP INDEX IF EXISTS ${short}_${sort}_idx`);
  await q.query(`ALTER TABLE ${table} DROP COLUMN ready, ${COPIED.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
}

/**
 * Catalogue reads at scale (docs/catalogue-queries.md has the plans behind each piece):
 *
 * 1. The join tables carry a copy of their video's sort keys and `ready` (published), with one partial index per
 *    sort, so a category's or performer's page is an index-only range scan instead of a join of every video of
 *    the category sorted in memory. Triggers keep the copies exact: a row-level BEFORE INSERT on the join tables
 *    fills them, a statement-level AFTER UPDATE on videos copies what changed (one set-based UPDATE per joined
 *    table per statement, whatever the statement's size, so the counter flush and the trending recompute pay
 *    one extra statement each, plus the join rows of the videos whose keys changed).
 * 2. `catalogue_counts` holds the published videos in all, featured, per category and per performer, so a
 *    listing's total is one primary-key read instead of a count over up to the whole catalogue. Statement-level
 *    triggers with transition tables keep it exact inside the writing transaction; a statement that changes no
 *    count (the views flush) writes nothing there.
 * 3. The full-text GIN index covers published videos only, which is all that search reads.
 */
export class CatalogueAtScale1800000000000 implements MigrationInterface {
  name = 'CatalogueAtScale1800000000000';

  async up(q: QueryRunner): Promise<void> {
    for (const join of JOINS) await addSortCopies(q, join);

    await q.query(`
      CREATE TABLE catalogue_counts (
        scope varchar(16) NOT NULL CHECK (scope IN ('all', 'featured', 'category', 'performer')),
        key varchar(100) NOT NULL DEFAULT '',
        videos integer NOT NULL,
        PRIMARY KEY (scope, key)
      )`);
    await q.query(`
      INSERT INTO catalogue_counts (scope, key, videos)
      SELECT 'all', '', count(*) FROM videos WHERE status = 'ready'
      UNION ALL SELECT 'featured', '', count(*) FROM videos WHERE status = 'ready' AND featured > 0
      UNION ALL SELECT 'category', category_id, count(*) FROM video_categories WHERE ready GROUP BY category_id
      UNION ALL SELECT 'performer', performer_id, count(*) FROM video_performers WHERE ready GROUP BY performer_id`);
    // Adds signed deltas (scope, key, delta) to the counts; keys in order so that concurrent writers lock
    // the rows in the same order (no deadlock between two publishing transactions).
    await q.query(`
      CREATE FUNCTION catalogue_counts_add(deltas jsonb) RETURNS void LANGUAGE sql AS $$
        INSERT INTO catalogue_counts AS c (scope, key, videos)
        SELECT d.scope, d.key, sum(d.delta)::int
        FROM jsonb_to_recordset(deltas) AS d(scope varchar, key varchar, delta int)
        GROUP BY d.scope, d.key HAVING sum(d.delta) <> 0
        ORDER BY d.scope, d.key
        ON CONFLICT (scope, key) DO UPDATE SET videos = c.videos + EXCLUDED.videos
      $$`);

    for (const join of JOINS) await addJoinCounts(q, join);

    // Videos: published and featured counts, and the copies in the join tables.
    await defineCatalogueSync(q, JOINS);
    await q.query(`CREATE TRIGGER videos_catalogue_insert AFTER INSERT ON videos REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION videos_catalogue_sync()`);
    await q.query(`CREATE TRIGGER videos_catalogue_delete AFTER DELETE ON videos REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION videos_catalogue_sync()`);
    await q.query(`CREATE TRIGGER videos_catalogue_update AFTER UPDATE ON videos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION videos_catalogue_sync()`);
    // Search only ever reads published videos: a partial GIN lets a dense word's count and page use a bitmap
    // of the published matches (the planner took a sequential scan of the whole table for them before).
    await q.query('DROP INDEX IF EXISTS videos_search_idx');
    await q.query(`CREATE INDEX videos_search_ready_idx ON videos USING GIN (search_vector) WHERE status = 'ready'`);
    await q.query('ANALYZE videos, video_categories, video_performers, catalogue_counts');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS videos_search_ready_idx');
    await q.query('CREATE INDEX IF NOT EXISTS videos_search_idx ON videos USING GIN (search_vector)');
    for (const op of ['insert', 'delete', 'update']) await q.query(`DROP TRIGGER IF EXISTS videos_catalogue_${op} ON videos`);
    await q.query('DROP FUNCTION IF EXISTS videos_catalogue_sync()');
    for (const join of JOINS) await dropJoinCatalogue(q, join);
    await q.query('DROP FUNCTION IF EXISTS catalogue_counts_add(jsonb)');
    await q.query('DROP TABLE IF EXISTS catalogue_counts');
  }
}
