import { ApiProperty } from '@nestjs/swagger';

/** `{ error: null }`: the specification's client reads `error` from these answers. */
export class NoErrorDto {
  @ApiProperty({ type: String, nullable: true, enum: [null], example: null, description: 'Always null' }) error: null;
}
