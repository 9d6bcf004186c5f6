import type { DataSource } from 'typeorm';

/**
 * Which tables a request changed: a row trigger on every table of the schema (tables added later included, as
 * they are read when the log is installed) notes each row inserted, deleted or updated to other values, and each
 * truncation, in a log outside the app's schema. A request's changes are the log's entries after the mark taken
 * before it. (It replaced an md5 of every table taken after each request: the same answer, "which tables hold
 * other rows now", at a query of one index range instead of a read of the whole database, 130 s of the suite's
 * 4,300 requests on PGlite.)
 */
export interface ChangeLog {
  /** The tables it watches. */
  tables: string[];
  /** The log's position now. */
  mark(): Promise<number>;
  /** The tables changed since `mark` (sorted, each once), and the log's position now. */
  since(mark: number): Promise<{ changed: string[]; mark: number }>;
}

const LOG = 'hostile_changes';

export async function installChangeLog(db: DataSource): Promise<ChangeLog> {
  const rows = await db.query<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const tables = rows.map((r) => r.name);
  await db.query(`CREATE SCHEMA ${LOG}`);
  await db.query(`CREATE TABLE ${LOG}.log (id bigserial PRIMARY KEY, table_name text NOT NULL)`);
  await db.query(`CREATE FUNCTION ${LOG}.note() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${LOG}.log (table_name) VALUES (TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const table of tables) {
    await db.query(`CREATE TRIGGER hostile_written AFTER INSERT OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${LOG}.note()`);
    await db.query(
      `CREATE TRIGGER hostile_updated AFTER UPDATE ON "${table}" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION ${LOG}.note()`,
    );
    await db.query(`CREATE TRIGGER hostile_truncated AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION ${LOG}.note()`);
  }
  const mark = async () => Number((await db.query<{ id: string }[]>(`SELECT coalesce(max(id), 0) AS id FROM ${LOG}.log`))[0].id);
  return {
    tables,
    mark,
    async since(from) {
      const entries = await db.query<{ id: string; table_name: string }[]>(`SELECT id, table_name FROM ${LOG}.log WHERE id > $1`, [from]);
      return {
        changed: [...new Set(entries.map((e) => e.table_name))].sort(),
        mark: entries.reduce((last, e) => Math.max(last, Number(e.id)), from),
      };
    },
  };
}
