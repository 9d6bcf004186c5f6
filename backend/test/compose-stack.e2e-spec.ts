import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/**
 * The container stack as written (docker-compose.yml; this machine has no container engine to run it): the media
 * live in the bucket, no service shares a media folder, and nginx is handed every setting its templates name.
 */
const repo = path.resolve(__dirname, '../..');

interface Service {
  image?: string;
  environment?: Record<string, string> | string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

describe('the container stack (docker-compose.yml)', () => {
  const compose = parse(readFileSync(path.join(repo, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { services } = compose;
  const env = (service: string) => services[service].environment as Record<string, string>;

  it('keeps the media in an S3 bucket that the API and the worker reach with the same settings', () => {
    // The site's services; Prometheus, its nginx exporter and Grafana only with the `monitoring` profile.
    const site = Object.keys(services).filter((name) => !(services[name] as { profiles?: string[] }).profiles?.includes('monitoring'));
    expect(site.sort()).toEqual(['api', 'minio', 'nginx', 'postgres', 'redis', 'worker']);
    for (const name of ['api', 'worker']) {
      expect(env(name)).toMatchObject({ MEDIA_STORE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
      expect(services[name].depends_on?.minio).toEqual({ condition: 'service_healthy' });
    }
    const bucketOf = (name: string) => ['S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'].map((key) => env(name)[key]);
    expect(bucketOf('worker')).toEqual(bucketOf('api'));
    expect(env('minio')).toEqual({ MINIO_ROOT_USER: env('api').S3_ACCESS_KEY, MINIO_ROOT_PASSWORD: env('api').S3_SECRET_KEY });
    expect(services.minio.healthcheck?.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    expect(env('nginx')).toMatchObject({ MEDIA_STORE: 's3', S3_EDGE_HOST: 'minio:9000', S3_BUCKET: env('api').S3_BUCKET });
  });

  it('scrapes every API process with METRICS_TOKEN and nginx through its exporter, with the monitoring profile', () => {
    const monitoring = ['grafana', 'nginx-exporter', 'prometheus'];
    for (const name of monitoring) expect((services[name] as { profiles?: string[] }).profiles).toEqual(['monitoring']);
    expect(env('api').METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
    const prometheus = parse(readFileSync(path.join(repo, 'docker/prometheus/prometheus.yml'), 'utf8')) as { scrape_configs: { job_name: string; authorization?: { credentials_file: string }; dns_sd_configs?: { names: string[]; port: number }[] }[] };
    const api = prometheus.scrape_configs.find((job) => job.job_name === 'api');
    expect(api?.dns_sd_configs).toEqual([expect.objectContaining({ names: ['api'], port: 3000 })]);
    expect(api?.authorization?.credentials_file).toBe('/etc/prometheus/metrics-token');
    const worker = prometheus.scrape_configs.find((job) => job.job_name === 'worker');
    expect(worker?.dns_sd_configs).toEqual([expect.objectContaining({ names: ['worker'], port: 9464 })]);
    expect((services['nginx-exporter'] as { command: string[] }).command).toEqual(['--nginx.scrape-uri=http://nginx:8081/nginx-status']);
    // The dashboard charts the metrics GET /metrics has (test/metrics.e2e-spec.ts holds the route to them).
    const dashboard = readFileSync(path.join(repo, 'docker/grafana/dashboards/hunktube.json'), 'utf8');
    for (const metric of ['http_request_duration_seconds', 'http_requests_aborted_total', 'jobs_queued', 'job_duration_seconds', 'counter_flush_lag_seconds', 'counter_buffered_videos', 'kept_answers_total', 'rendered_pages_total', 'search_index_state', 'db_pool_connections', 'redis_fallback', 'nodejs_eventloop_lag', 'nginx_connections_active']) {
      expect(dashboard, metric).toContain(metric);
    }
  });

  it('shares no media folder between services', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['edgecache', 'objects', 'pgdata', 'prometheus']);
    const mounts = Object.entries(services).flatMap(([name, service]) => (service.volumes ?? []).map((volume) => `${name} ${volume}`));
    expect(mounts.filter((mount) => /(^|\s|:)\/?media\b/.test(mount))).toEqual([]);
  });

  it("hands nginx every variable its templates name, and substitutes no other (nginx's own $variables survive)", () => {
    const templates = path.join(repo, 'docker/nginx/templates');
    const files = readdirSync(templates, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.template'));
    const named = new Set(files.flatMap((file) => [...readFileSync(path.join(templates, file), 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1])));
    // As compose hands it over: `$$` is its spelling of one `$`.
    const filter = new RegExp(env('nginx').NGINX_ENVSUBST_FILTER.replaceAll('$$', '$'));
    expect([...named].filter((name) => !filter.test(name))).toEqual([]);
    expect([...named].filter((name) => !(name in env('nginx')))).toEqual([]);
    // The filter is anchored: it lets in no variable whose name merely contains one of these.
    expect(filter.test('MY_S3_BUCKET')).toBe(false);
  });
});
