import 'reflect-metadata';
import * as path from 'node:path';
import { createApp } from './app.factory';
import { drainOnSignals } from './common/lifecycle/graceful-shutdown';
import { ConfigError, loadConfig } from './config/app-config';
import { secureDataDir, UnsafeDataDirError } from './config/data-dir';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    // DATA_DIR is the server's alone (database, secrets, media sources): refused if others can write it.
    secureDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UnsafeDataDirError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config, { webRoot: path.resolve(__dirname, '../../frontend/dist') });
  drainOnSignals(app, config.shutdown);
  await app.listen(config.port, config.host);
  console.log(`${config.siteName} is up on http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`);
}

void main();
