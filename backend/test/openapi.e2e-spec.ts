import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from './helpers/test-app';

/** The web client's types are generated from frontend/src/lib/api/openapi.json: it must be the API's document. */
describe('The exported OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
  });
  afterAll(() => t.close());

  it('matches what the API serves (run `npm run build -w backend && npm run openapi -w backend` after changing the API)', async () => {
    const served = (await request(t.http).get('/api/docs-json').expect(200)).body;
    const exported = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/lib/api/openapi.json'), 'utf8'));
    expect(exported).toEqual(served);
  });
});

describe('The API docs of a production site', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false', API_DOCS: 'off' });
  });
  afterAll(() => t.close());

  it('are not published with API_DOCS=off (the default in production): 404 in the contract shape', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs-json']) {
      const res = await request(t.http).get(url).expect(404);
      expect(res.body).toMatchObject({ statusCode: 404 });
      expect(res.text).not.toMatch(/swagger|openapi/i);
    }
    await request(t.http).get('/api/health').expect(200);
  });
});
