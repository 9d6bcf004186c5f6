import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mediaContextModule } from './media-context';
import * as path from 'node:path';
import { slugify } from '@hunktube/shared';
import { loadConfig } from '../config/app-config';
import { JobRunner } from '../jobs/job-runner.service';
import { JobsService } from '../jobs/jobs.service';
import { StorageService } from './storage.service';
import { UploadsService } from './uploads.service';

const USAGE = 'Usage: npm run media:import -- <file> --title "Title" [--category name]... [--performer name]...';

/**
 * `npm run media:import`: imports a video file through the same pipeline as an upload, with a progress bar.
 * On the embedded database, stop the server first (PGlite belongs to one process at a time).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const values = (flag: string) => args.flatMap((a, i) => (a === `--${flag}` && args[i + 1] ? [args[i + 1]] : []));
  const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const [title] = values('title');
  if (!file || !title) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = { ...loadConfig(), ingestWorker: false, demoSeed: false };

  const app = await NestFactory.createApplicationContext(mediaContextModule(config), { logger: ['warn', 'error'] });
  try {
    const copy = await app.get(StorageService).copyIn(path.resolve(file));
    const { id, job_id: jobId } = await app.get(UploadsService).accept(copy, path.basename(file), {
      title,
      categories: values('category').map((c) => slugify(c)),
      performers: values('performer').map((p) => slugify(p)),
    });
    console.log(`Video ${id} created; ingest job ${jobId}`);

    const jobs = app.get(JobsService);
    const bar = setInterval(() => {
      void jobs.find(jobId).then((job) => {
        if (job) process.stderr.write(`\r${progressBar(job.progress)} ${job.state}   `);
      });
    }, 250);
    await app.get(JobRunner).drain();
    clearInterval(bar);
    const job = await jobs.find(jobId);
    process.stderr.write(`\r${progressBar(job?.state === 'done' ? 100 : 0)} ${job?.state}   \n`);
    if (job?.state !== 'done') {
      console.error(`The import failed: ${job?.error ?? 'unknown error'}`);
      process.exitCode = 1;
    } else {
      console.log(`Video ${id} is ready.`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await app.close();
  }
}

export function progressBar(percent: number, width = 30): string {
  const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(percent)).padStart(3)}%`;
}

if (require.main === module) void main();
