import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { TaxonRefDto } from '../../taxa/taxon-ref.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** `{alias, tag}` for POST /api/admin/tag-synonyms: `alias` (a name or an id) answers as the tag `tag` from now on. */
export class CreateTagSynonymDto {
  @ApiProperty({ maxLength: TAXON_NAME_MAX_LENGTH, example: 'muscled', description: 'A name or id; its slug becomes the alias. An existing tag of that id is merged into `tag`' })
  @Transform(trim)
  @IsString({ message: 'alias must be a string' })
  @IsNotEmpty({ message: 'alias must not be empty' })
  @MaxLength(TAXON_NAME_MAX_LENGTH, { message: `alias must be at most ${TAXON_NAME_MAX_LENGTH} characters long` })
  alias: string;

  @ApiProperty({ maxLength: 100, example: 'muscle', description: 'The id of the tag it merges into (a synonym stands for its own tag)' })
  @IsString({ message: 'tag must be a string' })
  @IsNotEmpty({ message: 'tag must not be empty' })
  @MaxLength(100, { message: 'tag must be at most 100 characters long' })
  tag: string;
}

export class TagSynonymDto {
  @ApiProperty({ example: 'muscled', description: 'The retired id: tag=, /tags/{alias} and typed names answer as the tag' }) alias: string;
  @ApiProperty({ type: TaxonRefDto }) tag: TaxonRefDto;
}

export class CreatedTagSynonymDto extends TagSynonymDto {
  @ApiProperty({ example: 12, description: 'Videos that carried the merged tag and now carry `tag`' }) merged: number;
}

export class TagSynonymListDto {
  @ApiProperty({ type: [TagSynonymDto] }) data: TagSynonymDto[];
}
