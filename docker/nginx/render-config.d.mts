export declare function renderNginxConfig(options: {
  work: string;
  key?: string;
  apiPort?: number;
  apiPorts?: number[];
  nginxPort: number;
  media: string;
  html: string;
  store?: 'disk' | 's3';
  s3?: { host: string; bucket: string; prefix: string } | null;
  env?: Record<string, string> | null;
  statusPort?: number | null;
  workerProcesses?: number | 'auto';
}): string;
