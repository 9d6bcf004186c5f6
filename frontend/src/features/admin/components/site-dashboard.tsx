import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatNumber, formatUploadAge } from '@/lib/format';
import { useAdStats } from '../api/get-ad-stats';
import { useDashboard, type Dashboard, type Ranking } from '../api/get-dashboard';
import { STATS_PERIODS, type StatsPeriod } from '../api/get-video-stats';
import { fillRate, sumDays } from './ad-zone-figures';
import { CsvButton, DailyFigures, tableCsv, type FigureSeries } from './daily-figures';
import { LoadState } from './load-state';
import { PeriodPicker } from './period-picker';
import { REASONS } from './removal-request-counts';
import { LIKES_COLOR, VIEWS_COLOR } from './video-statistics';

const MEMBERS_COLOR = '#9be38f';
const UPLOADS_COLOR = '#c8b6ff';
const DONE_COLOR = '#7cc4ff';
const FAILED_COLOR = '#ff8a65';

const AGE_LABELS: Record<string, string> = {
  'under-1-day': 'Under a day',
  '1-7-days': '1 to 7 days',
  '7-30-days': '7 to 30 days',
  'over-30-days': 'Over 30 days',
};
const PERIOD_LABELS: Record<string, string> = { day: 'Today', week: 'Last 7 days' };

type Day = Dashboard['daily'][number];
const series = (daily: Day[], key: keyof Omit<Day, 'day'>, label: string, color: string, one: string, other: string): FigureSeries => ({
  key,
  label,
  values: daily.map((d) => d[key]),
  color,
  unit: { one, other },
});

/** /admin: the site's last 7, 30 or 90 days at a glance (docs/decisions.md › "Dashboard"). */
export function SiteDashboard() {
  const [days, setDays] = useState<StatsPeriod>(30);
  const dashboard = useDashboard(days);
  const data = dashboard.data;

  return (
    <section className="admin-page dashboard" aria-labelledby="dashboard-heading">
      <div className="admin-page__head">
        <h1 id="dashboard-heading">Dashboard</h1>
        <PeriodPicker periods={STATS_PERIODS} value={days} onChange={setDays} />
      </div>
      <LoadState what="dashboard" query={dashboard} />
      {data && <DashboardBody data={data} />}
    </section>
  );
}

