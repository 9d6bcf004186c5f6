import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../common/utils/database-errors';
import { slugify } from '@hunktube/shared';
import type { CreatedTaxonDto } from './dto/create-taxon.dto';
import type { TaxonDto } from './dto/taxon.dto';
import type { TaxonRefDto } from '../videos/dto/video.dto';
import { type TaxonKind, VideosRepository } from '../videos/videos.repository';

export type { TaxonKind };

const SINGULAR: Record<TaxonKind, { lower: string; title: string }> = {
  categories: { lower: 'category', title: 'Category' },
  performers: { lower: 'performer', title: 'Performer' },
};

/** The lists change when admins edit; their counts may lag this long. */
export const TAXON_LIST_TTL_MS = 60_000;

/** How a client names a category or performer it assigns: by id, by name, or both (the id wins). */
export interface TaxonRef {
  id?: string | null;
  name?: string | null;
}

@Injectable()
export class TaxonomyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly videos: VideosRepository,
  ) {}

  /** Every category or performer with the number of published videos carrying it, by name. */
  list(kind: TaxonKind): Promise<TaxonDto[]> {
    return this.cache.wrap(`taxonomy:${kind}`, () => this.query(kind), TAXON_LIST_TTL_MS);
  }

  /**
   * Creates a category or performer whose id is derived from the (trimmed) name; 409 when that id exists,
   * 400 when the name leaves nothing to derive an id from.
   */
  async create(kind: TaxonKind, rawName: string): Promise<CreatedTaxonDto> {
    const name = rawName.trim();
    const id = slugify(name);
    if (!id) throw new BadRequestException('name must contain a letter or a digit');
    try {
      await this.db.query(`INSERT INTO ${kind} (id, name) VALUES ($1, $2)`, [id, name]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(`${SINGULAR[kind].title} already exists: ${id}`);
      throw error;
    }
    await this.cache.del(`taxonomy:${kind}`);
    return { id, name };
  }

  /**
   * Gives a category or performer a new display name. The id stays, so links and the videos carrying it are
   * unchanged; 404 for an unknown id, 409 when another one already has the name (case-insensitively), 400
   * when the name has no letter or digit (it could not have been created with it).
   */
  async rename(kind: TaxonKind, id: string, rawName: string): Promise<CreatedTaxonDto> {
    const name = rawName.trim();
    if (!slugify(name)) throw new BadRequestException('name must contain a letter or a digit');
    // A SELECT around the UPDATE, so the driver answers with rows rather than [rows, affected count].
    const rows = await this.db.query<{ id: string }[]>(
      `WITH renamed AS (
         UPDATE ${kind} SET name = $2
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ${kind} o WHERE o.id <> $1 AND lower(o.name) = lower($2))
         RETURNING id
       ) SELECT id FROM renamed`,
      [id, name],
    );
    if (rows.length === 0) {
      const [exists] = await this.db.query<unknown[]>(`SELECT 1 FROM ${kind} WHERE id = $1`, [id]);
      if (!exists) throw new NotFoundException(`${SINGULAR[kind].title} not found`);
      throw new ConflictException(`Another ${SINGULAR[kind].lower} is already named ${name}`);
    }
    await this.cache.del(`taxonomy:${kind}`);
    return { id, name };
  }

  /**
   * The ids of the categories or performers that `refs` name, each once, in the order given: by id when that
   * id exists, otherwise by name, case-insensitively. Every one must exist (400 naming the first unknown one).
   * Runs on `manager` so that it can take part in the caller's transaction.
   */
  async resolve(kind: TaxonKind, refs: TaxonRef[], manager: EntityManager): Promise<string[]> {
    const wanted = refs.map((ref) => ({ id: ref.id?.trim() || null, name: ref.name?.trim() || null }));
    const missing = wanted.find((ref) => !ref.id && !ref.name);
    if (missing) throw new BadRequestException(`Every ${SINGULAR[kind].lower} needs an id or a name`);
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
      if (!id) throw new BadRequestException(`Unknown ${SINGULAR[kind].lower}: ${ref.name ?? ref.id}`);
      if (!resolved.includes(id)) resolved.push(id);
    }
    return resolved;
  }

  /** Id and name of these categories or performers, by name (ties by id); unknown ids are left out. */
  async refs(kind: TaxonKind, ids: string[]): Promise<TaxonRefDto[]> {
    if (ids.length === 0) return [];
    return this.db.query<TaxonRefDto[]>(`SELECT id, name FROM ${kind} WHERE id = ANY($1::varchar[]) ORDER BY name, id`, [ids]);
  }

  private async query(kind: TaxonKind): Promise<TaxonDto[]> {
    const [rows, counts] = await Promise.all([
      this.db.query<{ id: string; name: string }[]>(`SELECT id, name FROM ${kind} ORDER BY lower(name), id`),
      this.videos.publishedCountsByTaxon(kind),
    ]);
    return rows.map((r) => ({ id: r.id, name: r.name, video_count: counts.get(r.id) ?? 0 }));
  }
}
