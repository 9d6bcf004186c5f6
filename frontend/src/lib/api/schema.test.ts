// @vitest-environment node
import { readFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const read = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

describe('the generated API types', () => {
  it('match the OpenAPI document (run `npm run gen:api -w frontend` after the document changes)', async () => {
    const document = JSON.parse(read('openapi.json')) as OpenAPI3;

    // The CLI that `gen:api` runs writes exactly this: the header, then the printed AST.
    const generated = COMMENT_HEADER + astToString(await openapiTS(document));

    expect(read('schema.d.ts') === generated, 'schema.d.ts is stale: run `npm run gen:api -w frontend`').toBe(true);
  }, 30_000);
});
