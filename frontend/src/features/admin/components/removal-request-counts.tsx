import { Link } from 'react-router';
import type { RemovalReason, RemovalRequestList } from '@/lib/api/types';
import type { RemovalRequestListState } from '../api/get-removal-requests';

/** The reasons in the queue's order of urgency, with the short names of the filter. */
export const REASONS: { reason: RemovalReason; label: string; urgent: boolean }[] = [
  { reason: 'underage', label: 'Under 18', urgent: true },
  { reason: 'no-consent', label: 'No consent', urgent: true },
  { reason: 'illegal', label: 'Illegal acts', urgent: true },
  { reason: 'copyright', label: 'Copyright', urgent: false },
  { reason: 'other', label: 'Other', urgent: false },
];

/** Where one view of the queue lives: `/admin/removals`, with `state=closed`, `reason` and `page` when not the first. */
export function removalsPath({ state, reason, page = 1 }: { state: RemovalRequestListState; reason?: RemovalReason; page?: number }): string {
  const query = new URLSearchParams();
  if (state === 'closed') query.set('state', 'closed');
  if (reason) query.set('reason', reason);
  if (page > 1) query.set('page', String(page));
  const search = query.toString();
  return search ? `/admin/removals?${search}` : '/admin/removals';
}

interface RemovalRequestCountsProps {
  state: RemovalRequestListState;
  counts: RemovalRequestList['counts'];
  /** The reason shown, if the list is narrowed to one. */
  reason?: RemovalReason;
}

/** How many requests the list holds of each reason, each a link to those alone (from their first page). */
export function RemovalRequestCounts({ state, counts, reason }: RemovalRequestCountsProps) {
  const all = REASONS.reduce((sum, item) => sum + counts[item.reason], 0);
  const items = [
    { key: 'all', label: 'All reasons', count: all, to: removalsPath({ state }), current: !reason, urgent: false },
    ...REASONS.map((item) => ({
      key: item.reason,
      label: item.label,
      count: counts[item.reason],
      to: removalsPath({ state, reason: item.reason }),
      current: reason === item.reason,
      urgent: item.urgent,
    })),
  ];

  return (
    <nav className="removal-counts" aria-label="Removal requests by reason">
      <ul role="list">
        {items.map((item) => (
          <li key={item.key}>
            <Link
              className={`removal-counts__link${item.urgent && item.count > 0 ? ' removal-counts__link--urgent' : ''}`}
              to={item.to}
              aria-current={item.current ? 'page' : undefined}
              aria-label={`${item.label}, ${item.count} ${state}`}
            >
              {item.label} <span className="removal-counts__n">{item.count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The reason an address names (`?reason=`), if it is one. */
export const removalReasonFrom = (value: string | null): RemovalReason | undefined => REASONS.find((item) => item.reason === value)?.reason;

/** The filter's short name of a reason. */
export const reasonShortLabel = (reason: RemovalReason) => REASONS.find((item) => item.reason === reason)?.label ?? reason;
