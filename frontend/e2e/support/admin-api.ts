import { baseURL } from './browser';
import { ADMIN } from './constants';

let accessToken: string | undefined;

async function logIn(): Promise<string> {
  const login = await fetch(`${baseURL()}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`The admin's login: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

/**
 * A call to the API as the admin the app under test creates (test fixtures made through the API, as an admin
 * would): the answer's JSON, or null for none; any status but 2xx throws. The session is reused, and opened
 * again once when it has ended (another test logged that admin out).
 */
export async function asAdmin<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const send = async () =>
    fetch(`${baseURL()}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${(accessToken ??= await logIn())}` },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  let res = await send();
  if (res.status === 401) {
    accessToken = await logIn();
    res = await send();
  }
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json().catch(() => null)) as T;
}
