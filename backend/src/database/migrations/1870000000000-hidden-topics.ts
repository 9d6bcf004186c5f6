import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's hidden topics (issue #34, point 3): the categories, performers and tags they never want to see, at
 * most 100 of each (api-contract.md › Discovery, `GET/PUT /api/me/hidden`). Ids, not foreign keys: a topic
 * removed later hides nothing, and a tag merged into another is read through its synonym. Gone with the account.
 */
export class HiddenTopics1870000000000 implements MigrationInterface {
  name = 'HiddenTopics1870000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE hidden_topics (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('category', 'performer', 'tag')),
        topic_id varchar(100) NOT NULL,
        PRIMARY KEY (user_id, kind, topic_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE hidden_topics');
  }
}
