import { Injectable } from '@nestjs/common';
import type { ExcludedTopics } from '@hunktube/shared';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { InvalidInputError } from '../common/errors/domain-errors';
import { TaxaRepository } from '../taxa/taxa.repository';
import type { HiddenTopicsDto } from './dto/hidden-topics.dto';

const NAMES = { categories: 'category', performers: 'performer', tags: 'tag' } as const;

/**
 * A member's hidden topics (docs/decisions.md › "Hidden topics"): kept on the server, read by every listing,
 * search, related row and the Continue watching row of that member (VideosService.hiddenFor).
 */
@Injectable()
export class HiddenTopicsService {
  constructor(
    private readonly taxa: TaxaRepository,
    private readonly bus: InvalidationBus,
  ) {}

  get(userId: string): Promise<ExcludedTopics> {
    return this.taxa.hiddenOf(userId);
  }

  /** Replaces them; each id must name an existing topic (a tag's synonym does), else 400 naming the first unknown. */
  async put(userId: string, dto: HiddenTopicsDto): Promise<ExcludedTopics> {
    const wanted: ExcludedTopics = {
      categories: [...new Set(dto.categories)].sort(),
      performers: [...new Set(dto.performers)].sort(),
      tags: [...new Set(dto.tags)].sort(),
    };
    const existing = await this.taxa.existing(wanted);
    for (const kind of ['categories', 'performers', 'tags'] as const) {
      const known = new Set(existing[kind]);
      const unknown = wanted[kind].find((id) => !known.has(id));
      if (unknown !== undefined) throw new InvalidInputError(`Unknown ${NAMES[kind]}: ${unknown}`);
    }
    await this.taxa.setHidden(userId, wanted);
    this.bus.publish({ type: 'HiddenTopicsChanged', userId });
    return wanted;
  }
}
