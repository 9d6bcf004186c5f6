import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SwaggerModule } from '@nestjs/swagger';
import { createApp, openApiConfig } from '../app.factory';
import { loadConfig } from '../config/app-config';
import { withErrorCodes } from './openapi.decorators';

/**
 * `npm run openapi -w backend`: writes the OpenAPI document the API serves at /api/docs-json to
 * frontend/src/lib/api/openapi.json, from which the web client's types are generated.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', INGEST_WORKER: 'false' }), inMemoryDatabase: true };
  const app = await createApp(config);
  try {
    const document = withErrorCodes(SwaggerModule.createDocument(app, openApiConfig(config)));
    const out = path.resolve(__dirname, '../../../frontend/src/lib/api/openapi.json');
    writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`Wrote ${out}`);
  } finally {
    await app.close();
  }
}

void main();
