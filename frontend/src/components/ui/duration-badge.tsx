import { formatDuration } from '@hunktube/shared';

/** The video length over a thumbnail's corner. */
export function DurationBadge({ seconds }: { seconds: number | null }) {
  const known = seconds !== null && Number.isFinite(seconds) && seconds >= 0;
  return (
    <span className="duration-badge">
      {known ? (
        <>
          <span className="visually-hidden">Duration </span>
          <time dateTime={`PT${Math.floor(seconds)}S`}>{formatDuration(seconds)}</time>
        </>
      ) : (
        <>
          <span className="visually-hidden">Duration unknown</span>
          <span aria-hidden="true">{formatDuration(null)}</span>
        </>
      )}
    </span>
  );
}
