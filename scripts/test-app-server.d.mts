export declare const TEST_ADMIN: { email: string; password: string };
export declare const TEST_BRAND_HOST: string;
export declare const TEST_BRAND_NAME: string;
export declare function startTestApp(options?: { demoVideos?: number }): Promise<{
  baseURL: string;
  adminToken: string;
  stop: () => Promise<void>;
}>;
