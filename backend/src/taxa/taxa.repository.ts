import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { InvalidInputError } from '../common/errors/domain-errors';
import { type ExcludedTopics, slugify } from '@hunktube/shared';
import type { TaxonRefDto } from './taxon-ref.dto';

/** hidden_topics' kinds, and the field of ExcludedTopics each fills. */
type HiddenKind = 'category' | 'performer' | 'tag';
const HIDDEN_KINDS: Record<HiddenKind, keyof ExcludedTopics> = { category: 'categories', performer: 'performers', tag: 'tags' };

/**
 * The kinds of taxa: the tables `categories`, `performers` and `tags` (with `tag_synonyms`), owned here, as is
 * `hidden_topics` (the taxa members hide).
 */
export type TaxonKind = 'categories' | 'performers' | 'tags';

/** How messages name one category, performer or tag. */
export const SINGULAR: Record<TaxonKind, { lower: string; title: string }> = {
  categories: { lower: 'category', title: 'Category' },
  performers: { lower: 'performer', title: 'Performer' },
  tags: { lower: 'tag', title: 'Tag' },
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

  // --- tags -------------------------------------------------------------------------------------------------

  /**
   * The ids of the tags these names stand for, each once, in the order given, creating the ones that do not
   * exist yet (with the name as given): a name matches a tag by its id (the slug rule), through a synonym, or by
   * name case-insensitively (a renamed tag). `created` tells whether any was new. Runs in the caller's
   * transaction; two admins creating one tag at once both get it (the second insert does nothing).
   */
  async resolveTagNames(names: readonly TagName[], manager: EntityManager): Promise<{ ids: string[]; created: boolean }> {
    if (names.length === 0) return { ids: [], created: false };
    const synonyms = new Map(
      (await manager.query<{ alias: string; tag_id: string }[]>('SELECT alias, tag_id FROM tag_synonyms WHERE alias = ANY($1::varchar[])', [names.map((n) => n.id)]))
        .map((row) => [row.alias, row.tag_id]),
    );
    const wanted = names.map((n) => ({ id: synonyms.get(n.id) ?? n.id, name: n.name }));
    const find = () =>
      manager.query<{ id: string; name: string }[]>(
        'SELECT id, name FROM tags WHERE id = ANY($1::varchar[]) OR lower(name) = ANY($2::text[])',
        [wanted.map((w) => w.id), wanted.map((w) => w.name.toLowerCase())],
      );
    const pick = (rows: { id: string; name: string }[]) => {
      const ids = new Set(rows.map((row) => row.id));
      const byName = new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
      return wanted.map((w) => (ids.has(w.id) ? w.id : byName.get(w.name.toLowerCase())));
    };
    let found = pick(await find());
    const missing = wanted.filter((_w, i) => found[i] === undefined);
    if (missing.length > 0) {
      // Any unique index (the id, the lower-case name) taken meanwhile makes the insert of that row do nothing.
      await manager.query(
        `INSERT INTO tags (id, name) SELECT * FROM unnest($1::varchar[], $2::varchar[]) ON CONFLICT DO NOTHING`,
        [missing.map((m) => m.id), missing.map((m) => m.name)],
      );
      found = pick(await find());
    }
    const ids: string[] = [];
    for (const id of found) if (id !== undefined && !ids.includes(id)) ids.push(id);
    return { ids, created: missing.length > 0 };
  }

  /** Every synonym: alias → the id of the tag it answers as. */
  async tagSynonyms(): Promise<Map<string, string>> {
    const rows = await this.db.query<{ alias: string; tag_id: string }[]>('SELECT alias, tag_id FROM tag_synonyms');
    return new Map(rows.map((row) => [row.alias, row.tag_id]));
  }

  /** Every synonym with its tag's name, by alias. */
  tagSynonymRows(): Promise<TagSynonymRow[]> {
    return this.db.query<TagSynonymRow[]>(
      'SELECT s.alias, s.tag_id, t.name AS tag_name FROM tag_synonyms s JOIN tags t ON t.id = s.tag_id ORDER BY s.alias',
    );
  }

  /** The tag an id names (itself, or the tag a synonym answers as), with its name; null for neither. */
  async canonicalTag(id: string, manager: EntityManager = this.db.manager): Promise<TaxonRefDto | null> {
    const [row] = await manager.query<TaxonRefDto[]>(
      `SELECT t.id, t.name FROM tags t WHERE t.id = $1
       UNION ALL SELECT t.id, t.name FROM tag_synonyms s JOIN tags t ON t.id = s.tag_id WHERE s.alias = $1
       LIMIT 1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Makes `alias` answer as `tagId`: synonyms of the alias follow it, the tag of that id (whose videos the
   * caller has moved already) is removed, and the alias row is written (or re-pointed). In the caller's transaction.
   */
  async setTagSynonym(alias: string, tagId: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE tag_synonyms SET tag_id = $2 WHERE tag_id = $1', [alias, tagId]);
    await manager.query('DELETE FROM tags WHERE id = $1', [alias]);
    await manager.query(
      'INSERT INTO tag_synonyms (alias, tag_id) VALUES ($1, $2) ON CONFLICT (alias) DO UPDATE SET tag_id = EXCLUDED.tag_id',
      [alias, tagId],
    );
  }

  /** Removes a synonym; false when there was none. */
  async deleteTagSynonym(alias: string): Promise<boolean> {
    const rows = await this.db.query<{ alias: string }[]>(
      'WITH gone AS (DELETE FROM tag_synonyms WHERE alias = $1 RETURNING alias) SELECT alias FROM gone',
      [alias],
    );
    return rows.length > 0;
  }

  /** Removes a tag (its synonyms with it; the caller has untagged its videos); false when there was none. */
  async deleteTag(id: string, manager: EntityManager): Promise<boolean> {
    const rows = await manager.query<{ id: string }[]>('WITH gone AS (DELETE FROM tags WHERE id = $1 RETURNING id) SELECT id FROM gone', [id]);
    return rows.length > 0;
  }

  // --- hidden topics ----------------------------------------------------------------------------------------

  /** The topics a member hides, each kind sorted by id. */
  async hiddenOf(userId: string): Promise<ExcludedTopics> {
    const rows = await this.db.query<{ kind: HiddenKind; topic_id: string }[]>(
      'SELECT kind, topic_id FROM hidden_topics WHERE user_id = $1 ORDER BY kind, topic_id',
      [userId],
    );
    const topics: ExcludedTopics = { categories: [], performers: [], tags: [] };
    for (const row of rows) topics[HIDDEN_KINDS[row.kind]].push(row.topic_id);
    return topics;
  }

  /** Replaces a member's hidden topics with these (checked by the caller). */
  async setHidden(userId: string, topics: ExcludedTopics): Promise<void> {
    const rows = (Object.entries(HIDDEN_KINDS) as [HiddenKind, keyof ExcludedTopics][]).flatMap(([kind, field]) => topics[field].map((id) => [kind, id]));
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM hidden_topics WHERE user_id = $1', [userId]);
      if (rows.length) {
        await tx.query(
          'INSERT INTO hidden_topics (user_id, kind, topic_id) SELECT $1, * FROM unnest($2::varchar[], $3::varchar[]) ON CONFLICT DO NOTHING',
          [userId, rows.map((r) => r[0]), rows.map((r) => r[1])],
        );
      }
    });
  }

  /** Of these ids, those that name an existing category, performer or tag (a tag's synonym counts). */
  async existing(topics: ExcludedTopics): Promise<ExcludedTopics> {
    const [row] = await this.db.query<{ categories: string[] | null; performers: string[] | null; tags: string[] | null }[]>(
      `SELECT (SELECT array_agg(id) FROM categories WHERE id = ANY($1::varchar[])) AS categories,
              (SELECT array_agg(id) FROM performers WHERE id = ANY($2::varchar[])) AS performers,
              (SELECT array_agg(id) FROM (SELECT id FROM tags WHERE id = ANY($3::varchar[])
                                          UNION SELECT alias FROM tag_synonyms WHERE alias = ANY($3::varchar[])) t) AS tags`,
      [topics.categories, topics.performers, topics.tags],
    );
    return { categories: row.categories ?? [], performers: row.performers ?? [], tags: row.tags ?? [] };
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

/** A tag's name as given for a video, trimmed, with the id the slug rule derives from it. */
export interface TagName {
  id: string;
  name: string;
}

/**
 * Tags as a client names them (names, or `{id, name}` as the Video carries them) with their ids by the slug rule
 * (or the id given), each id once; 400 for a name the slug rule leaves empty.
 */
export function tagNamesOf(tags: readonly (string | { id?: string; name?: string })[]): TagName[] {
  const names: TagName[] = [];
  for (const tag of tags) {
    const name = (typeof tag === 'string' ? tag : (tag.name ?? tag.id ?? '')).trim();
    const id = typeof tag === 'object' && tag.id ? tag.id.trim() : slugify(name);
    if (!id) throw new InvalidInputError(`the tag "${name}" must contain a letter or a digit from a to z or 0 to 9`);
    if (!names.some((known) => known.id === id)) names.push({ id, name: name || id });
  }
  return names;
}

/** One synonym: the retired id (`alias`) and the tag it answers as. */
export interface TagSynonymRow {
  alias: string;
  tag_id: string;
  tag_name: string;
}
