import { lazy, Suspense } from 'react';
import { formatNumber } from '@/lib/format';
import { saveFile } from '@/lib/save-file';
import type { DailySeries } from './daily-chart';

// The chart library loads with the admin pages that draw charts only (docs/decisions.md › "Statistics").
const DailyChart = lazy(() => import('./daily-chart'));

export interface FigureSeries extends DailySeries {
  /** Its column in the CSV file ("views"). */
  key: string;
}

type CsvRow = readonly (string | number)[];

/**
 * Rows as CSV: a header line, then one line per row (text quoted when it holds a comma, a quote or a newline).
 * Text that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return:
 * a video's title is anyone's upload) is written with a leading `'`, as OWASP's CSV-injection advice has it, so
 * that it shows as text; numbers are written as they are.
 */
export function tableCsv(header: readonly string[], rows: readonly CsvRow[]): string {
  const cell = (value: string | number) => {
    if (typeof value !== 'string') return String(value);
    const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\n') + '\n';
}

/** Figures per day as CSV: a `day` column, then one per series. */
export function dailyCsv(days: readonly string[], series: readonly FigureSeries[]): string {
  return tableCsv(['day', ...series.map((s) => s.key)], days.map((day, i) => [day, ...series.map((s) => s.values[i])]));
}

/** "Download CSV" of the numbers behind a chart; `label` names them for screen readers. */
export function CsvButton({ label, filename, csv }: { label: string; filename: string; csv: () => string }) {
  const download = () => saveFile(new Blob([csv()], { type: 'text/csv' }), filename);
  return (
    <button className="button button--quiet" type="button" onClick={download} aria-label={`Download CSV: ${label}`}>
      Download CSV
    </button>
  );
}

interface DailyFiguresProps {
  /** What the figures are ("Views and likes per day, last 30 days"): the chart's name and the table's caption. */
  label: string;
  days: readonly string[];
  series: readonly FigureSeries[];
  /** The CSV file's name. */
  filename: string;
}

/**
 * Figures per day three ways: the chart for the eye (keyboard-walkable), the same numbers in a table (the text
 * alternative, folded away), and a CSV file of them.
 */
export function DailyFigures({ label, days, series, filename }: DailyFiguresProps) {
  return (
    <div className="daily-figures">
      <Suspense fallback={<div className="daily-chart__plot" aria-hidden="true" />}>
        <DailyChart label={label} days={days} series={series} />
      </Suspense>
      <div className="daily-figures__more">
        <details className="video-stats__table">
          <summary>The numbers, day by day</summary>
          <table>
            <caption className="visually-hidden">{label}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th key={s.key} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day}>
                  <th scope="row">
                    <time dateTime={day}>{day}</time>
                  </th>
                  {series.map((s) => (
                    <td key={s.key}>{formatNumber(s.values[i])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <CsvButton label={label} filename={filename} csv={() => dailyCsv(days, series)} />
      </div>
    </div>
  );
}
