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
