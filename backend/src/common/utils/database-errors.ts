import { QueryFailedError } from 'typeorm';

/** The PostgreSQL error behind a failed query (SQLSTATE code, violated constraint), from pg or PGlite alike. */
function driverError(error: unknown): { code?: string; constraint?: string } | undefined {
  return error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string } | undefined) : undefined;
}

export const sqlStateOf = (error: unknown): string | undefined => driverError(error)?.code;

export const constraintOf = (error: unknown): string | undefined => driverError(error)?.constraint;

/** A unique constraint refused the row (23505): the database, not a prior look-up, decides duplicates. */
export const isUniqueViolation = (error: unknown): boolean => sqlStateOf(error) === '23505';

/** A foreign key refused the row (23503): what it names is gone. */
export const isForeignKeyViolation = (error: unknown): boolean => sqlStateOf(error) === '23503';
