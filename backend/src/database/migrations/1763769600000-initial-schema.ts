import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema, written once so that later features add no churn. The constraints carry the rules:
 * duplicates raise PostgreSQL's 23505 (playlist items, bookmarks, titles, slugs, emails) and deletes cascade.
 */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email varchar(254) NOT NULL,
        password_hash text NOT NULL,
        display_name varchar(40) NOT NULL,
        role_id varchar(16) NULL CHECK (role_id IN ('member', 'admin')),
        history_paused boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);

    await q.query(`
      CREATE TABLE videos (
        id serial PRIMARY KEY,
        slug varchar(200) NOT NULL,
        url varchar(500) NOT NULL,
        title varchar(300) NOT NULL,
        atg_title varchar(300) NOT NULL DEFAULT '',
        jtg_title varchar(300) NOT NULL DEFAULT '',
        thumbnail varchar(500) NOT NULL DEFAULT '',
        views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
        likes integer NOT NULL DEFAULT 0 CHECK (likes >= 0),
        featured integer NOT NULL DEFAULT 0 CHECK (featured >= 0),
        duration integer NULL CHECK (duration > 0 AND duration <= 86400),
        upload_date timestamptz NOT NULL DEFAULT now(),
        cdn smallint NOT NULL DEFAULT 1,
        status varchar(16) NOT NULL DEFAULT 'ready' CHECK (status IN ('processing', 'ready', 'failed')),
        media_ready boolean NOT NULL DEFAULT false,
        trending_score double precision NOT NULL DEFAULT 0,
        width integer NULL,
        height integer NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- The media stem (design.md): url without scheme and host, query, leading slashes and extension.
        -- Keep in step with stemOf() in media/media-paths.ts (a test compares them).
        stem varchar(500) GENERATED ALWAYS AS (
          regexp_replace(
            regexp_replace(regexp_replace(regexp_replace(url, '^[hH][tT][tT][pP][sS]?://[^/]*', ''), '[?#].*$', ''), '^/+', ''),
            '([^/])\\.[^./]*$', '\\1')
        ) STORED,
        search_vector tsvector GENERATED ALWAYS AS (
          to_tsvector('english', title || ' ' || atg_title || ' ' || jtg_title)
        ) STORED,
        CONSTRAINT videos_slug_key UNIQUE (slug),
        -- Two videos with one stem would share their media folders.
        CONSTRAINT videos_stem_key UNIQUE (stem)
      )`);
    // One index per listing sort of the contract; id DESC breaks ties everywhere.
    await q.query(`CREATE INDEX videos_newest_idx ON videos (upload_date DESC, id DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX videos_most_viewed_idx ON videos (views DESC, id DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX videos_top_rated_idx ON videos (likes DESC, views DESC, id DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX videos_trending_idx ON videos (trending_score DESC, id DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX videos_longest_idx ON videos (duration DESC NULLS LAST, id DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX videos_featured_idx ON videos (upload_date DESC, id DESC) WHERE status = 'ready' AND featured > 0`);
    await q.query(`CREATE INDEX videos_search_idx ON videos USING GIN (search_vector)`);

    await q.query(`
      CREATE TABLE categories (
        id varchar(100) PRIMARY KEY CHECK (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE performers (
        id varchar(100) PRIMARY KEY CHECK (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE video_categories (
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        category_id varchar(100) NOT NULL REFERENCES categories (id) ON DELETE CASCADE ON UPDATE CASCADE,
        PRIMARY KEY (video_id, category_id)
      )`);
    await q.query(`CREATE INDEX video_categories_category_idx ON video_categories (category_id, video_id)`);
    await q.query(`
      CREATE TABLE video_performers (
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        performer_id varchar(100) NOT NULL REFERENCES performers (id) ON DELETE CASCADE ON UPDATE CASCADE,
        PRIMARY KEY (video_id, performer_id)
      )`);
    await q.query(`CREATE INDEX video_performers_performer_idx ON video_performers (performer_id, video_id)`);

    for (const table of ['bookmarks', 'watch_later_items', 'likes']) {
      await q.query(`
        CREATE TABLE ${table} (
          user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, video_id)
        )`);
      await q.query(`CREATE INDEX ${table}_user_recent_idx ON ${table} (user_id, created_at DESC, video_id DESC)`);
      await q.query(`CREATE INDEX ${table}_video_idx ON ${table} (video_id)`);
    }

    await q.query(`
      CREATE TABLE history_entries (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        watched_at timestamptz NOT NULL DEFAULT now(),
        position_seconds integer NULL CHECK (position_seconds >= 0),
        PRIMARY KEY (user_id, video_id)
      )`);
    await q.query(`CREATE INDEX history_entries_user_recent_idx ON history_entries (user_id, watched_at DESC, video_id DESC)`);
    await q.query(`CREATE INDEX history_entries_video_idx ON history_entries (video_id)`);

    await q.query(`
      CREATE TABLE playlists (
        id serial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title varchar(40) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX playlists_user_title_key ON playlists (user_id, lower(title))`);
    await q.query(`
      CREATE TABLE playlist_items (
        playlist_id integer NOT NULL REFERENCES playlists (id) ON DELETE CASCADE,
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        position integer NOT NULL,
        added_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT playlist_items_pkey PRIMARY KEY (playlist_id, video_id)
      )`);
    await q.query(`CREATE INDEX playlist_items_order_idx ON playlist_items (playlist_id, position)`);
    await q.query(`CREATE INDEX playlist_items_video_idx ON playlist_items (video_id)`);

    await q.query(`
      CREATE TABLE video_daily_stats (
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        day date NOT NULL,
        views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
        likes integer NOT NULL DEFAULT 0 CHECK (likes >= 0),
        PRIMARY KEY (video_id, day)
      )`);
    await q.query(`CREATE INDEX video_daily_stats_day_idx ON video_daily_stats (day, video_id) INCLUDE (views)`);

    await q.query(`
      CREATE TABLE ingest_jobs (
        id serial PRIMARY KEY,
        video_id integer NULL REFERENCES videos (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        state varchar(16) NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
        progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        error text NULL,
        attempts integer NOT NULL DEFAULT 0,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        locked_by varchar(100) NULL,
        locked_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz NULL,
        finished_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX ingest_jobs_recent_idx ON ingest_jobs (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX ingest_jobs_pending_idx ON ingest_jobs (state, created_at) WHERE state IN ('queued', 'running')`);
    await q.query(`CREATE INDEX ingest_jobs_video_idx ON ingest_jobs (video_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'ingest_jobs', 'video_daily_stats', 'playlist_items', 'playlists', 'history_entries', 'likes',
      'watch_later_items', 'bookmarks', 'video_performers', 'video_categories', 'performers', 'categories',
      'videos', 'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
