import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makePage, makeSite, makeUser } from '@/testing/data';
import { json, mockFetch } from '@/testing/mock-fetch';
import { APP_HYDRATED_EVENT } from '@/lib/app-hydrated';
import { renderRoute } from '@/testing/render-route';

const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);

function setup(me: () => unknown = unauthorized) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': me,
    '/api/videos': () => makePage([]),
  });
}

describe('the 18+ gate', () => {
  it('covers the page on a first visit, leaving it inert until the visitor answers', async () => {
    window.localStorage.removeItem('age_confirmed');
    setup();
    renderRoute('/');

    const gate = await screen.findByRole('dialog', { name: 'Hunk Tube is an adult website' });
    expect(gate).toHaveAccessibleDescription(/sexually explicit material/);
    expect(document.querySelector('.app')).toHaveAttribute('inert');
    expect(within(gate).getByRole('button', { name: 'I am 18 or older – Enter' })).toHaveFocus();
    expect(within(gate).getByRole('link', { name: 'I am under 18 – Leave' })).toHaveAttribute('href', 'https://www.google.com/');
    expect(within(gate).getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/terms');
  });

  it('is not dismissed by Escape', async () => {
    window.localStorage.removeItem('age_confirmed');
    setup();
    renderRoute('/');
    const gate = await screen.findByRole('dialog', { name: /adult website/ });
    fireEvent.keyDown(gate, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: /adult website/ })).toBeInTheDocument();
  });

  it('remembers the answer on this device, so it never shows again', async () => {
    window.localStorage.removeItem('age_confirmed');
    setup();
    const user = userEvent.setup();
    const first = renderRoute('/');

    await user.click(await screen.findByRole('button', { name: 'I am 18 or older – Enter' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.querySelector('.app')).not.toHaveAttribute('inert');
    expect(window.localStorage.getItem('age_confirmed')).toBe('true');
    first.unmount();

    renderRoute('/categories');
    await screen.findByRole('heading', { level: 1, name: 'Categories' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('tells the server the answer with a cookie, so that its rendered pages come without the gate', async () => {
    const clearCookie = () => (document.cookie = 'age_confirmed=; Max-Age=0; Path=/');
    clearCookie();
    window.localStorage.removeItem('age_confirmed');
    setup();
    const user = userEvent.setup();
    const first = renderRoute('/');
    expect(document.cookie).not.toContain('age_confirmed=true');
    await user.click(await screen.findByRole('button', { name: 'I am 18 or older – Enter' }));
    expect(document.cookie).toContain('age_confirmed=true');
    first.unmount();

    // Answered before the cookie existed: it is written on the next page.
    clearCookie();
    renderRoute('/categories');
    await screen.findByRole('heading', { level: 1, name: 'Categories' });
    await waitFor(() => expect(document.cookie).toContain('age_confirmed=true'));
    clearCookie();
  });

  it.each(['/terms', '/2257', '/content-removal'])('leaves %s readable without an answer', async (path) => {
    window.localStorage.removeItem('age_confirmed');
    setup();
    renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('carries the RTA label in the page head', async () => {
    // index.html is what every page is served from; its head holds the label for crawlers and filters.
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const html = readFileSync(resolve(process.cwd(), 'index.html'), 'utf8');
    expect(html).toContain('<meta name="rating" content="RTA-5042-1996-1400-1577-RTA" />');
    expect(html).not.toContain('noindex');
  });
});

describe('the footer', () => {
  it('links the terms, the 2257 statement and content removal on every page', async () => {
    setup();
    renderRoute('/');
    const nav = await screen.findByRole('navigation', { name: 'Legal' });
    expect(within(nav).getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/terms');
    expect(within(nav).getByRole('link', { name: '18 U.S.C. 2257' })).toHaveAttribute('href', '/2257');
    expect(within(nav).getByRole('link', { name: 'Content removal' })).toHaveAttribute('href', '/content-removal');
  });

  it('shows the 2257 statement with the site name', async () => {
    setup();
    renderRoute('/2257');
    expect(await screen.findByRole('heading', { level: 1, name: /2257 record-keeping/ })).toBeInTheDocument();
    expect(await screen.findByText(/sexually explicit conduct on Hunk Tube were over the age of eighteen/)).toBeInTheDocument();
  });
});

describe('the account menu', () => {
  it("links a member's lists, and not the admin pages", async () => {
    setup(() => ({ user: makeUser({}, { display_name: 'Sam', role_id: 'member' }) }));
    renderRoute('/');
    const menu = await screen.findByRole('navigation', { name: 'Your account', hidden: true });
    const links = within(menu).getAllByRole('link', { hidden: true });
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Playlists', '/playlists'],
      ['Watch later', '/me/watch-later'],
      ['Bookmarks', '/me/bookmarks'],
      ['Liked videos', '/me/likes'],
      ['History', '/me/history'],
      ['Hidden topics', '/me/hidden'],
      ['Your account', '/me/account'],
    ]);
  });

  it('adds the admin pages for an admin', async () => {
    setup(() => ({ user: makeUser({}, { display_name: 'Boss', role_id: 'admin' }) }));
    renderRoute('/');
    const menu = await screen.findByRole('navigation', { name: 'Your account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Admin', hidden: true })).toHaveAttribute('href', '/admin');
  });

  it('opens from the name and closes on Escape, giving the focus back', async () => {
    setup(() => ({ user: makeUser({}, { display_name: 'Sam', role_id: 'member' }) }));
    const user = userEvent.setup();
    renderRoute('/');
    const summary = (await screen.findByText('Sam')).closest('summary') as HTMLElement;
    const details = summary.closest('details') as HTMLDetailsElement;
    await user.click(summary);
    expect(details.open).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(details.open).toBe(false));
    expect(summary).toHaveFocus();
  });
});

describe('search engines', () => {
  it.each(['/login', '/register', '/me/bookmarks', '/search?q=gym'])('are asked not to index %s', async (url) => {
    setup(() => ({ user: makeUser({}, { display_name: 'Sam', role_id: 'member' }) }));
    renderRoute(url);
    await waitFor(() => expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex'));
  });

  it.each(['/', '/categories', '/terms'])('may index %s', async (url) => {
    setup();
    renderRoute(url);
    await screen.findByRole('heading', { level: 1 });
    expect(document.querySelector('meta[name="robots"]')).toBeNull();
  });
});

describe('the page the server rendered', () => {
  /** How many times the app said it answers the page (src/early.ts then clicks again what was clicked before). */
  function listen() {
    const heard = { count: 0 };
    const listener = () => (heard.count += 1);
    document.addEventListener(APP_HYDRATED_EVENT, listener);
    onTestFinished(() => document.removeEventListener(APP_HYDRATED_EVENT, listener));
    return heard;
  }

  it('is answered once the layout is drawn', async () => {
    const heard = listen();
    setup();
    renderRoute('/categories');
    // The signal comes from the layout's effect, after the heading is drawn: wait for the signal itself.
    await waitFor(() => expect(heard.count).toBe(1));
    await act(async () => undefined);
    expect(heard.count).toBe(1);
  });

  it('is answered by the watch page itself, once its video is drawn (its content comes after the layout)', async () => {
    const heard = listen();
    mockFetch({ '/api/site': () => makeSite(), '/api/auth/me': unauthorized, '/api/videos/7': () => new Promise(() => undefined) });
    const { container } = renderRoute('/video/7');
    await waitFor(() => expect(container.querySelector('.site-header')).not.toBeNull());
    await screen.findByLabelText('Loading the video');
    expect(heard.count).toBe(0);
  });
});
