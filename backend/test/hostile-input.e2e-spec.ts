import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { AuthBudgets } from '../src/auth/auth-budgets';
import { planOperation, type OperationPlan, type RequestParts, type Role } from './helpers/hostile/cases';
import { type ChangeLog, installChangeLog } from './helpers/hostile/db-snapshot';
import type { FillContext, Fixtures, Users } from './helpers/hostile/fill';
import { createFixtures } from './helpers/hostile/fixtures';
import { listOperations, type OpenApiDocument, type Operation } from './helpers/hostile/openapi';
import { answerProblems, authHeaders, send, type Answer } from './helpers/hostile/send';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

/**
 * Hostile input, systematically (issue 12): every operation of the OpenAPI document the API serves, with and
 * without each role, each path and query parameter and header spoiled, each body field missing, mistyped,
 * oversized, with broken Unicode, control characters, huge numbers, and extra fields, and whole bodies that are
 * not what the route takes. Every answer must be a success or a 4xx in the contract's error shape, never a 5xx,
 * and a refusal must leave every table as it was. All of it is derived from the document, so a new route is
 * covered as soon as it is served; one that the generator cannot fill fails here, naming what to add.
 */

/**
 * Routes whose valid request cannot be built here at all, with the reason and the role that sends their
 * hostile cases (which still run). Empty: every route can be filled today.
 */
const CANNOT_SUCCEED: Record<string, { role: Role; reason: string }> = {
  // Its success deletes the member this suite signs in as; test/account.e2e-spec.ts covers it.
  'DELETE /api/me/account': { role: 'memberA', reason: 'deleting the account would end the suite’s member' },
};

const PASSWORD = 'correct horse battery';

