import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { refFor } from '@/lib/return-path';
import { useUser } from '../api/get-user';
import { useLogout } from '../api/logout';

/** The header's account corner: the display name and Log out, or Log in / Sign up links back to this page. */
export function UserMenu() {
  const user = useUser();
  const logout = useLogout();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute('open');

  // Another page closes the menu; so do a click outside it and Escape.
  useEffect(close, [location.key]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.current?.open) return;
      close();
      menu.current.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  if (user.isPending) return <span className="user-menu skeleton skeleton--name" aria-hidden="true" />;

  if (user.data) {
    const isAdmin = user.data.user_metadata.role_id === 'admin';
    return (
      // A disclosure rather than an ARIA menu: plain links and a button, reachable with Tab, closed by a choice.
      <details className="user-menu" ref={menu}>
        <summary className="user-menu__toggle">
          <span className="user-menu__name">{user.data.user_metadata.display_name}</span>
          <svg className="user-menu__caret" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="m7 10 5 5 5-5" />
          </svg>
        </summary>
        <nav className="user-menu__panel" aria-label="Your account" onClick={close}>
          <Link to="/playlists">Playlists</Link>
          <Link to="/me/watch-later">Watch later</Link>
          <Link to="/me/bookmarks">Bookmarks</Link>
          <Link to="/me/likes">Liked videos</Link>
          <Link to="/me/history">History</Link>
          <Link to="/me/hidden">Hidden topics</Link>
          <Link to="/me/account">Your account</Link>
          {isAdmin && <Link to="/admin">Admin</Link>}
          <button
            className="user-menu__logout"
            type="button"
            disabled={logout.isPending}
            onClick={() =>
              logout.mutate(undefined, { onError: (error) => console.error('Error logging out', error) })
            }
          >
            Log out
          </button>
        </nav>
      </details>
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
