import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Listing filters (issue #34, docs/catalogue-queries.md › "Filters"): `quality` reads the height of a video's
 * tallest rendition, which the ingest knows when it publishes (its ladder's top rung) and a seeded or imported
 * video states. Videos ingested before this take the ladder's rule from the source height they stored (the
 * rungs are 240, 360, 480, 720 and 1080 lines; a source under 240 lines has one rendition at its own height);
 * others keep their stated height. The duration and upload filters read columns the sorts already index.
 */
export class ListingFilters1850000000000 implements MigrationInterface {
  name = 'ListingFilters1850000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE videos ADD COLUMN rendition_height integer NULL CHECK (rendition_height > 0)');
    await q.query(`
      UPDATE videos SET rendition_height = CASE
        WHEN NOT media_ready THEN height
        WHEN height >= 1080 THEN 1080 WHEN height >= 720 THEN 720 WHEN height >= 480 THEN 480
        WHEN height >= 360 THEN 360 WHEN height >= 240 THEN 240 ELSE height END
      WHERE height > 0`);
    // Tall renditions are few: "4k" and "hd" listings find them here rather than walking a sort's whole index.
    await q.query(`CREATE INDEX videos_rendition_height_idx ON videos (rendition_height) WHERE status = 'ready'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX videos_rendition_height_idx');
    await q.query('ALTER TABLE videos DROP COLUMN rendition_height');
  }
}
