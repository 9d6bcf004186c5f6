import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** `{ name }` for PATCH /api/admin/{categories,performers}/{id}: a new display name; the id never changes. */
export class RenameTaxonDto {
  @ApiProperty({ maxLength: TAXON_NAME_MAX_LENGTH, example: 'Big Muscle Men', description: 'Trimmed; must contain a letter or a digit' })
  @Transform(trim)
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(TAXON_NAME_MAX_LENGTH, { message: `name must be at most ${TAXON_NAME_MAX_LENGTH} characters long` })
  name: string;
}

/** `{ name, id? }`: the id is always derived from the name; a client's own id is accepted and ignored. */
export class CreateTaxonDto extends RenameTaxonDto {
  @ApiPropertyOptional({ description: 'Ignored: the server derives the id from the name' })
  @IsOptional()
  @IsString({ message: 'id must be a string' })
  id?: string;
}

export class CreatedTaxonDto {
  @ApiProperty({ example: 'big-muscle-men', description: 'Slug derived from the name' }) id: string;
  @ApiProperty({ example: 'Big Muscle Men' }) name: string;
}
