import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatNumber } from '@/lib/format';
import type { AdCounts, AdDay, AdStats } from '../api/ad-types';
import { placementLabel } from './ad-zone-rules';
import { CsvButton, DailyFigures, tableCsv, type FigureSeries } from './daily-figures';

type Count = keyof AdCounts;

/** The counts in the order the player meets them: asked, filled, shown, watched to the end or skipped, clicked, failed. */
const COUNTS: readonly { key: Count; label: string; color: string; one: string; other: string }[] = [
  { key: 'requests', label: 'Requests', color: '#c8b6ff', one: 'request', other: 'requests' },
  { key: 'fills', label: 'Fills', color: '#7cc4ff', one: 'fill', other: 'fills' },
  { key: 'impressions', label: 'Impressions', color: '#ff6b9d', one: 'impression', other: 'impressions' },
  { key: 'completes', label: 'Completes', color: '#9be38f', one: 'complete', other: 'completes' },
  { key: 'skips', label: 'Skips', color: '#ffd166', one: 'skip', other: 'skips' },
  { key: 'clicks', label: 'Clicks', color: '#f4f4f6', one: 'click', other: 'clicks' },
  { key: 'errors', label: 'Errors', color: '#ff8a65', one: 'error', other: 'errors' },
];

/** Fills over requests, as a percentage; a dash when nothing was asked. */
export function fillRate({ requests, fills }: Pick<AdCounts, 'requests' | 'fills'>): string {
  if (requests === 0) return '–';
  return `${((fills / requests) * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;
}

/** The days' counts added up: a period's totals. */
export function sumDays(daily: readonly AdDay[]): AdCounts {
  const totals: AdCounts = { requests: 0, fills: 0, impressions: 0, completes: 0, skips: 0, clicks: 0, errors: 0 };
  for (const day of daily) for (const { key } of COUNTS) totals[key] += day[key];
  return totals;
}

/** A period's counts, each with its name, and the fill rate after the fills. */
export function AdTotals({ totals, label }: { totals: AdCounts; label: string }) {
  return (
    <dl className="video-stats__facts ad-totals" aria-label={label}>
      {COUNTS.map(({ key, label: term }) => (
        <div key={key}>
          <dt>{term}</dt>
          <dd>{formatNumber(totals[key])}</dd>
        </div>
      ))}
      <div>
        <dt>Fill rate</dt>
        <dd>{fillRate(totals)}</dd>
      </div>
    </dl>
  );
}

/** The seven counts per day as the site's figures are shown: chart, table and CSV. */
export function AdDailyFigures({ label, daily, filename }: { label: string; daily: AdDay[]; filename: string }) {
  const chart = useMemo(
    () => ({
      days: daily.map((d) => d.day),
      series: COUNTS.map(({ key, label: name, color, one, other }) => ({
        key,
        label: name,
        values: daily.map((d) => d[key]),
        color,
        unit: { one, other },
      })) satisfies FigureSeries[],
    }),
    [daily],
  );
  return <DailyFigures label={label} days={chart.days} series={chart.series} filename={filename} />;
}

/** Every zone's totals over the period, a row each, with a link to its own figures and the table as CSV. */
export function AdZoneTotalsTable({ stats }: { stats: AdStats }) {
  const caption = `Ad figures per zone, last ${stats.days} days`;
  const csv = () =>
    tableCsv(
      ['id', 'name', 'placement', 'active', ...COUNTS.map((c) => c.key)],
      stats.zones.map((zone) => [zone.id, zone.name, zone.placement, zone.active ? 'yes' : 'no', ...COUNTS.map((c) => zone.totals[c.key])]),
    );
  return (
    <>
      <div className="video-table__scroll">
        <table className="admin-table ad-totals-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Placement</th>
              {COUNTS.map((c) => (
                <th key={c.key} scope="col" className="admin-table__number">
                  {c.label}
                </th>
              ))}
              <th scope="col" className="admin-table__number">
                Fill rate
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.zones.length === 0 && (
              <tr>
                <td colSpan={COUNTS.length + 3}>No ad zone yet.</td>
              </tr>
            )}
            {stats.zones.map((zone) => (
              <tr key={zone.id}>
                <th scope="row">
                  <Link to={`/admin/ads/${zone.id}`}>{zone.name}</Link>
                  {!zone.active && <span className="ad-zone__off"> (off)</span>}
                </th>
                <td>{placementLabel(zone.placement)}</td>
                {COUNTS.map((c) => (
                  <td key={c.key} className="admin-table__number">
                    {formatNumber(zone.totals[c.key])}
                  </td>
                ))}
                <td className="admin-table__number">{fillRate(zone.totals)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <CsvButton label={caption} filename={`ad-zones-last-${stats.days}-days.csv`} csv={csv} />
      </p>
    </>
  );
}
