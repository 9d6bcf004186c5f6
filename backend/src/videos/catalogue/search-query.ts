const MAX_TERMS = 8;

/**
 * Turns what a visitor typed into a PostgreSQL `to_tsquery` text where every word is a prefix match
 * ("musc bea" finds "Muscle Bears"), or null when nothing searchable is left. Only letters and digits pass,
 * so the result can never be a tsquery syntax error.
 */
export function toPrefixTsQuery(input: string): string | null {
  const words = input.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = words.slice(0, MAX_TERMS).map((w) => `${w.toLowerCase()}:*`);
  return terms.length ? terms.join(' & ') : null;
}
