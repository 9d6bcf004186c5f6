import { ApiProperty } from '@nestjs/swagger';

/** `{ error: null }`: the specification's client reads `error` from every admin answer. */
export class NoErrorDto {
  @ApiProperty({ type: 'null', nullable: true, example: null }) error: null;
}
