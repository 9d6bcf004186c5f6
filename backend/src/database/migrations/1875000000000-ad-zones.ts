import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ad zones (issue #35, docs/ads.md): what an admin places where, the figures per zone and day, and the members'
 * impressions that their frequency caps count (kept only as long as the longest cap, 720 hours).
 */
export class AdZones1875000000000 implements MigrationInterface {
  name = 'AdZones1875000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ad_zones (
        id serial PRIMARY KEY,
        name varchar(80) NOT NULL,
        placement varchar(16) NOT NULL
          CHECK (placement IN ('preroll', 'postroll', 'pause', 'banner-listing', 'banner-watch', 'banner-footer')),
        kind varchar(8) NOT NULL CHECK (kind IN ('vast', 'html')),
        vast_url varchar(2048),
        html text,
        hosts text[] NOT NULL DEFAULT '{}',
        brands text[] NOT NULL,
        members boolean NOT NULL DEFAULT false,
        embeds boolean NOT NULL DEFAULT false,
        skip_after int,
        cap_count int,
        cap_hours int,
        weight int NOT NULL DEFAULT 1,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'vast') = (vast_url IS NOT NULL) AND (kind = 'html') = (html IS NOT NULL)),
        CHECK ((cap_count IS NULL) = (cap_hours IS NULL))
      )`);
    await q.query(`
      CREATE TABLE ad_zone_daily_stats (
        zone_id int NOT NULL REFERENCES ad_zones (id) ON DELETE CASCADE,
        day date NOT NULL,
        requests int NOT NULL DEFAULT 0,
        fills int NOT NULL DEFAULT 0,
        impressions int NOT NULL DEFAULT 0,
        completes int NOT NULL DEFAULT 0,
        skips int NOT NULL DEFAULT 0,
        clicks int NOT NULL DEFAULT 0,
        errors int NOT NULL DEFAULT 0,
        PRIMARY KEY (zone_id, day)
      )`);
    await q.query(`
      CREATE TABLE ad_member_impressions (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        zone_id int NOT NULL REFERENCES ad_zones (id) ON DELETE CASCADE,
        shown_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX ad_member_impressions_user ON ad_member_impressions (user_id, zone_id, shown_at)');
    await q.query('CREATE INDEX ad_member_impressions_shown ON ad_member_impressions (shown_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ad_member_impressions');
    await q.query('DROP TABLE ad_zone_daily_stats');
    await q.query('DROP TABLE ad_zones');
  }
}
