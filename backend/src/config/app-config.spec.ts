import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PASSWORD_CONTAINS_EMAIL_NAME, PASSWORD_LENGTH_MESSAGE, PASSWORD_TOO_COMMON } from '@hunktube/shared';
import { ConfigError, loadConfig, SETTING_NAMES } from './app-config';
import { SECRETS_FILE } from './install-secrets';

/** A DATA_DIR of the test's own (named data, as the default), so that no test writes in the working folder. */
const freshDataDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'config-')), 'data');
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: freshDataDir(), ...env });

describe('loadConfig', () => {
  it('runs with no settings at all on development defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      databaseUrl: null,
      redisUrl: null,
      brand: 'default',
      siteName: 'HunkTube',
      mediaHosts: { '1': '', '2': '', default: '' },
      imageHost: '',
      trustProxy: [],
      admin: null,
      demoSeed: true,
      rateLimits: { auth: 10, authGlobal: 300, write: 600, read: 3000 },
      publicUrl: 'http://localhost:3000',
      apiDocs: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.mediaDir).toBe(`${config.dataDir}/media`);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads and converts every setting', () => {
    const config = load({
      NODE_ENV: 'production', PORT: '8080', DATA_DIR: '/srv/data', DATABASE_URL: 'postgres://u:p@db:5432/app',
      REDIS_URL: 'redis://cache:6379', JWT_SECRET: 's'.repeat(40), BRAND: 'jtg', SITE_NAME: 'Other Site',
      MEDIA_DIR: '/srv/media', MEDIA_HOSTS: 'https://media.example.com/', IMAGE_HOST: 'https://img.example.com/',
      MEDIA_SIGNING_KEY: 'k'.repeat(20), TRUST_PROXY: '10.0.0.0/8, loopback', ADMIN_EMAIL: 'a@example.com',
      ADMIN_PASSWORD: 'keeper of the keys 1', DEMO_SEED: 'false', RATE_LIMIT_AUTH: '0', RATE_LIMIT_WRITE: '100',
      RATE_LIMIT_READ: '0', PUBLIC_URL: 'https://Hunks.Example:443/',
    });
    expect(config).toMatchObject({
      env: 'production', port: 8080, dataDir: '/srv/data', databaseUrl: 'postgres://u:p@db:5432/app',
      redisUrl: 'redis://cache:6379', brand: 'jtg', siteName: 'Other Site', mediaDir: '/srv/media',
      mediaHosts: { '1': 'https://media.example.com', '2': 'https://media.example.com', default: 'https://media.example.com' },
      imageHost: 'https://img.example.com', trustProxy: ['10.0.0.0/8', 'loopback'],
      admin: { email: 'a@example.com', password: 'keeper of the keys 1' }, demoSeed: false, rateLimits: { auth: 0, authGlobal: 0, write: 100, read: 0 },
      publicUrl: 'https://hunks.example', apiDocs: false,
    });
  });

  it('publishes the API docs by default, not in production unless API_DOCS=on', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(40), MEDIA_SIGNING_KEY: 'k'.repeat(20), PUBLIC_URL: 'https://hunks.example' };
    expect(load({ ...production, API_DOCS: 'on' }).apiDocs).toBe(true);
    expect(load({ API_DOCS: 'off' }).apiDocs).toBe(false);
    expect(() => load({ API_DOCS: 'yes' })).toThrow('API_DOCS');
  });

  it('reads a media host per cdn, falling back to the default', () => {
    expect(load({ MEDIA_HOSTS: '1=https://a.example.com,default=https://d.example.com' }).mediaHosts).toEqual({
      '1': 'https://a.example.com', '2': 'https://d.example.com', default: 'https://d.example.com',
    });
  });

  it('reads brands by host and their site names; none by default', () => {
    expect(load({}).brandHosts).toEqual({});
    const config = load({ BRAND_HOSTS: ' ATG.example=atg, jtg.example:8080=jtg ', BRAND_SITE_NAMES: 'atg=ATG Tube, jtg = Jocks & Co' });
    expect(config.brandHosts).toEqual({ 'atg.example': 'atg', 'jtg.example:8080': 'jtg' });
    expect(config.brandSiteNames).toEqual({ atg: 'ATG Tube', jtg: 'Jocks & Co' });
  });

  it("gives each brand host the origin its entry names, or PUBLIC_URL's scheme for a bare host", () => {
    const config = load({
      PUBLIC_URL: 'https://hunks.example',
      BRAND_HOSTS: 'atg.example=atg, http://JTG.example:8080=jtg, https://other.example:443/=default',
    });
    expect(config.brandHosts).toEqual({ 'atg.example': 'atg', 'jtg.example:8080': 'jtg', 'other.example': 'default' });
    expect(config.brandOrigins).toEqual({ 'atg.example': 'https://atg.example', 'jtg.example:8080': 'http://jtg.example:8080', 'other.example': 'https://other.example' });
    expect(load({ BRAND_HOSTS: 'atg.localhost:3001=atg' }).brandOrigins).toEqual({ 'atg.localhost:3001': 'http://atg.localhost:3001' });
  });

  it.each([
    [{ BRAND_HOSTS: 'atg.example' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'atg.example=xyz' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'https://atg.example/path=atg' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'ftp://atg.example=atg' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'https://atg.example,https://atg.example=atg' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'atg.example=atg,https://atg.example=jtg' }, 'BRAND_HOSTS'],
    [{ BRAND_HOSTS: 'a.example=atg,A.example=jtg' }, 'BRAND_HOSTS'],
    [{ BRAND_SITE_NAMES: 'atg' }, 'BRAND_SITE_NAMES'],
    [{ BRAND_SITE_NAMES: 'xyz=Name' }, 'BRAND_SITE_NAMES'],
    [{ BRAND_SITE_NAMES: 'atg=' }, 'BRAND_SITE_NAMES'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BRAND: 'xyz' }, 'BRAND'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ MEDIA_SIGNING_KEY: 'short' }, 'MEDIA_SIGNING_KEY'],
    [{ MEDIA_HOSTS: 'ftp://x' }, 'MEDIA_HOSTS'],
    [{ MEDIA_HOSTS: '3=https://x.example.com' }, 'MEDIA_HOSTS'],
    [{ IMAGE_HOST: 'not a url' }, 'IMAGE_HOST'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ ADMIN_EMAIL: 'a@example.com' }, 'ADMIN_EMAIL/ADMIN_PASSWORD'],
    [{ DEMO_SEED: 'perhaps' }, 'DEMO_SEED'],
    [{ RATE_LIMIT_AUTH: '-1' }, 'RATE_LIMIT_AUTH'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('stops with a message naming the bad setting for %j', (env, name) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(new RegExp(`- ${name.replace('/', '\\/')}:`));
  });

  it.each([
    ['too short', { ADMIN_EMAIL: 'chief@example.com', ADMIN_PASSWORD: 'k7#vq2!zw' }, PASSWORD_LENGTH_MESSAGE],
    ['common', { ADMIN_EMAIL: 'chief@example.com', ADMIN_PASSWORD: 'Password123' }, PASSWORD_TOO_COMMON],
    ["containing ADMIN_EMAIL's name", { ADMIN_EMAIL: 'Chief.Ops@example.com', ADMIN_PASSWORD: 'chief-ops-forever' }, PASSWORD_CONTAINS_EMAIL_NAME],
  ])('stops with a message naming ADMIN_PASSWORD and the rule for a password %s', (_case, env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(`- ADMIN_PASSWORD: ${message}`);
  });

  it('names every bad setting at once', () => {
    expect(() => load({ PORT: 'x', BRAND: 'y' })).toThrow(/PORT:[\s\S]*BRAND:|BRAND:[\s\S]*PORT:/);
  });

  it("makes an install's own secrets at its first start, owner-only, and keeps them", () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, SECRETS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(first.jwtSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.mediaSigningKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ jwtSecret: first.jwtSecret, mediaSigningKey: first.mediaSigningKey });
    // The next start, and the commands, read the same ones; another install has its own.
    const again = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
    expect([again.jwtSecret, again.mediaSigningKey]).toEqual([first.jwtSecret, first.mediaSigningKey]);
    const other = load({});
    expect(other.jwtSecret).not.toBe(first.jwtSecret);
    expect(other.mediaSigningKey).not.toBe(first.mediaSigningKey);
  });

  it('keeps the secrets set in the environment, writing nothing', () => {
    const dataDir = freshDataDir();
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(32), MEDIA_SIGNING_KEY: 'm'.repeat(16) });
    expect([config.jwtSecret, config.mediaSigningKey]).toEqual(['j'.repeat(32), 'm'.repeat(16)]);
    expect(existsSync(dataDir)).toBe(false);
    // One of them set: the other is the install's own.
    const half = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(32) });
    expect(half.jwtSecret).toBe('j'.repeat(32));
    expect(half.mediaSigningKey).toBe(JSON.parse(readFileSync(path.join(dataDir, SECRETS_FILE), 'utf8')).mediaSigningKey);
  });

  it('makes a secrets file that others can read owner-only again, and stops on a broken one naming it', () => {
    const dataDir = freshDataDir();
    const { jwtSecret } = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, SECRETS_FILE);
    chmodSync(file, 0o644);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '{"jwtSecret": "short", "mediaSigningKey": "also short"}');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(new RegExp(`JWT_SECRET/MEDIA_SIGNING_KEY: .*${SECRETS_FILE.replace('.', '\\.')}`));
    writeFileSync(file, 'not json');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/is not JSON/);
  });

  it("gives tests the process's own secrets, written nowhere", () => {
    const dataDir = freshDataDir();
    const a = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const b = loadConfig({ NODE_ENV: 'test', DATA_DIR: freshDataDir() });
    expect(existsSync(dataDir)).toBe(false);
    expect([a.jwtSecret, a.mediaSigningKey]).toEqual([b.jwtSecret, b.mediaSigningKey]);
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads the secrets another process made first (the file is created exclusively, the loser reads it)', () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, SECRETS_FILE), JSON.stringify({ jwtSecret: 'w'.repeat(43), mediaSigningKey: 'k'.repeat(43) }), { mode: 0o600 });
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe('w'.repeat(43));
  });

  it('requires real secrets and the public origin in production', () => {
    expect(() => load({ NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET: must be set in production[\s\S]*MEDIA_SIGNING_KEY: must be set in production[\s\S]*PUBLIC_URL: must be set in production/,
    );
  });

  it('does not seed the demo catalogue outside development unless asked', () => {
    expect(load({ NODE_ENV: 'test' }).demoSeed).toBe(false);
    expect(load({ NODE_ENV: 'test', DEMO_SEED: '1' }).demoSeed).toBe(true);
  });
});

