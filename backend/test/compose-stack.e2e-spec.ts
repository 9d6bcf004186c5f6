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
    expect(Object.keys(services).sort()).toEqual(['api', 'minio', 'nginx', 'postgres', 'redis', 'worker']);
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

  it('shares no media folder between services', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['edgecache', 'objects', 'pgdata']);
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