function DashboardBody({ data }: { data: Dashboard }) {
  const { daily, totals, ingest, days } = data;
  const dayList = useMemo(() => daily.map((d) => d.day), [daily]);
  const charts = useMemo(
    () => ({
      traffic: [series(daily, 'views', 'Views', VIEWS_COLOR, 'view', 'views'), series(daily, 'likes', 'Likes', LIKES_COLOR, 'like', 'likes')],
      members: [series(daily, 'members', 'New members', MEMBERS_COLOR, 'new member', 'new members')],
      ingests: [
        series(daily, 'uploads', 'Uploads', UPLOADS_COLOR, 'upload', 'uploads'),
        series(daily, 'ingests_done', 'Done', DONE_COLOR, 'done', 'done'),
        series(daily, 'ingests_failed', 'Failed', FAILED_COLOR, 'failed', 'failed'),
      ],
    }),
    [daily],
  );
  const period = `last ${days} days`;

  return (
    <>
      <dl className="video-stats__facts dashboard__totals" aria-label={`The ${period}`}>
        <Fact term="Views">{formatNumber(totals.views)}</Fact>
        <Fact term="Likes">{formatNumber(totals.likes)}</Fact>
        <Fact term="New members">{formatNumber(totals.members)}</Fact>
        <Fact term="Uploads">{formatNumber(totals.uploads)}</Fact>
        <Fact term="Ingests">
          {formatNumber(totals.ingests_done)} done, {formatNumber(totals.ingests_failed)} failed
        </Fact>
      </dl>

      <Panel title="Views and likes">
        <DailyFigures label={`Views and likes per day, ${period}`} days={dayList} series={charts.traffic} filename={`site-views-last-${days}-days.csv`} />
      </Panel>

      <Panel title="New members">
        <DailyFigures label={`New members per day, ${period}`} days={dayList} series={charts.members} filename={`site-members-last-${days}-days.csv`} />
      </Panel>

      <Panel title="Uploads and ingests">
        <dl className="video-stats__facts">
          <Fact term="Waiting now">{formatNumber(ingest.queued)}</Fact>
          <Fact term="Running now">{formatNumber(ingest.running)}</Fact>
          <Fact term="Processing time">
            {ingest.seconds_per_media_minute === null
              ? 'no ingest done in the period'
              : `${ingest.seconds_per_media_minute.toLocaleString('en', { maximumFractionDigits: 1 })} s per minute of video (${formatNumber(ingest.media_minutes)} min ingested)`}
          </Fact>
        </dl>
        <p>
          <Link to="/admin/jobs">See the jobs</Link>
        </p>
        <DailyFigures label={`Uploads and ingest outcomes per day, ${period}`} days={dayList} series={charts.ingests} filename={`site-ingests-last-${days}-days.csv`} />
      </Panel>

      <Panel title="Most watched">
        <div className="dashboard__rankings">
          {data.rankings.map((ranking) => (
            <RankingColumn key={ranking.period} ranking={ranking} />
          ))}
        </div>
      </Panel>

      <Ads days={days} />

      <Removals removals={data.removals} />
    </>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="edit-video__section dashboard__panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** One period's rankings: videos, categories and performers by views, each a table. */
function RankingColumn({ ranking }: { ranking: Ranking }) {
  const title = PERIOD_LABELS[ranking.period] ?? ranking.period;
  const asOf = new Date(ranking.computed_at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="dashboard__ranking">
      <h3>{title}</h3>
      <p className="dashboard__note">
        As of <time dateTime={ranking.computed_at}>{asOf}</time>
      </p>
      <RankTable
        caption={`Top videos, ${title.toLowerCase()}`}
        name="Video"
        rows={ranking.videos.map((v) => ({ key: String(v.id), name: <Link to={`/admin/videos/${v.id}`}>{v.title}</Link>, views: v.views }))}
        empty="No video watched yet."
      />
      <RankTable
        caption={`Busiest categories, ${title.toLowerCase()}`}
        name="Category"
        rows={ranking.categories.map((c) => ({ key: c.id, name: c.name, views: c.views, videos: c.videos }))}
        empty="No category watched yet."
      />
      <RankTable
        caption={`Busiest performers, ${title.toLowerCase()}`}
        name="Performer"
        rows={ranking.performers.map((p) => ({ key: p.id, name: p.name, views: p.views, videos: p.videos }))}
        empty="No performer watched yet."
      />
    </div>
  );
}

interface RankRow {
  key: string;
  name: ReactNode;
  views: number;
  videos?: number;
}

function RankTable({ caption, name, rows, empty }: { caption: string; name: string; rows: RankRow[]; empty: string }) {
  const withVideos = rows.some((row) => row.videos !== undefined);
  return (
    <table className="dashboard__table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{name}</th>
          <th scope="col">Views</th>
          {withVideos && <th scope="col">Videos watched</th>}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={withVideos ? 4 : 3}>{empty}</td>
          </tr>
        )}
        {rows.map((row, i) => (
          <tr key={row.key}>
            <td>{i + 1}</td>
            <th scope="row">{row.name}</th>
            <td>{formatNumber(row.views)}</td>
            {withVideos && <td>{formatNumber(row.videos ?? 0)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The period's ads in three figures, from the ads page's own query; the rest is on that page. */
function Ads({ days }: { days: StatsPeriod }) {
  const stats = useAdStats(days);
  const totals = stats.data && sumDays(stats.data.daily);
  return (
    <Panel title="Ads">
      <LoadState what="ad figures" query={stats} />
      {stats.data && totals && (
        <>
          {stats.data.zones.length === 0 ? (
            <p>No ad zone yet: the site shows no ads.</p>
          ) : (
            <dl className="video-stats__facts" aria-label={`Ads, last ${stats.data.days} days`}>
              <Fact term="Impressions">{formatNumber(totals.impressions)}</Fact>
              <Fact term="Clicks">{formatNumber(totals.clicks)}</Fact>
              <Fact term="Fill rate">{fillRate(totals)}</Fact>
            </dl>
          )}
          <p>
            <Link to="/admin/ads">See the ad zones</Link>
          </p>
        </>
      )}
    </Panel>
  );
}

/** Open removal requests by how long they have waited and by reason, as bars beside their numbers. */
function Removals({ removals }: { removals: Dashboard['removals'] }) {
  const byAge = removals.by_age.map((b) => ({ label: AGE_LABELS[b.band] ?? b.band, count: b.count }));
  const byReason = REASONS.map(({ reason, label }) => ({ label, count: removals.by_reason.find((r) => r.reason === reason)?.count ?? 0 }));
  const csv = () =>
    tableCsv(['group', 'value', 'open'], [...removals.by_age.map((b) => ['age', b.band, b.count]), ...removals.by_reason.map((r) => ['reason', r.reason, r.count])]);
  return (
    <Panel title="Open removal requests">
      <p>
        {removals.open === 0
          ? 'None open.'
          : `${formatNumber(removals.open)} open; the oldest was filed ${formatUploadAge(removals.oldest_at as string)}.`}{' '}
        <Link to="/admin/removals">Review them</Link>
      </p>
      <div className="dashboard__bars-pair">
        <Bars caption="Open removal requests by age" name="Waiting" rows={byAge} total={removals.open} />
        <Bars caption="Open removal requests by reason" name="Reason" rows={byReason} total={removals.open} />
      </div>
      <p>
        <CsvButton label="open removal requests" filename="open-removal-requests.csv" csv={csv} />
      </p>
    </Panel>
  );
}

function Bars({ caption, name, rows, total }: { caption: string; name: string; rows: { label: string; count: number }[]; total: number }) {
  const most = Math.max(1, ...rows.map((row) => row.count));
  return (
    <table className="dashboard__table dashboard__bars">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{name}</th>
          <th scope="col">Open</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>
              <span className="dashboard__bar" aria-hidden="true" style={{ width: `${(row.count / most) * 100}%` }} />
              <span className="dashboard__count">
                {formatNumber(row.count)}
                {total > 0 && <span className="visually-hidden"> of {formatNumber(total)}</span>}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
