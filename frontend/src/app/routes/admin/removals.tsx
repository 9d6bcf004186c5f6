import { Link, useSearchParams } from 'react-router';
import type { RemovalRequestListState } from '@/features/admin/api/get-removal-requests';
import { removalReasonFrom, removalsPath } from '@/features/admin/components/removal-request-counts';
import { RemovalRequestList } from '@/features/admin/components/removal-request-list';
import '@/features/admin/admin-manage.css';

const LISTS: { state: RemovalRequestListState; label: string; to: string }[] = [
  { state: 'open', label: 'Open', to: removalsPath({ state: 'open' }) },
  { state: 'closed', label: 'Closed', to: removalsPath({ state: 'closed' }) },
];

/** A page number from the address: a whole number from 1, else the first page. */
function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/**
 * /admin/removals: the content removal requests to handle (open) and the handled ones (?state=closed), a page at a
 * time (?page=2), of every reason or one (?reason=underage).
 */
export function AdminRemovalsRoute() {
  const [params] = useSearchParams();
  const state: RemovalRequestListState = params.get('state') === 'closed' ? 'closed' : 'open';
  const reason = removalReasonFrom(params.get('reason'));
  const page = pageFrom(params.get('page'));

  return (
    <section className="admin-page" aria-labelledby="admin-removals-heading">
      <div className="admin-page__head">
        <h1 id="admin-removals-heading">Removal requests</h1>
        <nav className="sort-tabs" aria-label="Removal requests shown">
          <ul role="list">
            {LISTS.map((list) => (
              <li key={list.state}>
                <Link className="sort-tabs__link" to={list.to} aria-current={list.state === state ? 'page' : undefined}>
                  {list.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {state === 'open' && (
        <p className="removal-queue__hint">
          Urgent requests (minors, consent, illegal acts) come first; among them, those the most senders reported, then
          each sender&rsquo;s first request before their next, then the oldest. Repeats of an open request are counted on
          it. Resolve a request once it has been acted on; dismiss it when no action is needed.
        </p>
      )}
      <RemovalRequestList key={state} state={state} page={page} reason={reason} />
    </section>
  );
}
