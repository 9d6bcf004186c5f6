import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import { formatNumber } from '@/lib/format';
import 'uplot/dist/uPlot.min.css';

export interface DailySeries {
  label: string;
  values: readonly number[];
  /** A colour the chart draws the series in (the legend and the table name it too). */
  color: string;
  /** How one and several are read out ("1 view", "12 views"). */
  unit: { one: string; other: string };
}

interface DailyChartProps {
  /** What the chart shows, for its accessible name ("Views and likes per day"). */
  label: string;
  /** The days, `YYYY-MM-DD`, oldest first. */
  days: readonly string[];
  series: readonly DailySeries[];
  height?: number;
}

const dayTime = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
export const formatDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * Daily figures drawn by uPlot (docs/decisions.md › "Statistics": small, fast, canvas): the text alternative is the table
 * beside it; the chart itself is a focusable group whose arrow keys (Home, End) walk the days, each day read
 * out in a live region, with uPlot's cursor on it for the eye.
 */
export default function DailyChart({ label, days, series, height = 220 }: DailyChartProps) {
  const frame = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const hintId = useId();

  useEffect(() => {
    const node = frame.current;
    if (!node) return;
    const data: uPlot.AlignedData = [days.map(dayTime), ...series.map((s) => [...s.values])];
    const chart = new uPlot(
      {
        width: Math.max(node.clientWidth, 280),
        height,
        // Days are calendar days: shown as such, in UTC, whatever the admin's time zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: '#a6abb8', grid: { stroke: 'rgba(255,255,255,0.06)' }, ticks: { stroke: 'rgba(255,255,255,0.1)' } },
          { stroke: '#a6abb8', grid: { stroke: 'rgba(255,255,255,0.06)' }, ticks: { stroke: 'rgba(255,255,255,0.1)' } },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length <= 31 } }))],
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
      },
      data,
      node,
    );
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(node.clientWidth, 280), height }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [days, series, height]);

  // The cursor follows the day chosen with the keyboard.
  useEffect(() => {
    const chart = plot.current;
    if (!chart || selected === null) return;
    const x = dayTime(days[selected]);
    const top = chart.valToPos(series[0]?.values[selected] ?? 0, 'y');
    chart.setCursor({ left: chart.valToPos(x, 'x'), top });
  }, [selected, days, series]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = days.length - 1;
    const moves: Record<string, (at: number) => number> = {
      ArrowLeft: (at) => Math.max(0, at - 1),
      ArrowRight: (at) => Math.min(last, at + 1),
      Home: () => 0,
      End: () => last,
    };
    const move = moves[event.key];
    if (!move || last < 0) return;
    event.preventDefault();
    setSelected((at) => move(at ?? last + (event.key === 'ArrowLeft' ? 1 : 0)));
  };

  const reading =
    selected === null
      ? ''
      : `${formatDay(days[selected])}: ${series
          .map((s) => `${formatNumber(s.values[selected])} ${s.values[selected] === 1 ? s.unit.one : s.unit.other}`)
          .join(', ')}`;

  return (
    <div className="daily-chart">
      <div
        ref={frame}
        className="daily-chart__plot"
        role="group"
        tabIndex={0}
        aria-label={label}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="visually-hidden">
        Use the left and right arrow keys, Home and End to read each day.
      </p>
      <p className="daily-chart__reading" aria-live="polite">
        {reading}
      </p>
    </div>
  );
}
