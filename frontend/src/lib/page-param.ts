/**
 * The page number of `?page=`, one rule for every paged view (catalogue, member lists, admin table): a whole
 * number from 1 of at most nine digits, else the first page.
 */
export function parsePage(value: string | null): number {
  if (value === null || !/^\d{1,9}$/.test(value)) return 1;
  return Math.max(Number(value), 1);
}

/** The query string of a list's page, leaving page 1 out so that links stay short. */
export const pageSearch = (page: number) => (page > 1 ? `?page=${page}` : '');