describe('loadConfig: the media store', () => {
  const bucket = { MEDIA_STORE: 's3', S3_BUCKET: 'hunktube-media', S3_ACCESS_KEY: 'AKIA0001', S3_SECRET_KEY: 'secret' };

  it('keeps media on disk by default', () => {
    expect(load({}).mediaStore).toEqual({ driver: 'disk' });
  });

  it('reads the bucket with MEDIA_STORE=s3, with a slash after the prefix and none after the endpoint', () => {
    expect(load({ ...bucket, S3_ENDPOINT: 'http://127.0.0.1:7490/', S3_FORCE_PATH_STYLE: 'true', S3_PREFIX: 'site-a' }).mediaStore).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:7490', region: 'us-east-1', bucket: 'hunktube-media', accessKey: 'AKIA0001', secretKey: 'secret',
        forcePathStyle: true, prefix: 'site-a/',
      },
    });
    expect(load({ ...bucket, S3_REGION: 'eu-central-1' }).mediaStore).toMatchObject({ s3: { endpoint: '', region: 'eu-central-1', forcePathStyle: false, prefix: '' } });
  });

  it('keeps the bucket beside the disk store when S3_BUCKET is set (where media:migrate moves videos), with its keys', () => {
    const { MEDIA_STORE: _s3, ...beside } = bucket;
    expect(load(beside).mediaStore).toMatchObject({ driver: 'disk', s3: { bucket: 'hunktube-media', accessKey: 'AKIA0001' } });
    expect(() => load({ S3_BUCKET: 'hunktube-media' })).toThrow('S3_ACCESS_KEY: must be set with S3_BUCKET\n  - S3_SECRET_KEY: must be set with S3_BUCKET');
  });

  it('names each setting that MEDIA_STORE=s3 needs and lacks, and each bad one', () => {
    expect(() => load({ MEDIA_STORE: 's3' })).toThrow(
      'S3_BUCKET: must be set with MEDIA_STORE=s3\n  - S3_ACCESS_KEY: must be set with MEDIA_STORE=s3\n  - S3_SECRET_KEY: must be set with MEDIA_STORE=s3',
    );
    expect(() => load({ MEDIA_STORE: 'ftp' })).toThrow('MEDIA_STORE');
    expect(() => load({ ...bucket, S3_BUCKET: 'Has_Capitals' })).toThrow('S3_BUCKET must be a bucket name');
    expect(() => load({ ...bucket, S3_ENDPOINT: 'ftp://x' })).toThrow('S3_ENDPOINT must be an http(s) origin');
    expect(() => load({ ...bucket, S3_PREFIX: '../up' })).toThrow('S3_PREFIX must be empty or folder names');
    expect(() => load({ ...bucket, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow('S3_FORCE_PATH_STYLE');
  });
});

describe('loadConfig: encrypted HLS', () => {
  it('encrypts new ingests by default, wrapping keys under JWT_SECRET unless HLS_KEY_SECRET is set', () => {
    const plain = load({ JWT_SECRET: 'j'.repeat(32) });
    expect([plain.hlsEncryption, plain.hlsKeySecret]).toEqual([true, 'j'.repeat(32)]);
    expect(load({ JWT_SECRET: 'j'.repeat(32), HLS_KEY_SECRET: '' }).hlsKeySecret).toBe('j'.repeat(32));
    const own = load({ JWT_SECRET: 'j'.repeat(32), HLS_KEY_SECRET: 'h'.repeat(32), HLS_ENCRYPTION: 'off' });
    expect([own.hlsEncryption, own.hlsKeySecret]).toEqual([false, 'h'.repeat(32)]);
  });

  it('names a bad HLS_ENCRYPTION or a short HLS_KEY_SECRET', () => {
    expect(() => load({ HLS_ENCRYPTION: 'maybe' })).toThrow('HLS_ENCRYPTION');
    expect(() => load({ HLS_KEY_SECRET: 'short' })).toThrow('HLS_KEY_SECRET must be at least 32 characters');
  });
});

describe('.env.example', () => {
  it('documents exactly the settings the app reads', () => {
    const text = readFileSync(path.join(__dirname, '../../../.env.example'), 'utf8');
    const documented = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...SETTING_NAMES].sort());
  });
});

describe('the root commands that open DATA_DIR', () => {
  // `npm run x -w backend` would run in backend/, where the default ./data is another folder than the one
  // `npm start` uses: the command would open a second, empty database and never meet the server's lock.
  it('run from the repository root, where ./data is the same folder as for npm start', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['seed:catalog', 'admin:create', 'media:import', 'worker', 'backup', 'restore']) {
      expect(scripts[name], name).toMatch(/&& node backend\/dist\/\S+\.js$/);
    }
  });
});
