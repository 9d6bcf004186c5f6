import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A video's captions (issue #34, point 5): one WebVTT file per language, stored beside its poster and storyboard
 * (`thumbs/{stem}/captions/{lang}.vtt`, public under the image host), and a row per file naming its language,
 * its label and when it was last replaced (its URL carries that, so a replaced file is fetched anew). Gone with
 * the video (its media folders too).
 */
export class VideoCaptions1860000000000 implements MigrationInterface {
  name = 'VideoCaptions1860000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE video_captions (
        video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
        lang varchar(35) NOT NULL,
        label varchar(60) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (video_id, lang)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE video_captions');
  }
}
