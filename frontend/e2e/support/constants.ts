import { TEST_ADMIN, TEST_BRAND_HOST, TEST_BRAND_NAME } from '../../../scripts/test-app-server.mjs';

/** The admin account the app under test creates at start-up (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = TEST_ADMIN;

/** The second brand the app under test serves on its own host (BRAND_HOSTS), with its site name. */
export const BRAND_SITE = { host: TEST_BRAND_HOST, brand: 'jtg', name: TEST_BRAND_NAME } as const;

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
