import { createHmac } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';
import type { TestUser } from '../test-app';
import type { RequestParts, Role } from './cases';
import type { Users } from './fill';

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** The body fields a failure may carry (api-contract.md, Conventions). */
const ERROR_KEYS = new Set(['error', 'errorCode', 'statusCode']);

/** What is wrong with an answer: a 5xx, anything but a success or a 4xx, or a 4xx not in the contract's shape. */
export function answerProblems(answer: Answer): string[] {
  const { status } = answer;
  if (status >= 500) return [`answered ${status}`];
  if (status < 200 || (status >= 300 && status < 400)) return [`answered ${status}, neither a success nor a refusal`];
  if (status < 400) return [];
  if (!answer.contentType.includes('application/json')) return [`${status} with content type "${answer.contentType}", not JSON`];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${status} with a body that is not JSON`];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`${status} with a body that is not an object`];
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) problems.push(`${status} body has fields outside the contract's shape: ${extra.join(', ')}`);
  if (typeof b.error !== 'string' || !b.error.trim()) problems.push(`${status} body has no "error" text`);
  if (b.statusCode !== status) problems.push(`${status} body says statusCode ${JSON.stringify(b.statusCode)}`);
  if ('errorCode' in b && typeof b.errorCode !== 'string') problems.push(`${status} body has a non-string errorCode`);
  return problems;
}

/** A well-formed token for member A, signed with a key the server does not have. */
export function forgedToken(user: TestUser): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: user.id, role: 'admin', exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${head}.${createHmac('sha256', 'not-the-server-secret-not-the-server-secret').update(head).digest('base64url')}`;
}

/** The headers that make `role` the sender; `owner` is whose cookie the cookie roles carry. */
export function authHeaders(role: Role, users: Users, owner: TestUser | null): Record<string, string> {
  const cookieUser = owner ?? users.memberA;
  switch (role) {
    case 'none':
      return {};
    case 'memberA':
    case 'memberB':
    case 'admin':
      return { Authorization: `Bearer ${users[role].token}` };
    case 'forgedToken':
      return { Authorization: `Bearer ${forgedToken(users.memberA)}` };
    case 'cookie':
      return { Cookie: `access_token=${cookieUser.token}` };
    case 'cookieCrossSite':
      return { Cookie: `access_token=${cookieUser.token}`, Origin: 'http://evil.example' };
  }
}

export async function send(http: App, method: string, parts: RequestParts, auth: Record<string, string>): Promise<Answer> {
  let req = request(http)[method as 'get'](parts.url);
  for (const [name, value] of Object.entries({ ...parts.headers, ...auth })) req = req.set(name, value);
  if (parts.body) req = req.set('Content-Type', parts.body.contentType).send(parts.body.data);
  // The raw text, whatever the content type says: the check parses it itself.
  const res = await req.buffer(true).parse((response, done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(null, text));
  });
  return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), text: typeof res.body === 'string' ? res.body : '' };
}
