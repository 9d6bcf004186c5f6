import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * Every `errorCode` the API sends: those api-contract.md names (WEAK_PASSWORD, ALREADY_LIKED, 23505) and those of
 * the routes beyond it. Each is thrown by its feature (auth-errors.ts, counters.service.ts, follows.service.ts,
 * auth.service.ts, playlists.service.ts, health.controller.ts); a new one is added here too, or the document's
 * conformance test (backend/test/openapi-conformance.e2e-spec.ts) refuses the answer that carries it.
 */
export const ERROR_CODES = [
  'WEAK_PASSWORD',
  'ALREADY_LIKED',
  'NOT_LIKED',
  '23505',
  'FOLLOW_LIMIT',
  'WRONG_PASSWORD',
  'ADMIN_ACCOUNT',
  'DATABASE_DOWN',
] as const;

/** The contract's failure body (api-contract.md › Conventions), the one schema of every non-2xx answer. */
@ApiSchema({ name: 'ErrorResponse', description: 'The body of every failure (api-contract.md › Conventions)' })
export class ErrorResponseDto {
  @ApiProperty({ description: 'What went wrong, for people; a validation failure names the field', example: 'Video not found' })
  error!: string;

  @ApiPropertyOptional({
    enum: ERROR_CODES,
    description: 'For programs, where the operation names one in this status’s description; absent otherwise',
  })
  errorCode?: (typeof ERROR_CODES)[number];

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, description: 'The status of the answer', example: 404 })
  statusCode!: number;
}
