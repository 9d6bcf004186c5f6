export interface StackProcess {
  name: string;
  service: 'api' | 'worker';
  command: string[];
  port?: number;
  metricsPort?: number;
  env: Record<string, string>;
}
export interface ComposeFile {
  services: Record<string, { environment?: Record<string, string | null>; command?: string[]; profiles?: string[] }>;
}
export declare function interpolate(text: string, vars: Record<string, string | undefined>): string;
export declare function readCompose(file?: string): ComposeFile;
export declare function stackServices(compose: ComposeFile): string[];
export declare const ADDRESS_SETTINGS: string[];
export declare const PROCESS_SETTINGS: string[];
export declare function describeStack(
  compose: ComposeFile,
  options: {
    vars: Record<string, string | undefined>;
    local: { dir: string; databaseUrl: string; redisUrl: string; s3Endpoint: string; apiPort: number; workerMetricsPort: number; statusPort: number };
    api?: number;
    workers?: number;
  },
): { processes: StackProcess[]; nginx: { env: Record<string, string>; statusPort: number } };
