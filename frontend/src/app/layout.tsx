import { Link, Outlet, ScrollRestoration } from 'react-router';
import { UserMenu } from '@/features/auth/components/user-menu';
import { useSite } from '@/lib/site';

export function Layout() {
  const site = useSite();
  const name = site.data?.name;

  return (
    <div className="app">
      {name && <title>{name}</title>}
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link className="site-header__name" to="/" aria-label={name ? undefined : 'Home'}>
            {name ?? (site.isPending ? <span className="skeleton skeleton--name" aria-hidden="true" /> : 'Home')}
          </Link>
          <UserMenu />
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <ScrollRestoration />
    </div>
  );
}
