import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const ENDPOINT = '/api/auth/register';
const RULES = 'At least 10 characters, not a common password, and not containing your e-mail name or your display name.';
const TOO_COMMON = 'This password is too common: choose one that others are unlikely to use';

function setup(routes: Routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => json({ error: 'Unauthorized', statusCode: 401 }, 401),
    [ENDPOINT]: () => json({ accessToken: 'jwt', user: makeUser({}, { role_id: null, display_name: 'Sam' }) }, 201),
    ...routes,
  });
}

const password = () => screen.getByLabelText('Password');

async function signUp(user: ReturnType<typeof userEvent.setup>, fields: { displayName: string; email: string; password: string }) {
  await user.type(await screen.findByLabelText('Display name'), fields.displayName);
  await user.type(screen.getByLabelText('Email'), fields.email);
  await user.type(password(), fields.password);
  await user.click(screen.getByRole('button', { name: /Sign up|Signing up…/ }));
}

describe('sign-up form: the password rules', () => {
  it('states the rules on the password field before anything is typed', async () => {
    setup();
    renderRoute('/register');

    expect(await screen.findByText(RULES)).toBeVisible();
    expect(password()).toHaveAccessibleDescription(RULES);
    expect(password()).not.toHaveAttribute('aria-invalid');
  });

  it.each([
    ['a password under 10 characters', { displayName: 'Sam', email: 'sam@example.com', password: 'k7#vq2!zw' }, 'The password must be 10 to 128 characters long'],
    [
      "a password with the e-mail address's name",
      { displayName: 'Sam', email: 'ramona.flowers@example.com', password: 'i am Ramona Flowers!' },
      "The password must not contain your e-mail address's name",
    ],
    [
      'a password with the display name, whatever its case and spaces',
      { displayName: 'Big Muscle Men', email: 'sam@example.com', password: 'BIGMUSCLEMEN forever' },
      'The password must not contain your display name',
    ],
  ])('refuses %s on the field, sending nothing', async (_case, fields, message) => {
    const fetchMock = setup();
    const user = userEvent.setup();
    renderRoute('/register');

    await signUp(user, fields);

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(password()).toHaveAttribute('aria-invalid', 'true');
    expect(password()).toHaveAccessibleDescription(`${RULES} ${message}`);
    expect(password()).toHaveFocus();
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([]);
  });

  it("shows the server's WEAK_PASSWORD message on the password field and stays", async () => {
    const fetchMock = setup({ [ENDPOINT]: () => json({ error: TOO_COMMON, errorCode: 'WEAK_PASSWORD', statusCode: 400 }, 400) });
    const user = userEvent.setup();
    const { router } = renderRoute('/register');

    await signUp(user, { displayName: 'Sam', email: 'sam@example.com', password: 'Password123' });

    expect(await screen.findByRole('alert')).toHaveTextContent(TOO_COMMON);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(password()).toHaveAttribute('aria-invalid', 'true');
    expect(password()).toHaveAccessibleDescription(`${RULES} ${TOO_COMMON}`);
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([{ displayName: 'Sam', email: 'sam@example.com', password: 'Password123' }]);
    expect(router.state.location.pathname).toBe('/register');
  });

  it('drops the message once the password is changed, and sends the new one', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    const { router } = renderRoute('/register');

    await signUp(user, { displayName: 'Sam', email: 'sam@example.com', password: 'short' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The password must be 10 to 128 characters long');

    await user.type(password(), ' and now long enough');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(password()).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([{ displayName: 'Sam', email: 'sam@example.com', password: 'short and now long enough' }]);
  });
});
