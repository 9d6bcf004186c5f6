import 'reflect-metadata';
import { loadConfig } from '../../config/app-config';
import { openDataSource, dataSourceOptions } from '../data-source';
import { generateCatalog } from './catalog-generator';
import { writeCatalog } from './catalog-writer';

/** `npm run seed:catalog -- --videos N [--seed S]`: adds N synthetic videos (metadata only) to the database. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const videos = Number(arg('videos') ?? 1000);
  const seed = Number(arg('seed') ?? 42);
  if (!Number.isInteger(videos) || videos < 1 || videos > 5_000_000) {
    console.error('Usage: npm run seed:catalog -- --videos N [--seed S]   (1 ≤ N ≤ 5,000,000)');
    process.exit(2);
  }
  const config = loadConfig();
  const started = Date.now();
  const db = await openDataSource(dataSourceOptions(config));
  try {
    const catalog = generateCatalog({ videos, seed, slugTag: Date.now().toString(36) });
    const { videos: inserted } = await writeCatalog(db, catalog);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Seeded ${inserted} videos, ${catalog.categories.length} categories and ${catalog.performers.length} performers in ${seconds} s ` +
        `(${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
