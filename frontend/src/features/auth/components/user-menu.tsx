import { Link, useLocation } from 'react-router';
import { refFor } from '@/lib/return-path';
import { useUser } from '../api/get-user';
import { useLogout } from '../api/logout';

/** The header's account corner: the display name and Log out, or Log in / Sign up links back to this page. */
export function UserMenu() {
  const user = useUser();
  const logout = useLogout();
  const location = useLocation();

  if (user.isPending) return <span className="user-menu skeleton skeleton--name" aria-hidden="true" />;

  if (user.data) {
    return (
      <div className="user-menu">
        <span className="user-menu__name">{user.data.user_metadata.display_name}</span>
        <button
          className="button button--quiet"
          type="button"
          disabled={logout.isPending}
          onClick={() =>
            logout.mutate(undefined, { onError: (error) => console.error('Error logging out', error) })
          }
        >
          Log out
        </button>
      </div>
    );
  }

  // On the login and register pages the links keep the ref those pages already carry.
  const onAuthPage = location.pathname === '/login' || location.pathname === '/register';
  const ref = refFor(location.pathname, location.search);
  const query = onAuthPage ? location.search : ref ? `?ref=${ref}` : '';

  return (
    <nav className="user-menu" aria-label="Account">
      <Link className="button button--quiet" to={`/login${query}`}>
        Log in
      </Link>
      <Link className="button button--primary" to={`/register${query}`}>
        Sign up
      </Link>
    </nav>
  );
}
