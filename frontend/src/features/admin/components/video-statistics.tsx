import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { formatNumber } from '@/lib/format';
import { saveFile } from '@/lib/save-file';
import { STATS_PERIODS, useVideoStats, type StatsPeriod, type VideoStats } from '../api/get-video-stats';

// The chart library loads with this panel only (README › "Statistics").
const DailyChart = lazy(() => import('./daily-chart'));

const VIEWS_COLOR = '#ff6b9d';
const LIKES_COLOR = '#7cc4ff';

/** The numbers behind the chart as a CSV file: day, views, likes. */
export function statsCsv(stats: Pick<VideoStats, 'daily'>): string {
  return ['day,views,likes', ...stats.daily.map((d) => `${d.day},${d.views},${d.likes}`)].join('\n') + '\n';
}

const downloadCsv = (stats: VideoStats) =>
  saveFile(new Blob([statsCsv(stats)], { type: 'text/csv' }), `video-${stats.id}-last-${stats.days}-days.csv`);

const counts = ({ views, likes }: { views: number; likes: number }) =>
  `${formatNumber(views)} ${views === 1 ? 'view' : 'views'}, ${formatNumber(likes)} ${likes === 1 ? 'like' : 'likes'}`;
const rankText = (rank: number | null, of: number) => (rank === null ? 'not ranked (not published)' : `#${formatNumber(rank)} of ${formatNumber(of)}`);

/** A video's statistics in its admin panel: views and likes per day over 7, 30 or 90 days, totals and ranks. */
export function VideoStatistics({ videoId }: { videoId: number }) {
  const id = useId();
  const [days, setDays] = useState<StatsPeriod>(30);
  const stats = useVideoStats(videoId, days);
  const data = stats.data;

  const chart = useMemo(
    () =>
      data && {
        days: data.daily.map((d) => d.day),
        series: [
          { label: 'Views', values: data.daily.map((d) => d.views), color: VIEWS_COLOR, unit: { one: 'view', other: 'views' } },
          { label: 'Likes', values: data.daily.map((d) => d.likes), color: LIKES_COLOR, unit: { one: 'like', other: 'likes' } },
        ],
      },
    [data],
  );

  const totals = data && data.daily.reduce((sum, d) => ({ views: sum.views + d.views, likes: sum.likes + d.likes }), { views: 0, likes: 0 });

  return (
    <section className="edit-video__section video-stats" aria-labelledby={`${id}-title`}>
      <div className="video-stats__head">
        <h2 id={`${id}-title`}>Statistics</h2>
        <div className="video-stats__periods" role="group" aria-label="Period">
          {STATS_PERIODS.map((period) => (
            <button
              key={period}
              type="button"
              className="button button--quiet"
              aria-pressed={days === period}
              onClick={() => setDays(period)}
            >
              {period} days
            </button>
          ))}
        </div>
      </div>
      {stats.isError && !data && (
        <p className="form-error" role="alert">
          The statistics could not be loaded.{' '}
          <button className="button button--quiet" type="button" onClick={() => void stats.refetch()}>
            Try again
          </button>
        </p>
      )}
      {!data && !stats.isError && <p role="status">Loading the statistics…</p>}
      {data && chart && totals && (
        <>
          <dl className="video-stats__facts">
            <div>
              <dt>Lifetime</dt>
              <dd>{counts(data.lifetime)}</dd>
            </div>
            <div>
              <dt>Last {data.days} days</dt>
              <dd>{counts(totals)}</dd>
            </div>
            <div>
              <dt>Trending</dt>
              <dd>
                {rankText(data.trending.rank, data.trending.of)} (score {data.trending.score.toLocaleString('en', { maximumFractionDigits: 1 })})
              </dd>
            </div>
            {data.categories.map((category) => (
              <div key={category.id}>
                <dt>In {category.name}</dt>
                <dd>{rankText(category.rank, category.of)} by views</dd>
              </div>
            ))}
          </dl>
          <Suspense fallback={<div className="daily-chart__plot" aria-hidden="true" />}>
            <DailyChart label={`Views and likes per day, last ${data.days} days`} days={chart.days} series={chart.series} />
          </Suspense>
          <details className="video-stats__table">
            <summary>The numbers, day by day</summary>
            <table>
              <caption className="visually-hidden">Views and likes per day, last {data.days} days</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Views</th>
                  <th scope="col">Likes</th>
                </tr>
              </thead>
              <tbody>
                {data.daily.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">
                      <time dateTime={d.day}>{d.day}</time>
                    </th>
                    <td>{formatNumber(d.views)}</td>
                    <td>{formatNumber(d.likes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <p>
            <button className="button button--quiet" type="button" onClick={() => downloadCsv(data)}>
              Download CSV
            </button>
          </p>
        </>
      )}
    </section>
  );
}
