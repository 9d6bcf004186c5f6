import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeWatchVideo } from '@/testing/data';
import { json, mockFetch } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });
const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);

/** The API as an admin page meets it; `user` null is a visitor. */
function setup(user: User | null, routes: Routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : unauthorized()),
    '/api/videos': () => makePage([]),
    '/api/videos/7': () => makeWatchVideo({ id: 7, title: 'Pool party' }),
    '/api/get-client-ip': () => ({ ip: '203.0.113.7' }),
    '/api/categories': () => ({ data: [] }),
    '/api/performers': () => ({ data: [] }),
    '/api/admin/jobs': () => ({ data: [] }),
    ...routes,
  });
}

const robots = () => document.head.querySelector('meta[name="robots"]')?.getAttribute('content');

/** Every request that an admin page, and only an admin page, makes. */
const adminCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost').pathname)
    .filter(
      (path) =>
        path.startsWith('/api/admin') ||
        path === '/api/get-client-ip' ||
        path.startsWith('/api/videos/') ||
        path === '/api/categories' ||
        path === '/api/performers',
    );

describe('admin area: who gets in', () => {
  it('sends a visitor to log in, with the way back to the page and its query', async () => {
    setup(null);

    const { router } = renderRoute('/admin/jobs?state=failed');

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?ref=admin/jobs?state=failed');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
  });

  it('sends a visitor on an edit page to log in and back to that video', async () => {
    const fetchMock = setup(null);

    const { router } = renderRoute('/admin/videos/7');

    await waitFor(() => expect(router.state.location.search).toBe('?ref=admin/videos/7'));
    expect(router.state.location.pathname).toBe('/login');
    expect(adminCalls(fetchMock)).toEqual([]);
  });

  it('shows a loading skeleton, and no admin page, while the session is checked', async () => {
    setup(null, { '/api/auth/me': () => new Promise<Response>(() => {}) });

    renderRoute('/admin/videos/7');

    expect(await screen.findByLabelText('Loading the admin area')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Mode - Edit Video' })).not.toBeInTheDocument();
    expect(robots()).toBe('noindex');
  });

  it.each([
    ['a member', makeUser({}, { role_id: 'member' })],
    ['a user without a role yet', makeUser({}, { role_id: null })],
  ])('tells %s that the page is not allowed, without any admin call', async (_who, user) => {
    const fetchMock = setup(user);

    const { router } = renderRoute('/admin/videos/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText('This area is for admins only, and your account is not an admin account.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('href', '/');
    expect(router.state.location.pathname).toBe('/admin/videos/7');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Mode - Edit Video' })).not.toBeInTheDocument();
    expect(robots()).toBe('noindex');
    // Give any stray request time to leave before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(adminCalls(fetchMock)).toEqual([]);
  });

  it('says so when the session cannot be checked, and tries again', async () => {
    let fail = true;
    setup(admin, {
      '/api/auth/me': () => (fail ? json({ error: 'Down', statusCode: 503 }, 503) : { user: admin }),
    });

    renderRoute('/admin/videos/7');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Admin Mode - Edit Video' })).toBeInTheDocument();
  });

  it('gives an admin the admin shell: its sub-navigation, the page, and noindex', async () => {
    setup(admin);

    renderRoute('/admin/videos/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Mode - Edit Video' })).toBeInTheDocument();
    const nav = within(screen.getByRole('navigation', { name: 'Admin' }));
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin');
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(nav.getByRole('link', { name: 'Videos' })).toHaveAttribute('href', '/admin/videos');
    expect(nav.getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/admin/upload');
    expect(nav.getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/admin/jobs');
    expect(nav.getByRole('link', { name: 'Taxonomy' })).toHaveAttribute('href', '/admin/taxonomy');
    // An edit page belongs to the videos section.
    expect(nav.getByRole('link', { name: 'Videos' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Jobs' })).not.toHaveAttribute('aria-current');
    expect(robots()).toBe('noindex');
  });

  it('marks the section of the page shown', async () => {
    setup(admin);

    renderRoute('/admin/jobs');

    const nav = within(await screen.findByRole('navigation', { name: 'Admin' }));
    expect(nav.getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Videos' })).not.toHaveAttribute('aria-current');
  });
});
