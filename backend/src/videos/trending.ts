/** Each day of age weighs 0.8 times the day after it; only the last 7 days (today and 6 before) count. */
export const TRENDING_DECAY = 0.8;
export const TRENDING_DAYS = 7;

/**
 * SQL for the trending score of every video with views in the window: `(video_id, score)`. The ages are whole
 * days between the stats row's day and today in the database's time zone.
 */
export const trendingScoresSql = (extraCondition = '') => `
  SELECT video_id, SUM(views * power(${TRENDING_DECAY}, CURRENT_DATE - day))::float8 AS score
  FROM video_daily_stats
  WHERE day > CURRENT_DATE - ${TRENDING_DAYS} AND day <= CURRENT_DATE ${extraCondition}
  GROUP BY video_id`;

export const TRENDING_SCORES_SQL = trendingScoresSql();

/**
 * Writes every video's current score into `videos.trending_score` (indexed for the trending sort), touching
 * only the rows whose score changed. Scores decay with the date, so this runs at start, on a timer, and after
 * counts are written.
 */
export const RECOMPUTE_TRENDING_SQL = `
  UPDATE videos v SET trending_score = s.score
  FROM (
    SELECT v2.id, COALESCE(t.score, 0) AS score
    FROM videos v2 LEFT JOIN (${TRENDING_SCORES_SQL}) t ON t.video_id = v2.id
  ) s
  WHERE v.id = s.id AND v.trending_score IS DISTINCT FROM s.score`;
