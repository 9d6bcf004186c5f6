import { Injectable } from '@nestjs/common';
import { slugify } from '@hunktube/shared';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { InvalidInputError, NotFoundError } from '../common/errors/domain-errors';
import type { EntityManager } from 'typeorm';
import { tagNamesOf, TaxaRepository } from '../taxa/taxa.repository';
import { CatalogueCache } from '../videos/catalogue-cache';
import { VideosRepository } from '../videos/videos.repository';
import type { CreatedTagSynonymDto, TagSynonymDto } from './dto/tag-synonym.dto';

export const TAG_NOT_FOUND = 'Tag not found';

/**
 * Tags beyond what they share with categories and performers (TaxonomyService lists and renames them): the
 * synonyms an admin maps (`muscled` → `muscle`, merging a tag that existed under the alias), and a tag's removal.
 * The catalogue reads tag ids through the synonyms too (VideosService.list; docs/catalogue-queries.md › "Tags").
 */
@Injectable()
export class TagsService {
  constructor(
    private readonly taxa: TaxaRepository,
    private readonly videos: VideosRepository,
    private readonly cache: CatalogueCache,
    private readonly bus: InvalidationBus,
  ) {}

  /** The tag an id names, through a synonym too; null for none (kept like `synonyms`). */
  async canonical(id: string): Promise<{ id: string; name: string } | null> {
    return this.cache.derive(`tags:canonical:${id}`, 'catalogue', () => this.taxa.canonicalTag(id));
  }

  /**
   * The ids of the tags a video is given as names (or `{id, name}` as the Video carries them), each once, creating
   * new ones (TaxaRepository.resolveTagNames), in the caller's transaction; 400 for a name the slug rule leaves
   * empty. New tags need no announcement of their own: the edit's VideoChanged (its `tags` field) moves every
   * cache a new tag could make wrong, as the upload's does.
   */
  resolveNames(tags: readonly (string | { id?: string; name?: string })[], tx: EntityManager): Promise<{ ids: string[]; created: boolean }> {
    return this.taxa.resolveTagNames(tagNamesOf(tags), tx);
  }

  async listSynonyms(): Promise<TagSynonymDto[]> {
    return (await this.taxa.tagSynonymRows()).map((row) => ({ alias: row.alias, tag: { id: row.tag_id, name: row.tag_name } }));
  }

  /**
   * Makes `aliasName` (its slug) answer as the tag `tagId` (or the tag a synonym `tagId` stands for): a tag that
   * existed under the alias is merged (its videos carry the tag instead, its synonyms follow it). 404 for an
   * unknown tag, 400 for an alias with no letter or digit or one that is the tag itself.
   */
  async addSynonym(aliasName: string, tagId: string): Promise<CreatedTagSynonymDto> {
    const alias = slugify(aliasName);
    if (!alias) throw new InvalidInputError('alias must contain a letter or a digit');
    const { tag, moved } = await this.taxa.transaction(async (tx) => {
      const tag = await this.taxa.canonicalTag(tagId, tx);
      if (!tag) throw new NotFoundError(TAG_NOT_FOUND);
      if (tag.id === alias) throw new InvalidInputError(`a tag cannot be a synonym of itself: ${alias}`);
      const moved = await this.videos.moveTag(alias, tag.id, tx);
      await this.taxa.setTagSynonym(alias, tag.id, tx);
      return { tag, moved };
    });
    this.announce(moved);
    return { alias, tag, merged: moved.length };
  }

  /** Removes a synonym (the merged videos keep the tag); 404 for an unknown alias. */
  async removeSynonym(alias: string): Promise<void> {
    if (!(await this.taxa.deleteTagSynonym(alias))) throw new NotFoundError('Tag synonym not found');
    this.announce([]);
  }

  /** Removes a tag from every video, and the tag with its synonyms; 404 for an unknown id. */
  async remove(id: string): Promise<void> {
    const untagged = await this.taxa.transaction(async (tx) => {
      const untagged = await this.videos.untag(id, tx);
      if (!(await this.taxa.deleteTag(id, tx))) throw new NotFoundError(TAG_NOT_FOUND);
      return untagged;
    });
    this.announce(untagged);
  }

  /** After a commit: the videos whose tags changed, and the tags themselves. */
  private announce(videos: number[]): void {
    this.videos.tagsChanged(videos);
    this.bus.publish({ type: 'TaxaChanged' });
  }
}
