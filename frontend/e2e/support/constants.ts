import { TEST_ADMIN } from '../../../scripts/test-app-server.mjs';

/** The admin account the app under test creates at start-up (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = TEST_ADMIN;

/** Demo clips the app makes on its first start: enough for a related list and a next video. */
export const DEMO_VIDEOS = 3;

/** Where the run leaves its screenshots (ignored by git). */
export const SCREENSHOT_DIR = new URL('../../../test-artifacts/screenshots/', import.meta.url);

export const VIEWPORTS = {
  /** The narrowest phones in use (older Android, iPhone SE 1st gen. at 320 is rare now). */
  small: { width: 360, height: 740 },
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;
