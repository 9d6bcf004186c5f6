import type { TestProject } from 'vitest/node';
import { startTestApp } from '../../../scripts/test-app-server.mjs';
import { DEMO_VIDEOS } from './constants';

/**
 * Starts the built app on a fresh embedded database with a few demo clips (see scripts/test-app-server.mjs)
 * and hands its address to the tests; stops it and removes its data afterwards.
 */
export default async function setup(project: TestProject) {
  // While writing tests: E2E_BASE_URL points the run at an app that is already up (with the same admin account).
  if (process.env.E2E_BASE_URL) {
    project.provide('baseURL', process.env.E2E_BASE_URL);
    return;
  }
  const app = await startTestApp({ demoVideos: DEMO_VIDEOS });
  project.provide('baseURL', app.baseURL);
  return app.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}
