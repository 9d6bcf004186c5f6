import { Link, useSearchParams } from 'react-router';
import type { RemovalRequestListState } from '@/features/admin/api/get-removal-requests';
import { RemovalRequestList } from '@/features/admin/components/removal-request-list';
import '@/features/admin/admin-manage.css';

const LISTS: { state: RemovalRequestListState; label: string; to: string }[] = [
  { state: 'open', label: 'Open', to: '/admin/removals' },
  { state: 'closed', label: 'Closed', to: '/admin/removals?state=closed' },
];

/** /admin/removals: the content removal requests to handle (open) and the handled ones (?state=closed). */
export function AdminRemovalsRoute() {
  const [params] = useSearchParams();
  const state: RemovalRequestListState = params.get('state') === 'closed' ? 'closed' : 'open';

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
          Urgent requests (minors, consent, illegal acts) come first, then the oldest. Resolve a request once it has
          been acted on; dismiss it when no action is needed.
        </p>
      )}
      <RemovalRequestList key={state} state={state} />
    </section>
  );
}
