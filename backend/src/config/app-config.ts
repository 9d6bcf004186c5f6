import { BRANDS, passwordProblem, type Brand } from '@hunktube/shared';
import { commonPasswords } from '@hunktube/shared/common-passwords';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { isIP } from 'node:net';
import * as path from 'node:path';
import { type InstallSecrets, installSecrets, PROCESS_SECRETS } from './install-secrets';

/** Raised when the environment cannot be turned into valid settings; the message names each bad variable. */
export class ConfigError extends Error {}


const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const v = String(value).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return value;
};
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The raw environment as validated; only this folder reads process.env. */
class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'development';

  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @Transform(trimmed) @IsString()
  HOST = '0.0.0.0';

  @Transform(trimmed) @IsString() @MinLength(1)
  DATA_DIR = './data';

  @IsOptional() @Transform(trimmed) @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional() @Transform(trimmed) @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @Transform(trimmed) @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'REDIS_PREFIX must be 1 to 64 letters, digits, :, _ or -' })
  REDIS_PREFIX = 'hunktube:';

  @IsOptional() @IsString() @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET?: string;

  @Transform(toInt) @IsInt() @Min(60) @Max(60 * 60 * 24 * 90)
  JWT_TTL_SECONDS = 60 * 60 * 24 * 7;

  @IsIn(BRANDS)
  BRAND = 'default';

  @Transform(trimmed) @IsString() @MinLength(1)
  SITE_NAME = 'HunkTube';

  /**
   * Brands by host (`https://atg.example=atg,jtg.example:8443=jtg`): each host serves its brand, on the origin the
   * entry names (a bare host takes PUBLIC_URL's scheme); every other host is the main site, BRAND's.
   */
  @Transform(trimmed) @IsString()
  BRAND_HOSTS = '';

  /** Each brand's site name (`atg=ATG Tube,jtg=JTG`); a brand not named uses SITE_NAME. */
  @Transform(trimmed) @IsString()
  BRAND_SITE_NAMES = '';

  @IsOptional() @Transform(trimmed) @IsString()
  MEDIA_DIR?: string;

  /** Where media lives: `disk` (MEDIA_DIR) or `s3` (a bucket, S3_*): docs/media.md › "Object storage". */
  @IsIn(['disk', 's3'])
  MEDIA_STORE = 'disk';

  @IsOptional() @Transform(trimmed) @Matches(/^https?:\/\/[^\s/?#]+\/?$/, { message: 'S3_ENDPOINT must be an http(s) origin, like http://127.0.0.1:9000' })
  S3_ENDPOINT?: string;

  @Transform(trimmed) @Matches(/^[a-z0-9-]{1,32}$/, { message: 'S3_REGION must be a region name, like us-east-1' })
  S3_REGION = 'us-east-1';

  /** S3's rule for bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
  @IsOptional() @Transform(trimmed) @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens' })
  S3_BUCKET?: string;

  @IsOptional() @Transform(trimmed) @IsString()
  S3_ACCESS_KEY?: string;

  @IsOptional() @IsString()
  S3_SECRET_KEY?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  S3_FORCE_PATH_STYLE?: boolean;

  /** Put before every key (`site-a/`), so that several sites can share a bucket. */
  @Transform(trimmed) @Matches(/^(|([A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\/?)$/, { message: 'S3_PREFIX must be empty or folder names of letters, digits, dots, hyphens and underscores, like site-a/' })
  S3_PREFIX = '';

  /** New ingests' HLS encrypted with AES-128, each video with its own key (docs/media.md › Encrypted HLS). */
  @IsIn(['on', 'off'])
  HLS_ENCRYPTION = 'on';

  /** The secret the HLS keys are wrapped with (HKDF); empty: derived from JWT_SECRET. */
  @IsOptional() @IsString() @MinLength(32, { message: 'HLS_KEY_SECRET must be at least 32 characters' })
  HLS_KEY_SECRET?: string;

  @Transform(trimmed) @IsString()
  MEDIA_HOSTS = '';

  @Transform(trimmed) @Matches(/^(|https?:\/\/[^\s/]+(\/[^\s]*)?)$/, { message: 'IMAGE_HOST must be empty or an http(s) URL' })
  IMAGE_HOST = '';

  @IsOptional() @IsString() @MinLength(16, { message: 'MEDIA_SIGNING_KEY must be at least 16 characters' })
  @Matches(/^[^\s"]+$/, { message: 'MEDIA_SIGNING_KEY must not contain spaces or quotes' })
  MEDIA_SIGNING_KEY?: string;

  @IsOptional() @Transform(trimmed) @Matches(/^https?:\/\/[^\s/?#]+\/?$/, { message: 'PUBLIC_URL must be an http(s) origin, like https://hunktube.example' })
  PUBLIC_URL?: string;

  @Transform(trimmed) @IsString()
  TRUST_PROXY = '';

  @IsOptional() @Transform(trimmed) @Matches(/^[^\s@]+@[^\s@]+$/, { message: 'ADMIN_EMAIL must be an email address' })
  ADMIN_EMAIL?: string;

  /** Follows the password rule of registration (checked in loadConfig, with ADMIN_EMAIL's name). */
  @IsOptional() @IsString()
  ADMIN_PASSWORD?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  DEMO_SEED?: boolean;

  @Transform(toInt) @IsInt() @Min(1) @Max(24)
  DEMO_SEED_VIDEOS = 24;

  @Transform(toInt) @IsInt() @Min(100) @Max(3_600_000)
  COUNTER_FLUSH_MS = 5000;

  /** The bearer token `GET /metrics` asks for; empty: no metrics route. */
  @IsOptional() @IsString() @Matches(/^(|[A-Za-z0-9._~+/=-]{16,})$/, { message: 'METRICS_TOKEN must be empty or at least 16 characters of letters, digits and ._~+/=-' })
  METRICS_TOKEN?: string;

  /** Where `npm run worker` serves its own `GET /metrics` when METRICS_TOKEN is set. */
  @Transform(toInt) @IsInt() @Min(1) @Max(65535)
  WORKER_METRICS_PORT = 9464;

  /** On SIGTERM, how long readiness fails before the listener closes, so that a balancer stops sending first. */
  @Transform(toInt) @IsInt() @Min(0) @Max(120_000)
  SHUTDOWN_DRAIN_MS = 0;

  /** On SIGTERM, how long requests in flight may take to finish once the listener is closed. */
  @Transform(toInt) @IsInt() @Min(0) @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 25_000;

  @IsOptional() @Transform(toBool) @IsBoolean()
  INGEST_WORKER?: boolean;

  @Transform(toInt) @IsInt() @Min(1024)
  MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

  @IsOptional() @Transform(trimmed) @IsString()
  FFMPEG_PATH?: string;

  @IsOptional() @Transform(trimmed) @IsString()
  FFPROBE_PATH?: string;

  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_AUTH = 10;

  /** Sign-ins and registrations per minute from all addresses together; by default 30 × RATE_LIMIT_AUTH. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_AUTH_GLOBAL?: number;

  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_WRITE = 600;

  /** Reads (pages and API GETs; not media, built files or health) per minute per network, in each API process. */
  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_READ = 3000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsIn(['on', 'off'])
  CATALOGUE_CACHE = 'on';

  /** Title search is answered from memory once the catalogue has this many published videos (0: always). */
  @Transform(toInt) @IsInt() @Min(0)
  SEARCH_INDEX_MIN_VIDEOS = 10_000;

  /** URLs per sitemap file: at most the sitemap protocol's 50,000 (tests lower it). */
  @Transform(toInt) @IsInt() @Min(1) @Max(50_000)
  SITEMAP_URLS_PER_FILE = 50_000;

  /** The OpenAPI viewer and document (/api/docs, /api/docs-json): on by default, off by default in production. */
  @IsOptional() @IsIn(['on', 'off'])
  API_DOCS?: 'on' | 'off';
}

/** Every environment variable the app reads. */
export const SETTING_NAMES = [
  'NODE_ENV', 'PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'JWT_SECRET', 'JWT_TTL_SECONDS', 'BRAND',
  'SITE_NAME', 'BRAND_HOSTS', 'BRAND_SITE_NAMES', 'MEDIA_DIR', 'MEDIA_STORE', 'S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX', 'HLS_ENCRYPTION', 'HLS_KEY_SECRET', 'MEDIA_HOSTS', 'IMAGE_HOST', 'MEDIA_SIGNING_KEY', 'PUBLIC_URL', 'TRUST_PROXY', 'ADMIN_EMAIL',
  'ADMIN_PASSWORD', 'DEMO_SEED', 'DEMO_SEED_VIDEOS', 'COUNTER_FLUSH_MS', 'SHUTDOWN_DRAIN_MS', 'SHUTDOWN_TIMEOUT_MS', 'METRICS_TOKEN', 'WORKER_METRICS_PORT', 'INGEST_WORKER', 'MAX_UPLOAD_BYTES', 'FFMPEG_PATH', 'FFPROBE_PATH', 'RATE_LIMIT_AUTH', 'RATE_LIMIT_AUTH_GLOBAL', 'RATE_LIMIT_WRITE', 'RATE_LIMIT_READ', 'LOG_LEVEL',
  'CATALOGUE_CACHE', 'SEARCH_INDEX_MIN_VIDEOS', 'SITEMAP_URLS_PER_FILE', 'API_DOCS',
] as const satisfies readonly (keyof EnvironmentVariables)[];

/** The brands, one source for the API and the web client (`@hunktube/shared`); re-exported for the config's readers. */
export { BRANDS, type Brand };

/** The validated, typed settings every module reads. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Prefix of every Redis key, so that several deployments (or test runs) can share one server. */
  redisPrefix: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  brand: Brand;
  siteName: string;
  /** BRAND_HOSTS: host names (lower case; with a port when the entry has one) to the brand they serve. */
  brandHosts: Record<string, Brand>;
  /**
   * BRAND_HOSTS: each entry's public origin (`https://atg.example`), by the same key as `brandHosts`: what a brand
   * host's pages, sitemaps and embed codes are written with, whatever Host or port a request named.
   */
  brandOrigins: Record<string, string>;
  /** BRAND_SITE_NAMES: the site name of each brand that has its own. */
  brandSiteNames: Partial<Record<Brand, string>>;
  mediaDir: string;
  /**
   * MEDIA_STORE and S3_*: the store new media is written to, and the bucket with `s3`. With `disk`, the bucket
   * when S3_BUCKET is set: where videos moved there are read from (`npm run media:migrate`).
   */
  mediaStore: { driver: 'disk'; s3?: S3Settings } | { driver: 's3'; s3: S3Settings };
  /** HLS_ENCRYPTION: whether new ingests encrypt their segments (AES-128, one key per video). */
  hlsEncryption: boolean;
  /** HLS_KEY_SECRET, or JWT_SECRET when not set: what the keys are wrapped with in the database. */
  hlsKeySecret: string;
  mediaHosts: { '1': string; '2': string; default: string };
  imageHost: string;
  mediaSigningKey: string;
  /**
   * The main site's public origin (PUBLIC_URL, `https://hunktube.example`): the only origin, with the brand hosts'
   * own, that its pages, sitemaps and embed codes are written with (never the request's Host or
   * X-Forwarded-Proto). Required in production; elsewhere `http://localhost:{PORT}` when not set.
   */
  publicUrl: string;
  /** Proxy addresses or ranges trusted for X-Forwarded-For; empty: trust none. */
  trustProxy: string[];
  admin: { email: string; password: string } | null;
  demoSeed: boolean;
  /** How many demo videos the first start makes (the end-to-end tests use a few). */
  demoSeedVideos: number;
  rateLimits: { auth: number; authGlobal: number; write: number; read: number };
  /** How often buffered view, like and trending counts are written to the database. */
  counterFlushMs: number;
  /** SHUTDOWN_DRAIN_MS and SHUTDOWN_TIMEOUT_MS: the drain on SIGTERM (common/lifecycle/graceful-shutdown.ts). */
  shutdown: { drainMs: number; timeoutMs: number };
  /** METRICS_TOKEN: what `GET /metrics` asks for; empty: the route is off. */
  metricsToken: string;
  /** WORKER_METRICS_PORT: the worker's metrics port. */
  workerMetricsPort: number;
  /** Run ingest jobs in this process (embedded mode); the container stack runs them in `npm run worker`. */
  ingestWorker: boolean;
  maxUploadBytes: number;
  /** ffmpeg and ffprobe binaries; null: the ones inside the npm packages. */
  ffmpegPath: string | null;
  ffprobePath: string | null;
  logLevel: string;
  /**
   * The catalogue's in-memory caches (rows, listing pages, totals, related, taxonomy lists); off only to measure
   * the database's own speed (`npm run bench:catalogue`).
   */
  catalogueCache: boolean;
  /** Published videos from which title search is answered from memory (SearchIndex); below, by the database. */
  searchIndexMinVideos: number;
  /** URLs per sitemap file (SITEMAP_URLS_PER_FILE, 1 to 50,000): video files cover blocks of this many ids. */
  sitemapUrlsPerFile: number;
  /** Whether /api/docs and /api/docs-json are served (API_DOCS; off in production unless set on). */
  apiDocs: boolean;
  /** For tests: an in-memory PGlite instead of DATA_DIR. */
  inMemoryDatabase: boolean;
  /**
   * For tests: the in-memory PGlite starts from this dump of a migrated database (PGlite's `dumpDataDir`), so
   * that a run makes a new database and migrates it once, not once per app (backend/test/helpers/test-app.ts).
   */
  inMemorySnapshot?: Blob;
}

/**
 * MEDIA_STORE, and the bucket whenever S3_BUCKET is set: with MEDIA_STORE=disk, the bucket is where videos moved
 * by `npm run media:migrate -- --to s3` are read from (docs/media.md › "Moving media").
 */
function mediaStoreOf(vars: EnvironmentVariables): AppConfig['mediaStore'] {
  const s3: S3Settings | undefined = vars.S3_BUCKET
    ? {
        endpoint: (vars.S3_ENDPOINT ?? '').replace(/\/$/, ''),
        region: vars.S3_REGION,
        bucket: vars.S3_BUCKET,
        accessKey: vars.S3_ACCESS_KEY as string,
        secretKey: vars.S3_SECRET_KEY as string,
        forcePathStyle: vars.S3_FORCE_PATH_STYLE ?? false,
        prefix: vars.S3_PREFIX && !vars.S3_PREFIX.endsWith('/') ? `${vars.S3_PREFIX}/` : vars.S3_PREFIX,
      }
    : undefined;
  if (vars.MEDIA_STORE === 's3') return { driver: 's3', s3: s3 as S3Settings };
  return s3 ? { driver: 'disk', s3 } : { driver: 'disk' };
}

/** What the `s3` media store is set by (S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY, S3_SECRET_KEY, …). */
export interface S3Settings {
  /** The server's URL (`http://127.0.0.1:7480`); empty: AWS's own for the region. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** Bucket in the path (`/bucket/key`), as Ceph RGW and MinIO are usually reached, rather than in the host. */
  forcePathStyle: boolean;
  /** Put before every key (`site-a/`), so that several sites can share a bucket; empty by default. */
  prefix: string;
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [addr, bits, ...rest] = entry.split('/');
  if (rest.length || !isIP(addr)) return false;
  if (bits === undefined) return true;
  const max = isIP(addr) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

/** `MEDIA_HOSTS`: one URL for every cdn, or `1=URL,2=URL,default=URL`. Empty means the site's own origin. */
function parseMediaHosts(raw: string): AppConfig['mediaHosts'] | string {
  const url = /^(|https?:\/\/[^\s/,]+(\/[^\s,]*)?)$/;
  const strip = (u: string) => u.replace(/\/+$/, '');
  if (!raw.includes('=')) {
    return url.test(raw) ? { '1': strip(raw), '2': strip(raw), default: strip(raw) } : 'MEDIA_HOSTS must be a URL or 1=URL,2=URL,default=URL';
  }
  const hosts: Record<string, string> = {};
  for (const part of raw.split(',')) {
    const [key, value = ''] = part.split('=').map((s) => s.trim());
    if (!['1', '2', 'default'].includes(key) || !url.test(value)) {
      return `MEDIA_HOSTS entry "${part.trim()}" must be 1=URL, 2=URL or default=URL`;
    }
    hosts[key] = strip(value);
  }
  const fallback = hosts.default ?? hosts['1'] ?? '';
  return { '1': hosts['1'] ?? fallback, '2': hosts['2'] ?? fallback, default: fallback };
}

/** A host name (letters, digits, dots and dashes) with an optional port, as a Host header carries it. */
const BRAND_HOST = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?$/;

/** BRAND_HOSTS, parsed: each entry's host (the key a request's Host is matched with), brand and origin. */
export interface BrandHosts {
  hosts: Record<string, Brand>;
  origins: Record<string, string>;
}

/**
 * `host=brand,…` or `https://host[:port]=brand,…` (docs/decisions.md › "Brands by host"); a bare host's origin takes
 * `scheme` (PUBLIC_URL's). The message of the first bad entry otherwise.
 */
export function parseBrandHosts(raw: string, scheme = 'https'): BrandHosts | string {
  const parsed: BrandHosts = { hosts: {}, origins: {} };
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = part.lastIndexOf('=');
    const [entry, brand] = [part.slice(0, Math.max(0, at)).trim(), part.slice(at + 1).trim()];
    const origin = /^https?:\/\//i.test(entry) ? originOf(entry) : BRAND_HOST.test(entry.toLowerCase()) ? `${scheme}://${entry.toLowerCase()}` : null;
    if (at < 1 || !origin || !BRANDS.includes(brand as Brand)) {
      return `BRAND_HOSTS entry "${part}" must be host=brand or https://host[:port]=brand, the brand one of ${BRANDS.join(', ')}`;
    }
    const host = new URL(origin).host;
    if (parsed.hosts[host] !== undefined) return `BRAND_HOSTS names ${host} twice`;
    parsed.hosts[host] = brand as Brand;
    parsed.origins[host] = origin;
  }
  return parsed;
}

/** An http(s) origin with nothing after it (a `/` at most), lower case and without a default port; else null. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash || !['', '/'].includes(url.pathname)) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** `brand=Site name,…`; the message of the first bad entry otherwise. A name cannot hold a comma. */
export function parseBrandSiteNames(raw: string): Partial<Record<Brand, string>> | string {
  const names: Partial<Record<Brand, string>> = {};
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = part.indexOf('=');
    const brand = part.slice(0, at).trim() as Brand;
    const name = part.slice(at + 1).trim();
    if (at < 1 || !BRANDS.includes(brand) || name.length === 0 || name.length > 100) {
      return `BRAND_SITE_NAMES entry "${part}" must be brand=Site name, the brand one of ${BRANDS.join(', ')}`;
    }
    names[brand] = name;
  }
  return names;
}

/** Builds the settings from an environment, or throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const picked: Record<string, string> = {};
  for (const key of SETTING_NAMES) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const vars = plainToInstance(EnvironmentVariables, picked);
  const problems = validateSync(vars, { forbidUnknownValues: false }).map(
    (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`,
  );

  const production = vars.NODE_ENV === 'production';
  if (production) {
    if (!vars.JWT_SECRET) problems.push('JWT_SECRET: must be set in production');
    if (!vars.MEDIA_SIGNING_KEY) problems.push('MEDIA_SIGNING_KEY: must be set in production');
    // The site's addresses come from configuration only (issue #29): a production site says what they are.
    if (!vars.PUBLIC_URL) problems.push('PUBLIC_URL: must be set in production (the public origin, like https://hunktube.example)');
  }
  const publicUrl = vars.PUBLIC_URL ? originOf(vars.PUBLIC_URL) ?? vars.PUBLIC_URL : `http://localhost:${vars.PORT}`;
  // The old opt-out of the contract's guest rule (a guest viewer is their network); `network`, its opt-in, is now the rule.
  if (env.GUEST_VIEWER !== undefined && env.GUEST_VIEWER.trim() !== '' && env.GUEST_VIEWER.trim() !== 'network') {
    problems.push('GUEST_VIEWER: no longer a setting: a guest viewer is their network, whatever the user agent (api-contract.md); remove it');
  }
  if (Boolean(vars.ADMIN_EMAIL) !== Boolean(vars.ADMIN_PASSWORD)) {
    problems.push('ADMIN_EMAIL/ADMIN_PASSWORD: set both or neither');
  } else if (typeof vars.ADMIN_PASSWORD === 'string' && typeof vars.ADMIN_EMAIL === 'string') {
    // The admin's password follows the rule of registration; an existing account's display name is checked
    // when the admin is made (AdminBootstrapService).
    const problem = passwordProblem(vars.ADMIN_PASSWORD, { email: vars.ADMIN_EMAIL }, commonPasswords());
    if (problem) problems.push(`ADMIN_PASSWORD: ${problem.message}`);
  }
  const trustProxy = vars.TRUST_PROXY ? vars.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const badProxy = trustProxy.filter((p) => !isProxyEntry(p));
  if (badProxy.length) problems.push(`TRUST_PROXY: not an address, range or keyword: ${badProxy.join(', ')}`);
  const mediaHosts = parseMediaHosts(vars.MEDIA_HOSTS ?? '');
  if (typeof mediaHosts === 'string') problems.push(`MEDIA_HOSTS: ${mediaHosts}`);
  const brandHosts = parseBrandHosts(vars.BRAND_HOSTS ?? '', publicUrl.startsWith('https:') ? 'https' : 'http');
  if (typeof brandHosts === 'string') problems.push(`BRAND_HOSTS: ${brandHosts}`);
  const brandSiteNames = parseBrandSiteNames(vars.BRAND_SITE_NAMES ?? '');
  if (typeof brandSiteNames === 'string') problems.push(`BRAND_SITE_NAMES: ${brandSiteNames}`);

  if (vars.S3_PREFIX?.split('/').some((segment) => segment === '.' || segment === '..')) {
    problems.push('S3_PREFIX: S3_PREFIX must be empty or folder names of letters, digits, dots, hyphens and underscores, like site-a/ (no . or ..)');
  }
  if (vars.MEDIA_STORE === 's3' || vars.S3_BUCKET) {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (!vars[name]) problems.push(`${name}: must be set with ${vars.MEDIA_STORE === 's3' ? 'MEDIA_STORE=s3' : 'S3_BUCKET'}`);
    }
  }

  if (problems.length) {
    throw new ConfigError(`Invalid settings:\n  - ${problems.join('\n  - ')}`);
  }

  const dataDir = path.resolve(vars.DATA_DIR);
  // Secrets the environment leaves unset (never in production): the install's own, kept in DATA_DIR; in tests,
  // the process's own.
  let secrets: InstallSecrets | null = null;
  if (!vars.JWT_SECRET || !vars.MEDIA_SIGNING_KEY) {
    try {
      secrets = vars.NODE_ENV === 'test' ? PROCESS_SECRETS : installSecrets(dataDir);
    } catch (error) {
      throw new ConfigError(`Invalid settings:\n  - JWT_SECRET/MEDIA_SIGNING_KEY: not set, and the install's own could not be read or made: ${(error as Error).message}`);
    }
  }
  return {
    env: vars.NODE_ENV as AppConfig['env'],
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? null,
    redisUrl: vars.REDIS_URL ?? null,
    redisPrefix: vars.REDIS_PREFIX,
    jwtSecret: vars.JWT_SECRET ?? (secrets as InstallSecrets).jwtSecret,
    jwtTtlSeconds: vars.JWT_TTL_SECONDS,
    brand: vars.BRAND as Brand,
    siteName: vars.SITE_NAME,
    brandHosts: (brandHosts as BrandHosts).hosts,
    brandOrigins: (brandHosts as BrandHosts).origins,
    brandSiteNames: brandSiteNames as AppConfig['brandSiteNames'],
    mediaDir: path.resolve(vars.MEDIA_DIR ?? path.join(dataDir, 'media')),
    mediaStore: mediaStoreOf(vars),
    hlsEncryption: vars.HLS_ENCRYPTION === 'on',
    hlsKeySecret: vars.HLS_KEY_SECRET ?? vars.JWT_SECRET ?? (secrets as InstallSecrets).jwtSecret,
    mediaHosts: mediaHosts as AppConfig['mediaHosts'],
    imageHost: vars.IMAGE_HOST.replace(/\/+$/, ''),
    mediaSigningKey: vars.MEDIA_SIGNING_KEY ?? (secrets as InstallSecrets).mediaSigningKey,
    publicUrl,
    trustProxy,
    admin: vars.ADMIN_EMAIL && vars.ADMIN_PASSWORD ? { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } : null,
    demoSeed: vars.DEMO_SEED ?? vars.NODE_ENV === 'development',
    demoSeedVideos: vars.DEMO_SEED_VIDEOS,
    rateLimits: { auth: vars.RATE_LIMIT_AUTH, authGlobal: vars.RATE_LIMIT_AUTH_GLOBAL ?? 30 * vars.RATE_LIMIT_AUTH, write: vars.RATE_LIMIT_WRITE, read: vars.RATE_LIMIT_READ },
    counterFlushMs: vars.COUNTER_FLUSH_MS,
    shutdown: { drainMs: vars.SHUTDOWN_DRAIN_MS, timeoutMs: vars.SHUTDOWN_TIMEOUT_MS },
    metricsToken: vars.METRICS_TOKEN ?? '',
    workerMetricsPort: vars.WORKER_METRICS_PORT,
    ingestWorker: vars.INGEST_WORKER ?? true,
    maxUploadBytes: vars.MAX_UPLOAD_BYTES,
    ffmpegPath: vars.FFMPEG_PATH ?? null,
    ffprobePath: vars.FFPROBE_PATH ?? null,
    logLevel: vars.LOG_LEVEL,
    catalogueCache: vars.CATALOGUE_CACHE === 'on',
    searchIndexMinVideos: vars.SEARCH_INDEX_MIN_VIDEOS,
    sitemapUrlsPerFile: vars.SITEMAP_URLS_PER_FILE,
    apiDocs: (vars.API_DOCS ?? (vars.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
    inMemoryDatabase: false,
  };
}
