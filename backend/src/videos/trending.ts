/** Each day of age weighs 0.8 times the day after it; only the last 7 days (today and 6 before) count. */
export const TRENDING_DECAY = 0.8;
export const TRENDING_DAYS = 7;

/**
 * SQL for the trending score of every video with views in the window: `(video_id, score)`. The ages are whole
 * days between the stats row's day and today in the database's time zone.
 */
export const TRENDING_SCORES_SQL = `
  SELECT video_id, SUM(views * power(${TRENDING_DECAY}, CURRENT_DATE - day))::float8 AS score
  FROM video_daily_stats
  WHERE day > CURRENT_DATE - ${TRENDING_DAYS} AND day <= CURRENT_DATE
  GROUP BY video_id`;
