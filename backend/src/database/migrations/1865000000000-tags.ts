import { MigrationInterface, QueryRunner } from 'typeorm';
import { addJoinCounts, addSortCopies, type CatalogueJoin, defineCatalogueSync, dropJoinCatalogue } from './1800000000000-catalogue-at-scale';

const CATEGORIES: CatalogueJoin = { table: 'video_categories', key: 'category_id', scope: 'category', short: 'vc', taxa: 'categories' };
const PERFORMERS: CatalogueJoin = { table: 'video_performers', key: 'performer_id', scope: 'performer', short: 'vp', taxa: 'performers' };
const TAGS: CatalogueJoin = { table: 'video_tags', key: 'tag_id', scope: 'tag', short: 'vt', taxa: 'tags' };

/**
 * Tags (issue #34, point 1; docs/catalogue-queries.md › "Tags"): free-form keywords, many per video, ids by the
 * category slug rule, names unique case-insensitively. `tag_synonyms` maps a retired id (an alias, never also a
 * tag's id) to the tag it was merged into, so a typed `muscled` or an old `/tags/muscled` lands on `muscle`.
 * `video_tags` is built like the other two join tables (migration 1800000000000): the video's sort keys copied by
 * triggers with an index per sort, and a `tag` scope in catalogue_counts, so a tag's page reads as a category's.
 */
export class Tags1865000000000 implements MigrationInterface {
  name = 'Tags1865000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE tags (id varchar(100) PRIMARY KEY, name varchar(100) NOT NULL)`);
    await q.query(`CREATE UNIQUE INDEX tags_name_key ON tags (lower(name))`);
    await q.query(`
      CREATE TABLE tag_synonyms (
        alias varchar(100) PRIMARY KEY,
        tag_id varchar(100) NOT NULL REFERENCES tags (id) ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await q.query(`CREATE INDEX tag_synonyms_tag_idx ON tag_synonyms (tag_id)`);
    await q.query(`
      CREATE TABLE video_tags (
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        tag_id varchar(100) NOT NULL REFERENCES tags (id) ON DELETE CASCADE ON UPDATE CASCADE,
        PRIMARY KEY (video_id, tag_id)
      )`);
    await q.query(`CREATE INDEX video_tags_tag_idx ON video_tags (tag_id, video_id)`);
    await addSortCopies(q, TAGS);
    await q.query('ALTER TABLE catalogue_counts DROP CONSTRAINT catalogue_counts_scope_check');
    await q.query(`ALTER TABLE catalogue_counts ADD CONSTRAINT catalogue_counts_scope_check CHECK (scope IN ('all', 'featured', 'category', 'performer', 'tag'))`);
    await addJoinCounts(q, TAGS);
    await defineCatalogueSync(q, [CATEGORIES, PERFORMERS, TAGS]);
  }

  async down(q: QueryRunner): Promise<void> {
    await defineCatalogueSync(q, [CATEGORIES, PERFORMERS]);
    await dropJoinCatalogue(q, TAGS);
    await q.query(`DELETE FROM catalogue_counts WHERE scope = 'tag'`);
    await q.query('ALTER TABLE catalogue_counts DROP CONSTRAINT catalogue_counts_scope_check');
    await q.query(`ALTER TABLE catalogue_counts ADD CONSTRAINT catalogue_counts_scope_check CHECK (scope IN ('all', 'featured', 'category', 'performer'))`);
    await q.query('DROP TABLE video_tags');
    await q.query('DROP TABLE tag_synonyms');
    await q.query('DROP TABLE tags');
  }
}
