// What `npm run stack` runs, read from docker-compose.yml itself so that the two cannot drift: each service of the
// compose file (but the monitoring profile's) becomes plain processes on this machine, with the environment the
// compose file gives it, interpolated as compose does. Only what names another container changes (the addresses
// of PostgreSQL, Redis and the S3 server, the proxy's network), and what the image sets per container (its port
// and folders). backend/test/stack.stack-spec.ts checks that mapping against the compose file.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { root } from '../build-state.mjs';

/** Compose's variable interpolation: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`, `$$`; nested defaults too. */
export function interpolate(text, vars) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$$', i)) {
      out += '$';
      i += 2;
    } else if (text.startsWith('${', i)) {
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text.startsWith('${', j)) {
          depth += 1;
          j += 2;
        } else {
          if (text[j] === '}') depth -= 1;
          j += 1;
        }
      }
      if (depth !== 0) throw new Error(`an unclosed \${ in "${text}"`);
      out += substitute(text.slice(i + 2, j - 1), vars);
      i = j;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

function substitute(expression, vars) {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([\s\S]*))?$/.exec(expression);
  if (!match) throw new Error(`\${${expression}} is not a variable compose understands`);
  const [, name, colon, operator, rest] = match;
  const value = vars[name];
  const unset = value === undefined || (colon === ':' && value === '');
  if (!operator) return value ?? '';
  if (!unset) return value;
  if (operator === '-') return interpolate(rest, vars);
  throw new Error(interpolate(rest, vars) || `${name} is required`);
}

export function readCompose(file = path.join(root, 'docker-compose.yml')) {
  return parse(readFileSync(file, 'utf8'), { merge: true });
}

/** The services `npm run stack` starts (the monitoring profile's run only with `docker compose --profile monitoring`). */
export function stackServices(compose) {
  return Object.entries(compose.services)
    .filter(([, service]) => !service.profiles?.length)
    .map(([name]) => name);
}

/**
 * Settings whose compose value names another container (or the compose network), and what the stack uses instead.
 * Everything else a process gets is the compose file's value.
 */
export const ADDRESS_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT', 'TRUST_PROXY'];
/** What the image sets per container (docker/Dockerfile's ENV), given per process here, and the worker's metrics port. */
export const PROCESS_SETTINGS = ['PORT', 'HOST', 'MEDIA_DIR', 'DATA_DIR', 'WORKER_METRICS_PORT'];

function environmentOf(service, vars) {
  const env = {};
  for (const [key, value] of Object.entries(service.environment ?? {})) env[key] = value === null ? '' : interpolate(String(value), vars);
  return env;
}

/**
 * The processes of a stack. `vars`: the variables compose would interpolate from (the operator's environment and
 * the stack's development secrets); `local`: the addresses that replace the containers' and the per-process folders.
 */
export function describeStack(compose, { vars, local, api = 2, workers = 1 }) {
  const { services } = compose;
  const addresses = {
    DATABASE_URL: local.databaseUrl,
    REDIS_URL: local.redisUrl,
    S3_ENDPOINT: local.s3Endpoint,
    // nginx reaches the API processes from loopback's first address; clients keep their own.
    TRUST_PROXY: '127.0.0.1',
  };
  const app = (service, name, extra) => ({ ...environmentOf(service, vars), ...addresses, ...extra, ...processFolders(local, name) });
  const processes = [];
  for (let i = 1; i <= api; i += 1) {
    const name = `api-${i}`;
    processes.push({
      name,
      service: 'api',
      // The image's CMD (docker/Dockerfile).
      command: ['node', 'backend/dist/main.js'],
      port: local.apiPort + i - 1,
      env: app(services.api, name, { PORT: String(local.apiPort + i - 1), HOST: '127.0.0.1' }),
    });
  }
  for (let i = 1; i <= workers; i += 1) {
    const name = `worker-${i}`;
    processes.push({
      name,
      service: 'worker',
      command: services.worker.command,
      metricsPort: local.workerMetricsPort + i - 1,
      env: app(services.worker, name, { HOST: '127.0.0.1', WORKER_METRICS_PORT: String(local.workerMetricsPort + i - 1) }),
    });
  }
  const nginxEnv = { ...environmentOf(services.nginx, vars), S3_EDGE_HOST: new URL(local.s3Endpoint).host };
  return { processes, nginx: { env: nginxEnv, statusPort: local.statusPort } };
}

function processFolders(local, name) {
  return { MEDIA_DIR: path.join(local.dir, 'media'), DATA_DIR: path.join(local.dir, 'data', name) };
}
