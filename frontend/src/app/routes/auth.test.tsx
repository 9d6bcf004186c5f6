import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makePage, makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, noContent, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);

function setup(routes: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/videos': () => makePage([]),
    '/api/auth/me': unauthorized,
    ...routes,
  });
}

async function logIn(email = 'sam@example.com', password = 'a long password') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('the header', () => {
  it('offers Log in and Sign up to a visitor, both bringing them back to this page', async () => {
    setup();

    renderRoute('/?sort=trending');

    const account = within(await screen.findByRole('navigation', { name: 'Account' }));
    expect(account.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?ref=?sort=trending');
    expect(account.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register?ref=?sort=trending');
  });

  it('offers plain links on the home page', async () => {
    setup();

    renderRoute('/');

    const account = within(await screen.findByRole('navigation', { name: 'Account' }));
    expect(account.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('shows the display name of a signed-in user, who can log out', async () => {
    const fetchMock = setup({
      '/api/auth/me': () => ({ user: makeUser({}, { display_name: 'Sam' }) }),
      '/api/auth/logout': noContent,
    });
    const user = userEvent.setup();

    renderRoute('/');

    expect(await screen.findByText('Sam')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log out' }));

    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByText('Sam')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/auth/logout' && init?.method === 'POST')).toBe(true);
  });
});

describe('the login page', () => {
  it('logs in with the labelled fields and goes to the page named by ref', async () => {
    const member = makeUser({}, { display_name: 'Sam' });
    const fetchMock = setup({ '/api/auth/login': () => ({ accessToken: 'jwt', user: member }) });

    const { router } = renderRoute('/login?ref=video/7?context=watch-later');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    await logIn();

    await waitFor(() => expect(router.state.location.pathname).toBe('/video/7'));
    expect(router.state.location.search).toBe('?context=watch-later');
    expect(sentBodies(fetchMock, '/api/auth/login')).toEqual([{ email: 'sam@example.com', password: 'a long password' }]);
    expect(fetchMock.mock.calls.find(([url]) => String(url) === '/api/auth/login')?.[1]).toMatchObject({
      credentials: 'include',
    });
    expect(await screen.findByText('Sam')).toBeInTheDocument();
  });

  it('goes home without a ref', async () => {
    setup({ '/api/auth/login': () => ({ accessToken: 'jwt', user: makeUser() }) });

    const { router } = renderRoute('/login');
    await logIn();

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it.each(['//evil.com', '/\\evil.com', 'https://evil.com/x', '\\\\evil.com'])(
    'refuses the ref %j and goes home',
    async (ref) => {
      setup({ '/api/auth/login': () => ({ accessToken: 'jwt', user: makeUser() }) });

      const { router } = renderRoute(`/login?${new URLSearchParams({ ref })}`);
      await logIn();

      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(router.state.location.search).toBe('');
    },
  );

  it("shows the API's error and stays", async () => {
    setup({ '/api/auth/login': () => json({ error: 'Invalid email or password', statusCode: 401 }, 401) });

    const { router } = renderRoute('/login?ref=video/7');
    await logIn('sam@example.com', 'wrong password');

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('links to sign-up keeping the ref', async () => {
    setup();

    renderRoute('/login?ref=video/7');

    const form = within(await screen.findByRole('form', { name: 'Log in' }));
    expect(form.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register?ref=video/7');
  });
});

describe('the register page', () => {
  it('creates the account and goes to the page named by ref', async () => {
    const fetchMock = setup({
      '/api/auth/register': () => json({ accessToken: 'jwt', user: makeUser({}, { role_id: null, display_name: 'Sam' }) }, 201),
    });
    const user = userEvent.setup();

    const { router } = renderRoute('/register?ref=video/7');
    await user.type(await screen.findByLabelText('Display name'), 'Sam');
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/video/7'));
    expect(sentBodies(fetchMock, '/api/auth/register')).toEqual([
      { displayName: 'Sam', email: 'sam@example.com', password: 'a long password' },
    ]);
  });

  it("shows the API's error", async () => {
    setup({
      '/api/auth/register': () => json({ error: 'An account with this email already exists', statusCode: 409 }, 409),
    });
    const user = userEvent.setup();

    renderRoute('/register');
    await user.type(await screen.findByLabelText('Display name'), 'Sam');
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
  });
});
