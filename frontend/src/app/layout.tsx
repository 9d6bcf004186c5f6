import { useEffect } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation, useMatch } from 'react-router';
import { AdsProvider } from '@/features/ads/ads-provider';
import { AgeGate, useAgeGate } from '@/features/age-gate/components/age-gate';
import { UserMenu } from '@/features/auth/components/user-menu';
import { SearchForm } from '@/features/browse/components/search-form';
import { BannerSlot } from '@/lib/ad-slots';
import { announceHydrated } from '@/lib/app-hydrated';
import { useSite } from '@/lib/site';
import { DocumentTitle } from '@/lib/document-title';

export function Layout() {
  const site = useSite();
  const name = site.data?.name;
  const location = useLocation();
  const gate = useAgeGate(location.pathname);
  const watchPage = useMatch('/video/:id') !== null;

  // A page the server rendered is React's once the layout has hydrated: what the visitor clicked before is
  // clicked again (src/early.ts). The watch page's content hydrates after the rest, and it says so itself.
  useEffect(() => {
    if (!watchPage) announceHydrated();
  }, [watchPage]);

  return (
    // No ad is asked for while the 18+ gate is up.
    <AdsProvider enabled={!gate.open} embed={false}>
      {/* Until the visitor answers the 18+ gate the page behind it can be neither read nor reached by keyboard. */}
      <div className="app" inert={gate.open}>
        {/* The site's name names the pages that name themselves nothing (index.html's title until it is known). */}
        <DocumentTitle fallback>{name ?? 'Videos'}</DocumentTitle>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="site-header__inner">
            <Link className="site-header__name" to="/" aria-label={name ? undefined : 'Home'}>
              {name ?? (site.isPending ? <span className="skeleton skeleton--name" aria-hidden="true" /> : 'Home')}
            </Link>
            <nav className="site-nav" aria-label="Browse">
              <NavLink className="site-nav__link" to="/categories">
                Categories
              </NavLink>
              <NavLink className="site-nav__link" to="/performers">
                Performers
              </NavLink>
              <NavLink className="site-nav__link" to="/tags">
                Tags
              </NavLink>
            </nav>
            <SearchForm />
            <UserMenu />
          </div>
        </header>
        <main id="main" className="site-main" tabIndex={-1}>
          <Outlet />
        </main>
        <footer className="site-footer">
          <nav className="site-footer__links" aria-label="Legal">
            <Link to="/terms">Terms of service</Link>
            <Link to="/2257">18 U.S.C. 2257</Link>
            <Link to="/content-removal">Content removal</Link>
          </nav>
          <p className="site-footer__note">
            {name ?? 'This site'} is for adults only. All performers were 18 or older when filmed. Labelled with
            RTA.
          </p>
          <BannerSlot placement="banner-footer" />
        </footer>
        <ScrollRestoration />
      </div>
      {gate.open && <AgeGate siteName={name} onConfirm={gate.confirm} />}
    </AdsProvider>
  );
}
