import 'reflect-metadata';
import * as path from 'node:path';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config, { webRoot: path.resolve(__dirname, '../../frontend/dist') });
  await app.listen(config.port, config.host);
  console.log(`${config.siteName} is up on http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`);
}

void main();
