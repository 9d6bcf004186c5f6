const MAX_SLUG_LENGTH = 100;

/**
 * The id rule for categories and performers (and the base of video slugs): lower-case, accents stripped,
 * every run of characters other than a-z and 0-9 becomes one `-`, leading and trailing `-` removed.
 * "Big Muscle Men!" → "big-muscle-men". Returns "" when nothing is left.
 */
export function slugify(name: string, maxLength = MAX_SLUG_LENGTH): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
}
