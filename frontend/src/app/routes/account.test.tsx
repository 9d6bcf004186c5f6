import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const PASSWORD = 'correct horse battery';
const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);

/** The API of a signed-in `user` (null: a visitor) whose account DELETE accepts only PASSWORD. */
function setup(user: User | null = makeUser()) {
  let signedIn = user;
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (signedIn ? { user: signedIn } : unauthorized()),
    '/api/videos': () => makePage([makeVideo({ id: 50, title: 'Catalogue video' })]),
    '/api/me/continue-watching': () => (signedIn ? { data: [], paused: false } : unauthorized()),
    '/api/me/followed-videos': () => makePage([]),
    '/api/me/export': () =>
      new Response(JSON.stringify({ account: { email: user?.email } }), {
        headers: { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="hunk-tube-data-2026-11-26.json"' },
      }),
    '/api/me/account': (_url, init) => {
      const { password } = JSON.parse(String(init?.body)) as { password: string };
      if (password !== PASSWORD) return json({ error: 'That is not your password', errorCode: 'WRONG_PASSWORD', statusCode: 403 }, 403);
      signedIn = null;
      return new Response(null, { status: 204 });
    },
  });
}

/** The page itself (while the session loads, its frame already has the heading). */
async function accountPage() {
  await screen.findByRole('heading', { level: 2, name: 'Your data' });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the account page', () => {
  it('is in the account menu, and shows the member’s name and address', async () => {
    setup(makeUser({ email: 'sam@example.com' }, { display_name: 'Sam' }));
    const home = renderRoute('/');
    await userEvent.click(await screen.findByText('Sam'));
    expect(within(screen.getByRole('navigation', { name: 'Your account' })).getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/me/account');
    home.unmount();

    renderRoute('/me/account');
    await accountPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Your account'));
    expect(screen.getByText('sam@example.com')).toBeInTheDocument();
  });

  it('downloads the member’s data as the file the API names', async () => {
    const fetchMock = setup();
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderRoute('/me/account');
    await accountPage();
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:export', download: 'hunk-tube-data-2026-11-26.json' }]));
    expect(JSON.parse(await created[0].text())).toEqual({ account: { email: 'sam@example.com' } });
    expect(requestedUrls(fetchMock, '/api/me/export')).toHaveLength(1);
  });

  it('says so when the data cannot be prepared', async () => {
    const fetchMock = setup();
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      new URL(input, 'http://localhost').pathname === '/api/me/export' ? json({ error: 'Service unavailable', statusCode: 503 }, 503) : original(input, init),
    );
    renderRoute('/me/account');
    await accountPage();
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your data could not be prepared. Please try again.');
  });

  it('deletes the account once the password is given again, then signs out and says it is done', async () => {
    const fetchMock = setup();
    const { router } = renderRoute('/me/account');
    await accountPage();
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const field = within(dialog).getByLabelText('Your password');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('autocomplete', 'current-password');

    await userEvent.type(field, 'not my password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That is not your password.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/me/account');

    await userEvent.clear(field);
    await userEvent.type(field, PASSWORD);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Everything that was yours on this site went with it, and this browser is signed out.');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(router.state.location.pathname).toBe('/me/account');
    expect((await screen.findByText('Log in')).closest('a')).toHaveAttribute('href', expect.stringMatching(/^\/login/));
    expect(sentBodies(fetchMock, '/api/me/account')).toEqual([{ password: 'not my password' }, { password: PASSWORD }]);
    expect(fetchMock.mock.calls.filter(([input]) => String(input) === '/api/me/account').map(([, init]) => init?.method)).toEqual(['DELETE', 'DELETE']);
  }, 15_000);

  it('cancels without deleting anything', async () => {
    const fetchMock = setup();
    renderRoute('/me/account');
    await accountPage();
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestedUrls(fetchMock, '/api/me/account')).toEqual([]);
  });

  it('offers an admin no deletion', async () => {
    setup(makeUser({}, { role_id: 'admin' }));
    renderRoute('/me/account');
    await accountPage();
    expect(screen.getByText('An admin account is managed on the server: it cannot be deleted here.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });

  it('sends a visitor to log in and back', async () => {
    setup(null);
    const { router } = renderRoute('/me/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toContain('ref=');
  });
});