describe('hostile input (e2e)', () => {
  let t: TestApp;
  let media: string;
  let doc: OpenApiDocument;
  let users: Users;
  let counter = 0;

  beforeAll(async () => {
    media = mkdtempSync(path.join(tmpdir(), 'hostile-input-'));
    t = await createTestApp({
      INGEST_WORKER: 'false',
      // Buffered counts reach the tables only on an admin's refresh-views, never between a request and its check.
      COUNTER_FLUSH_MS: '3600000',
      MEDIA_DIR: media,
      MAX_UPLOAD_BYTES: String(64 * 1024),
    });
    const admin = await registerAdmin(t);
    const [memberA, memberB] = [await registerUser(t.http), await registerUser(t.http)];
    users = { memberA, memberB, admin, password: PASSWORD };
    doc = (await request(t.http).get('/api/docs-json').expect(200)).body as OpenApiDocument;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(media, { recursive: true, force: true });
  });

  describe('the generator', () => {
    const widget = (path: string, body: object, extra: object = {}): OpenApiDocument => ({
      ...doc,
      paths: { [path]: { post: { requestBody: { content: { 'application/json': { schema: body } } }, ...extra } } },
    });

    it('derives cases for a route it has never seen, from its document alone', () => {
      const [op] = listOperations(
        widget(
          '/api/videos/{id}/hostile-widgets',
          {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', maxLength: 10 }, count: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } },
          },
          { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }, { name: 'q', in: 'query', schema: { type: 'string' } }] },
        ),
      );
      const plan = planOperation(doc, op);
      const labels = plan.cases.map((c) => c.label);
      expect(plan.problems).toEqual([]);
      expect(labels).toEqual(
        expect.arrayContaining([
          'as none', 'as memberB', 'as cookieCrossSite', 'path {id}: letters', "path {id}: unpublished video", 'query q: truncated escape',
          'query q: repeated', 'body.name: missing', 'body.name: maxLength + 1', 'body.name: lone high surrogate', 'body.name: control characters',
          'body.count: 1e400 (Infinity)', 'body.count: string "x"', 'body.tags[0]: number 0', 'body: extra field', 'whole body: invalid JSON',
          'whole body: array',
        ]),
      );
    });

    it('names a route it cannot fill instead of skipping it', () => {
      const [unknownParam] = listOperations(widget('/api/widgets/{id}', { type: 'object', properties: {} }));
      expect(planOperation(doc, unknownParam).problems).toEqual([
        expect.stringMatching(/^POST \/api\/widgets\/\{id\}: no fixture for the path parameter \{id\}.*PATH_FIXTURES/),
      ]);
      const upload: OpenApiDocument = {
        ...doc,
        paths: { '/api/widgets': { post: { requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } } } } },
      };
      expect(planOperation(doc, listOperations(upload)[0]).problems).toEqual([expect.stringMatching(/no sample for the file field "file".*FILE_SAMPLES/)]);
    });
  });

  describe('every route of the served document', () => {
    let fx: Fixtures;
    let changes: ChangeLog;
    let mark: number;
    const owners = new Map<string, Role>();
    let plans: OperationPlan[] = [];

    const ctx = (caller: TestUser | null): FillContext => ({ fx, users, caller, unique: () => ++counter });
    const userOf = (role: Role): TestUser | null => (role === 'memberA' || role === 'memberB' || role === 'admin' ? users[role] : null);

    /** Sends one request and checks the answer, and after a refusal or a read that no table changed. */
    async function attempt(op: Operation, parts: RequestParts, role: Role, owner: TestUser | null, expectStatus?: number) {
      const answer: Answer = await send(t.http, op.method, parts, authHeaders(role, users, owner));
      const { changed, mark: now } = await changes.since(mark);
      mark = now;
      const problems = answerProblems(answer);
      if (expectStatus !== undefined && answer.status !== expectStatus) problems.push(`answered ${answer.status} where the contract says ${expectStatus}`);
      // A refusal changes nothing; nor does a read, answered or not.
      if (answer.status >= 400 || op.method === 'get') {
        if (changed.length) problems.push(`${answer.status >= 400 ? `refused with ${answer.status}` : 'a read'} but changed ${changed.join(', ')}`);
      }
      // A write that succeeded may have used the fixtures up (deleted the video, renamed the category), or ended
      // a session (logout): the roles sign in again, or every later request of theirs would only test a 401.
      if (answer.status < 300 && op.method !== 'get') {
        // A token lives while its row of sessions does (and its user's): only a write that changed one of those
        // tables can have ended a session. Asking every role after every write was 10 of the suite's 110 s.
        if (changed.includes('sessions') || changed.includes('users')) await renewSessions();
        fx = await createFixtures(t.db, users);
        mark = await changes.mark();
      }
      return { answer, problems };
    }
    const describeAnswer = (a: Answer) => `${a.status} ${a.text.slice(0, 200)}`;

    /** Signs in again every role whose session a write ended. */
    async function renewSessions() {
      for (const role of ['memberA', 'memberB', 'admin'] as const) {
        const user = users[role];
        if ((await request(t.http).get('/api/auth/me').set(bearer(user))).status !== 401) continue;
        // The cases' failed sign-ins may have used up the account's budget: start it over, as a success would.
        await t.app.get(AuthBudgets).signedIn(user.email);
        const res = await request(t.http).post('/api/auth/login').send({ email: user.email, password: users.password }).expect(200);
        users[role] = { ...user, token: res.body.accessToken as string };
      }
    }

    beforeAll(async () => {
      changes = await installChangeLog(t.db);
      fx = await createFixtures(t.db, users);
      mark = await changes.mark();
      plans = listOperations(doc).map((op) => planOperation(doc, op));
    });

    it('notices a change to one row of any table (the check behind "a refusal changes nothing")', async () => {
      expect(changes.tables).toEqual(expect.arrayContaining(['users', 'videos', 'playlists', 'playlist_items', 'ingest_jobs', 'removal_requests']));
      const before = await changes.mark();
      await t.db.query(`UPDATE playlist_items SET position = position + 1 WHERE playlist_id = $1`, [fx.playlistId]);
      const moved = await changes.since(before);
      expect(moved.changed).toEqual(['playlist_items']);
      // A write that leaves every value as it was changes nothing; a row deleted and one added are changes.
      await t.db.query(`UPDATE playlist_items SET position = position WHERE playlist_id = $1`, [fx.playlistId]);
      expect((await changes.since(moved.mark)).changed).toEqual([]);
      await t.db.query(`UPDATE playlist_items SET position = position - 1 WHERE playlist_id = $1`, [fx.playlistId]);
      await t.db.query(`INSERT INTO categories (id, name) VALUES ('hostile-probe', 'Hostile probe')`);
      await t.db.query(`DELETE FROM categories WHERE id = 'hostile-probe'`);
      expect((await changes.since(moved.mark)).changed).toEqual(['categories', 'playlist_items']);
      mark = await changes.mark();
    });

    it('has a document with the routes the contract names', () => {
      const keys = plans.map((p) => p.op.key);
      expect(keys.length).toBeGreaterThanOrEqual(50);
      expect(keys).toEqual(expect.arrayContaining(['POST /api/auth/register', 'POST /api/admin/update-video', 'POST /api/admin/videos', 'PUT /api/playlists/{id}/order']));
    });

    it('builds, for every route, a valid request from the document that succeeds', async () => {
      const failures: string[] = [];
      for (const plan of plans) {
        const { op } = plan;
        if (plan.problems.length) {
          failures.push(...plan.problems);
          continue;
        }
        const tried: string[] = [];
        for (const role of ['none', 'memberA', 'admin'] as Role[]) {
          const { answer, problems } = await attempt(op, plan.baseline(ctx(userOf(role))), role, userOf(role));
          failures.push(...problems.map((p) => `${op.key} [valid request as ${role}]: ${p}: ${describeAnswer(answer)}`));
          if (answer.status < 300) {
            owners.set(op.key, role);
            break;
          }
          tried.push(`as ${role}: ${describeAnswer(answer)}`);
        }
        const allowed = CANNOT_SUCCEED[op.key];
        if (allowed) owners.set(op.key, allowed.role);
        if (!owners.has(op.key)) {
          failures.push(
            `${op.key}: no role got a success from the valid request built from the document (${tried.join(' | ')}); ` +
              'add a hint to FIELD_HINTS in test/helpers/hostile/fill.ts, or the route to CANNOT_SUCCEED with a reason',
          );
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);

    it('answers methods and paths the document does not name with a 4xx in the contract shape', async () => {
      const failures: string[] = [];
      const documented = new Set(plans.map((p) => p.op.key));
      const targets = [...new Set(plans.map((p) => p.op.path))].flatMap((template) =>
        (['get', 'post', 'put', 'patch', 'delete'] as const)
          .filter((method) => !documented.has(`${method.toUpperCase()} ${template}`))
          .map((method) => ({ method, url: template.replace(/\{[^}]+\}/g, '1') })),
      );
      targets.push({ method: 'get', url: '/api/hostile-unknown-route' }, { method: 'post', url: '/api/hostile-unknown-route' }, { method: 'get', url: '/api/%E9' });
      for (const { method, url } of targets) {
        const parts: RequestParts = { url, headers: {}, ...(method === 'get' ? {} : { body: { contentType: 'application/json', data: '{}' } }) };
        const answer = await send(t.http, method, parts, authHeaders('admin', users, users.admin));
        const problems = answerProblems(answer);
        if (answer.status < 400) problems.push('a method or path outside the document succeeded');
        failures.push(...problems.map((p) => `${method.toUpperCase()} ${url}: ${p}: ${describeAnswer(answer)}`));
      }
      expect(failures).toEqual([]);
      expect(targets.length).toBeGreaterThan(50);
    });

    it('answers every hostile request with a success or a 4xx in the contract shape; a refusal changes nothing', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const plan of plans) {
        const owner = owners.get(plan.op.key);
        if (!owner) continue; // reported by the test above
        for (const c of plan.cases) {
          const parts = c.build(ctx(userOf(owner)));
          const role = c.role ?? owner;
          const { answer, problems } = await attempt(plan.op, parts, role, userOf(owner), c.expectStatus);
          sent += 1;
          failures.push(...problems.map((p) => `${plan.op.key} [${role}] ${c.label}: ${p}: ${describeAnswer(answer)}`));
          // HOSTILE_INPUT_LOG=file: every case and its answer, one JSON line each, to see how deep the cases reach.
          if (process.env.HOSTILE_INPUT_LOG) {
            appendFileSync(process.env.HOSTILE_INPUT_LOG, `${JSON.stringify({ op: plan.op.key, role, label: c.label, status: answer.status, body: answer.text.slice(0, 160) })}\n`);
          }
        }
      }
      console.info(`hostile input: ${plans.length} operations, ${sent} hostile requests`);
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(1000);
    }, 600_000);
  });
});
