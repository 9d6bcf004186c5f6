/** A timestamp as the API writes it (ISO 8601, UTC), from the Date or the text a database driver hands back. */
export const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
