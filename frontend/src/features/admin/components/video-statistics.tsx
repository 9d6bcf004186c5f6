import { useId, useMemo, useState } from 'react';
import { formatNumber } from '@/lib/format';
import { STATS_PERIODS, useVideoStats, type StatsPeriod } from '../api/get-video-stats';
import { DailyFigures, type FigureSeries } from './daily-figures';
import { LoadState } from './load-state';
import { PeriodPicker } from './period-picker';

export const VIEWS_COLOR = '#ff6b9d';
export const LIKES_COLOR = '#7cc4ff';

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
          { key: 'views', label: 'Views', values: data.daily.map((d) => d.views), color: VIEWS_COLOR, unit: { one: 'view', other: 'views' } },
          { key: 'likes', label: 'Likes', values: data.daily.map((d) => d.likes), color: LIKES_COLOR, unit: { one: 'like', other: 'likes' } },
        ] satisfies FigureSeries[],
      },
    [data],
  );

  const totals = data && data.daily.reduce((sum, d) => ({ views: sum.views + d.views, likes: sum.likes + d.likes }), { views: 0, likes: 0 });

  return (
    <section className="edit-video__section video-stats" aria-labelledby={`${id}-title`}>
      <div className="video-stats__head">
        <h2 id={`${id}-title`}>Statistics</h2>
        <PeriodPicker periods={STATS_PERIODS} value={days} onChange={setDays} />
      </div>
      <LoadState what="statistics" query={stats} />
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
          <DailyFigures
            label={`Views and likes per day, last ${data.days} days`}
            days={chart.days}
            series={chart.series}
            filename={`video-${data.id}-last-${data.days}-days.csv`}
          />
        </>
      )}
    </section>
  );
}
