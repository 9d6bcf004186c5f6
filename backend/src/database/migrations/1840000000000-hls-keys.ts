import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Encrypted HLS (issue #32, point 4): each video's AES-128 keys, wrapped under a key derived from the install's
 * secret (never in the media store), found by the folder and the key id the playlist names. A re-key retires the
 * old key (`retired_at`, when): it is answered until the links given before have expired, then the re-key's
 * `hls-sweep` job removes it with its segments.
 * Expand only: a new table older processes never read.
 */
export class HlsKeys1840000000000 implements MigrationInterface {
  name = 'HlsKeys1840000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE hls_keys (
        stem text NOT NULL,
        key_id text NOT NULL CHECK (key_id ~ '^[0-9a-f]{16}$'),
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        wrapped bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz NULL,
        PRIMARY KEY (stem, key_id)
      )`);
    await q.query('CREATE INDEX hls_keys_video ON hls_keys (video_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE hls_keys');
  }
}
