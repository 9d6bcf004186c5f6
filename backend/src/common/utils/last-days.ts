/**
 * SQL `FROM` items for the last `n` days (today included, the database's calendar), one row each, its day as the
 * date `x.d`; `n` is the query parameter named by `param` ("$1"). A count per day is then one index range per
 * day (`created_at >= x.d AND created_at < x.d + 1`), where grouping the rows by `created_at::date` would compute
 * a date for every row (docs/decisions.md › "Dashboard").
 */
export const lastDays = (param: string): string => `generate_series(0, ${param}::int - 1) AS g, LATERAL (SELECT CURRENT_DATE - g AS d) x`;
