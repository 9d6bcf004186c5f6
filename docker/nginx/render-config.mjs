// Renders templates/default.conf.template for a local nginx, as the nginx image renders it (only
// ${MEDIA_SIGNING_KEY} is replaced), with the upstream, port and folders pointed at a test's own, and writes a
// main nginx.conf that keeps every temporary path inside `work`. Used by test-nginx.mjs and the backend's
// nginx e2e test. Debian's nginx 1.22 lacks the upstream `resolve` parameter (nginx 1.27), so it becomes a
// plain address here.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `store` is 'disk' (media from the `media` folder) or 's3' with `s3: { host, bucket, prefix }` (host:port of the
 * bucket's server): the media includes of templates/media are rendered beside the config, as the image does.
 * `env` instead: the nginx service's environment as compose gives it (npm run stack), substituted as the image's
 * entrypoint does, only the variables its NGINX_ENVSUBST_FILTER names. `apiPorts`: several API processes in the
 * upstream (the compose file's scaled `api` service); `statusPort`: stub_status on loopback rather than a socket.
 */
export function renderNginxConfig({ work, key, apiPort, apiPorts = [apiPort], nginxPort, media, html, store = 'disk', s3 = null, env = null, statusPort = null, workerProcesses = 1 }) {
  const mediaFolder = path.join(work, 'conf.d', 'media');
  const vars = env
    ? Object.fromEntries(Object.entries(env).filter(([name]) => new RegExp(env.NGINX_ENVSUBST_FILTER).test(name)))
    : { MEDIA_SIGNING_KEY: key, MEDIA_STORE: store, S3_EDGE_HOST: s3?.host ?? '', S3_BUCKET: s3?.bucket ?? '', S3_PREFIX: s3?.prefix ?? '', MEDIA_EDGE_CACHE_SIZE: '64m' };
  store = vars.MEDIA_STORE;
  const substitute = (text) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => vars[name] ?? whole).replaceAll('/etc/nginx/conf.d/media/', `${mediaFolder}/`);
  mkdirSync(mediaFolder, { recursive: true });
  for (const name of readdirSync(path.join(here, 'templates/media'))) {
    const include = substitute(readFileSync(path.join(here, 'templates/media', name), 'utf8'))
      .replace('root /media;', `root ${media};`)
      .replace('alias /media$dir$file;', `alias ${media}$dir$file;`)
      .replace(/server (\S+) resolve;/, 'server $1;')
      .replace('/var/cache/nginx/media', path.join(work, 'media-cache'));
    // Only the chosen store's includes are read; the other's may hold empty placeholders.
    if (name.startsWith(`${store}-`) && /\$\{|\/var\/cache\//.test(include)) throw new Error(`${name}: a placeholder or cache path was left`);
    writeFileSync(path.join(mediaFolder, name.replace(/\.template$/, '')), include);
  }
  const conf = substitute(readFileSync(path.join(here, 'templates/default.conf.template'), 'utf8'))
    .replace(/server api:3000 resolve([^;]*);/, (_, parameters) => apiPorts.map((port) => `server 127.0.0.1:${port}${parameters};`).join('\n    '))
    .replace('listen 80 default_server;', `listen 127.0.0.1:${nginxPort} default_server;`)
    // The stack-only status port: a socket in the work folder here, so that tests running at once never clash.
    .replace('    listen 8081;', statusPort ? `    listen 127.0.0.1:${statusPort};` : `    listen unix:${path.join(work, 'nginx-status.sock')};`)
    .replace('root /usr/share/nginx/html;', `root ${html};`)
    .replace('/var/cache/nginx/api', path.join(work, 'cache'))
    .replace('/var/cache/nginx/pages', path.join(work, 'page-cache'))
    .replace('access_log /var/log/nginx/access.log private;', `access_log ${path.join(work, 'access.log')} private;`);
  if (/\/var\/cache\//.test(conf)) throw new Error('a cache path was left pointing at /var/cache');
  if (/\$\{/.test(conf)) throw new Error('an environment placeholder was left in the rendered config');
  mkdirSync(path.join(work, 'conf.d'), { recursive: true });
  writeFileSync(path.join(work, 'conf.d/default.conf'), conf);
  const main = path.join(work, 'nginx.conf');
  writeFileSync(
    main,
    `worker_processes ${workerProcesses};
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections ${workerProcesses === 1 ? 128 : 1024}; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    client_body_temp_path ${work}/client_body;
    proxy_temp_path ${work}/proxy_temp;
    fastcgi_temp_path ${work}/fastcgi_temp;
    uwsgi_temp_path ${work}/uwsgi_temp;
    scgi_temp_path ${work}/scgi_temp;
    include ${work}/conf.d/*.conf;
}
`,
  );
  return main;
}
