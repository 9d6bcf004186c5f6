/**
 * The canvas chart as jsdom tests see it (jsdom has no canvas; Chromium draws the real one in e2e/admin.e2e.ts):
 * a named group that shows the figures it was given, so tests check them beside the text alternative.
 * `vi.mock('@/features/admin/components/daily-chart', () => import('@/testing/daily-chart-stub'))`.
 */
export default function DailyChartStub({ label, days, series }: { label: string; days: string[]; series: { label: string; values: number[] }[] }) {
  return (
    <div data-testid="chart" aria-label={label} role="group">
      {days.length} days; {series.map((s) => `${s.label}: ${s.values.join(' ')}`).join('; ')}
    </div>
  );
}
