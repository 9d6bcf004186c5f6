import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The contract's failure body (api-contract.md › Conventions), the one schema of every non-2xx answer. */
@ApiSchema({ name: 'ErrorResponse', description: 'The body of every failure (api-contract.md › Conventions)' })
export class ErrorResponseDto {
  @ApiProperty({ description: 'What went wrong, for people; a validation failure names the field', example: 'Video not found' })
  error!: string;

  /**
   * Its enum is every code the routes declare (`withErrorCodes` in openapi.decorators.ts): each feature's own
   * `*ErrorCode` values (auth-errors.ts, counter-errors.ts, lists-errors.ts, playlists-errors.ts, site-errors.ts).
   */
  @ApiPropertyOptional({
    type: String,
    description: 'For programs, where the operation names one in this status’s description; absent otherwise',
  })
  errorCode?: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, description: 'The status of the answer', example: 404 })
  statusCode!: number;
}
