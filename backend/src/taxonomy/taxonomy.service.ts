import { Injectable } from '@nestjs/common';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { isUniqueViolation } from '../common/utils/database-errors';
import { slugify } from '@hunktube/shared';
import type { CreatedTaxonDto } from './dto/create-taxon.dto';
import type { TaxonDto } from './dto/taxon.dto';
import { SINGULAR, TaxaRepository, type TaxonKind } from '../taxa/taxa.repository';
import { CatalogueCache } from '../videos/catalogue-cache';
import { VideosRepository } from '../videos/videos.repository';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';

export type { TaxonKind };
export type { TaxonRef } from '../taxa/taxa.repository';

@Injectable()
export class TaxonomyService {
  constructor(
    private readonly taxa: TaxaRepository,
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
   * Creates a category or performer whose id is derived from the (trimmed) name; 409 when that id exists or
   * another one already has the name (case-insensitively, as for a rename), 400 when the name leaves nothing to
   * derive an id from.
   */
  async create(kind: TaxonKind, rawName: string): Promise<CreatedTaxonDto> {
    const name = rawName.trim();
    const id = slugify(name);
    if (!id) throw new InvalidInputError('name must contain a letter or a digit');
    let outcome: 'inserted' | 'taken';
    try {
      outcome = await this.taxa.insert(kind, id, name);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`${SINGULAR[kind].title} already exists: ${id}`);
      throw error;
    }
    if (outcome === 'taken') throw new ConflictError(`Another ${SINGULAR[kind].lower} is already named ${name}`);
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
    const outcome = await this.taxa.rename(kind, id, name);
    if (outcome === 'missing') throw new NotFoundError(`${SINGULAR[kind].title} not found`);
    if (outcome === 'taken') throw new ConflictError(`Another ${SINGULAR[kind].lower} is already named ${name}`);
    this.bus.publish({ type: 'TaxaChanged' });
    return { id, name };
  }

  private async query(kind: TaxonKind): Promise<TaxonDto[]> {
    const [rows, counts] = await Promise.all([
      this.taxa.all(kind),
      this.videos.publishedCountsByTaxon(kind),
    ]);
    return rows.map((r) => ({ id: r.id, name: r.name, video_count: counts.get(r.id) ?? 0 }));
  }
}
