import { NavLink } from 'react-router';

const LINKS = [
  { to: '/me/bookmarks', label: 'Bookmarks' },
  { to: '/me/watch-later', label: 'Watch later' },
  { to: '/me/likes', label: 'Liked videos' },
  { to: '/me/history', label: 'History' },
  { to: '/me/following', label: 'Following' },
  { to: '/playlists', label: 'Playlists' },
] as const;

/** Tabs between the member's lists; the current one is marked (a playlist's page counts as Playlists). */
export function LibraryNav() {
  return (
    <nav className="sort-tabs library-nav" aria-label="Your lists">
      <ul role="list">
        {LINKS.map((link) => (
          <li key={link.to}>
            <NavLink className="sort-tabs__link" to={link.to}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
