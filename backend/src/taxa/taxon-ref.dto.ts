import { ApiProperty } from '@nestjs/swagger';

/** A category or performer as a video names it. */
export class TaxonRefDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}
