import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { isUniqueViolation } from '../common/utils/database-errors';
import { slugify } from '@hunktube/shared';
import type { CreatedTaxonDto } from './dto/create-taxon.dto';
import type { TaxonDto } from './dto/taxon.dto';
import { SINGULAR } from './taxa.repository';
import { CatalogueCache } from '../videos/catalogue-cache';
import { type TaxonKind, VideosRepository } from '../videos/videos.repository';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';

export type { TaxonKind };
export type { TaxonRef } from './taxa.repository';

@Injectable()
export class TaxonomyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: CatalogueCache,
    private readonly videos: VideosRepository,
    private readonly bus: InvalidationBus,
  ) {}

  /**
   * Every category or performer with the number of published videos carrying it, by name: kept in the
   * catalogue cache until a video or a taxon changes.
   */
  list(kind: TaxonKind): Promise<TaxonDto[]> {
    return this.cache.derive(`taxonomy:${kind}`, 'catalogue', () => this.query(kind));
  }

  /**
   * Creates a category or performer whose id is derived from the (trimmed) name; 409 when that id exists,
   * 400 when the name leaves nothing to derive an id from.
   */
  async create(kind: TaxonKind, rawName: string): Promise<CreatedTaxonDto> {
    const name = rawName.trim();
    const id = slugify(name);
    if (!id) throw new InvalidInputError('name must contain a letter or a digit');
    try {
      await this.db.query(`INSERT INTO ${kind} (id, name) VALUES ($1, $2)`, [id, name]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`${SINGULAR[kind].title} already exists: ${id}`);
      throw error;
    }
    this.bus.publish({ type: 'TaxaChanged' });
    return { id, name };
  }

  /**
   * Gives a category or performer a new display name. The id stays, so links and the videos carrying it are
   * unchanged; 404 for an unknown id, 409 when another one already has the name (case-insensitively), 400
   * when the name has no letter or digit (it could not have been created with it).
   */
  async rename(kind: TaxonKind, id: string, rawName: string): Promise<CreatedTaxonDto> {
    const name = rawName.trim();
    if (!slugify(name)) throw new InvalidInputError('name must contain a letter or a digit');
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
      if (!exists) throw new NotFoundError(`${SINGULAR[kind].title} not found`);
      throw new ConflictError(`Another ${SINGULAR[kind].lower} is already named ${name}`);
    }
    this.bus.publish({ type: 'TaxaChanged' });
    return { id, name };
  }

  private async query(kind: TaxonKind): Promise<TaxonDto[]> {
    const [rows, counts] = await Promise.all([
      this.db.query<{ id: string; name: string }[]>(`SELECT id, name FROM ${kind} ORDER BY lower(name), id`),
      this.videos.publishedCountsByTaxon(kind),
    ]);
    return rows.map((r) => ({ id: r.id, name: r.name, video_count: counts.get(r.id) ?? 0 }));
  }
}
