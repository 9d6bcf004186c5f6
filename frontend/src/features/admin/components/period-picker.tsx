/** The periods a statistics view offers, as toggle buttons ("7 days", "30 days", "90 days"). */
export function PeriodPicker<P extends number>({ periods, value, onChange }: { periods: readonly P[]; value: P; onChange: (period: P) => void }) {
  return (
    <div className="video-stats__periods" role="group" aria-label="Period">
      {periods.map((period) => (
        <button key={period} type="button" className="button button--quiet" aria-pressed={value === period} onClick={() => onChange(period)}>
          {period} days
        </button>
      ))}
    </div>
  );
}
