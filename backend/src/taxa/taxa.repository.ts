import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { InvalidInputError } from '../common/errors/domain-errors';
import type { TaxonRefDto } from './taxon-ref.dto';

/** The two kinds of taxa: the tables `categories` and `performers`, owned here. */
export type TaxonKind = 'categories' | 'performers';

/** How messages name one category or performer. */
export const SINGULAR: Record<TaxonKind, { lower: string; title: string }> = {
  categories: { lower: 'category', title: 'Category' },
  performers: { lower: 'performer', title: 'Performer' },
};

/** How a client names a category or performer it assigns: by id, by name, or both (the id wins). */
export interface TaxonRef {
  id?: string | null;
  name?: string | null;
}

/**
 * Look-ups of categories and performers by the code that assigns them (uploads, admin edits) and shows them (a
 * video's detail): needs only the database, so that the worker and the CLIs can load it without the API's cache.
 */
@Injectable()
export class TaxaRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The ids of the categories or performers that `refs` name, each once, in the order given: by id when that
   * id exists, otherwise by name, case-insensitively. Every one must exist (400 naming the first unknown one).
   * Runs on `manager` so that it can take part in the caller's transaction.
   */
  async resolve(kind: TaxonKind, refs: TaxonRef[], manager: EntityManager): Promise<string[]> {
    const wanted = refs.map((ref) => ({ id: ref.id?.trim() || null, name: ref.name?.trim() || null }));
    const missing = wanted.find((ref) => !ref.id && !ref.name);
    if (missing) throw new InvalidInputError(`Every ${SINGULAR[kind].lower} needs an id or a name`);
    if (wanted.length === 0) return [];

    const rows = await manager.query<{ id: string; name: string }[]>(
      `SELECT id, name FROM ${kind} WHERE id = ANY($1::varchar[]) OR lower(name) = ANY($2::text[])`,
      [wanted.flatMap((ref) => ref.id ?? []), wanted.flatMap((ref) => ref.name?.toLowerCase() ?? [])],
    );
    const ids = new Set(rows.map((row) => row.id));
    const byName = new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));

    const resolved: string[] = [];
    for (const ref of wanted) {
      const id = ref.id && ids.has(ref.id) ? ref.id : ref.name ? byName.get(ref.name.toLowerCase()) : undefined;
      if (!id) throw new InvalidInputError(`Unknown ${SINGULAR[kind].lower}: ${ref.name ?? ref.id}`);
      if (!resolved.includes(id)) resolved.push(id);
    }
    return resolved;
  }

  /** Id and name of these categories or performers, by name (ties by id); unknown ids are left out. */
  async refs(kind: TaxonKind, ids: string[]): Promise<TaxonRefDto[]> {
    if (ids.length === 0) return [];
    return this.db.query<TaxonRefDto[]>(`SELECT id, name FROM ${kind} WHERE id = ANY($1::varchar[]) ORDER BY name, id`, [ids]);
  }

  /** Every category or performer, by name (case-insensitively), then id. */
  all(kind: TaxonKind): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }[]>(`SELECT id, name FROM ${kind} ORDER BY lower(name), id`);
  }

  /**
   * Adds one unless another already has its name (case-insensitively): `inserted`, or `taken`. A taken id is the
   * database's unique violation, for the caller to answer.
   */
  async insert(kind: TaxonKind, id: string, name: string): Promise<'inserted' | 'taken'> {
    // A SELECT around the INSERT, so the driver answers with rows rather than [rows, affected count]. The row with
    // this id is left out of the check, so that a taken id stays the unique violation whatever its name.
    const rows = await this.db.query<{ id: string }[]>(
      `WITH inserted AS (
         INSERT INTO ${kind} (id, name)
         SELECT $1::varchar, $2::varchar
         WHERE NOT EXISTS (SELECT 1 FROM ${kind} o WHERE o.id <> $1::varchar AND lower(o.name) = lower($2::varchar))
         RETURNING id
       ) SELECT id FROM inserted`,
      [id, name],
    );
    return rows.length > 0 ? 'inserted' : 'taken';
  }

  /**
   * Gives one a new name unless another already has it (case-insensitively): `renamed`, or why not (`missing`,
   * `taken`).
   */
  async rename(kind: TaxonKind, id: string, name: string): Promise<'renamed' | 'missing' | 'taken'> {
    // A SELECT around the UPDATE, so the driver answers with rows rather than [rows, affected count].
    const rows = await this.db.query<{ id: string }[]>(
      `WITH renamed AS (
         UPDATE ${kind} SET name = $2
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ${kind} o WHERE o.id <> $1 AND lower(o.name) = lower($2))
         RETURNING id
       ) SELECT id FROM renamed`,
      [id, name],
    );
    if (rows.length > 0) return 'renamed';
    const [exists] = await this.db.query<unknown[]>(`SELECT 1 FROM ${kind} WHERE id = $1`, [id]);
    return exists ? 'taken' : 'missing';
  }
}
