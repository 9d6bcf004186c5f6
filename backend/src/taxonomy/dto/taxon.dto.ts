import { ApiProperty } from '@nestjs/swagger';

export class TaxonDto {
  @ApiProperty({ description: 'Slug derived from the name' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Published videos carrying it' }) video_count: number;
}

export class TaxonListDto {
  @ApiProperty({ type: [TaxonDto] }) data: TaxonDto[];
}
