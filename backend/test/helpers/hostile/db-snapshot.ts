import type { DataSource } from 'typeorm';

/** Table name → `rows:md5 of its rows, ordered`. */
export type DbSnapshot = Record<string, string>;

/**
 * Columns that change without a write through the API, left out of the comparison. None today: reads write
 * nothing, and the suite's app runs no worker and flushes counters only on an admin's refresh-views.
 */
export const VOLATILE_COLUMNS: Record<string, string[]> = {};

/**
 * One query that fingerprints every table of the schema (tables added later included): the row count and an
 * md5 of all rows as text, in a fixed order.
 */
export async function snapshotQuery(db: DataSource): Promise<string> {
  const tables = await db.query<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return tables
    .map(({ name }) => {
      const drop = VOLATILE_COLUMNS[name];
      const row = drop ? `(to_jsonb(r) - ARRAY[${drop.map((c) => `'${c}'`).join(', ')}]::text[])::text` : 'r::text';
      return `SELECT '${name}' AS name, count(*)::text || ':' || md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '')) AS print FROM "${name}" r`;
    })
    .join(' UNION ALL ');
}

export async function takeSnapshot(db: DataSource, query: string): Promise<DbSnapshot> {
  const rows = await db.query<{ name: string; print: string }[]>(query);
  return Object.fromEntries(rows.map((r) => [r.name, r.print]));
}

/** The tables whose rows differ. */
export function changedTables(before: DbSnapshot, after: DbSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
