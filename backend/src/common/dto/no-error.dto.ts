import { ApiProperty } from '@nestjs/swagger';

/** `{ error: null }`: the specification's client reads `error` from these answers. */
export class NoErrorDto {
  @ApiProperty({ type: 'null', nullable: true, example: null }) error: null;
}
