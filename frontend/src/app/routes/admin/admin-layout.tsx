import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useUser } from '@/features/auth/api/get-user';
import { useOpenRemovalRequestCount } from '@/features/admin/api/get-removal-requests';
import { AdminNoticeProvider } from '@/features/admin/components/admin-notice';
import { loginHref } from '@/lib/return-path';
import '@/features/admin/admin.css';
import { DocumentTitle } from '@/lib/document-title';

const SECTIONS = [
  { to: '/admin', label: 'Dashboard', matches: (path: string) => path === '/admin' || path === '/admin/' },
  { to: '/admin/videos', label: 'Videos', matches: (path: string) => path.startsWith('/admin/videos') },
  { to: '/admin/upload', label: 'Upload', matches: (path: string) => path.startsWith('/admin/upload') },
  { to: '/admin/jobs', label: 'Jobs', matches: (path: string) => path.startsWith('/admin/jobs') },
  { to: '/admin/removals', label: 'Removals', matches: (path: string) => path.startsWith('/admin/removals') },
  { to: '/admin/taxonomy', label: 'Taxonomy', matches: (path: string) => path.startsWith('/admin/taxonomy') },
  { to: '/admin/ads', label: 'Ads', matches: (path: string) => path.startsWith('/admin/ads') },
];

/** Admin pages stay out of search engines, whoever asks for them. */
const NoIndex = () => <meta name="robots" content="noindex" />;

/**
 * The gate and shell of every /admin page: a visitor is sent to log in (and brought back), a signed-in user who
 * is not an admin is told so without any admin call, and an admin gets the sub-navigation, the notices and the
 * page itself.
 */
export function AdminLayoutRoute() {
  const user = useUser();
  const location = useLocation();

  if (user.isPending) {
    return (
      <div className="admin" aria-busy="true" aria-label="Loading the admin area">
        <NoIndex />
        <div className="skeleton admin-skeleton__nav" />
        <div className="skeleton skeleton--line skeleton--short" />
        <div className="skeleton admin-skeleton__block" />
      </div>
    );
  }

  if (user.isError) {
    return (
      <section className="message-page" role="alert">
        <NoIndex />
        <DocumentTitle>Admin</DocumentTitle>
        <h1>Something went wrong</h1>
        <p>Your session could not be checked.</p>
        <button className="button" type="button" onClick={() => void user.refetch()}>
          Try again
        </button>
      </section>
    );
  }

  if (!user.data) return <Navigate to={loginHref(location.pathname, location.search)} replace />;

  if (user.data.user_metadata.role_id !== 'admin') {
    return (
      <section className="message-page">
        <NoIndex />
        <DocumentTitle>Not allowed</DocumentTitle>
        <h1>Not allowed</h1>
        <p>This area is for admins only, and your account is not an admin account.</p>
        <Link className="button" to="/">
          Back to the videos
        </Link>
      </section>
    );
  }

  return <AdminShell pathname={location.pathname} />;
}

/** The admin's shell: the sub-navigation (with the number of open removal requests), the notices and the page. */
function AdminShell({ pathname }: { pathname: string }) {
  const openRemovals = useOpenRemovalRequestCount();

  return (
    <AdminNoticeProvider>
      <div className="admin">
        <NoIndex />
        <nav className="admin-nav" aria-label="Admin">
          <ul>
            {SECTIONS.map((section) => {
              const count = section.to === '/admin/removals' && openRemovals ? openRemovals : 0;
              return (
                <li key={section.to}>
                  <Link
                    className="admin-nav__link"
                    to={section.to}
                    aria-current={section.matches(pathname) ? 'page' : undefined}
                    aria-label={count > 0 ? `${section.label}, ${count} open` : undefined}
                  >
                    {section.label}
                    {/* A space between: the name (aria-label) holds the visible text, "Removals 3" (WCAG 2.5.3). */}
                    {count > 0 && <> <span className="admin-nav__count">{count}</span></>}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <Outlet />
      </div>
    </AdminNoticeProvider>
  );
}
