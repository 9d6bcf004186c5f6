import { Metrics, metricsRoute, requestMetrics } from './common/metrics/metrics';
import { Lifecycle } from './common/lifecycle/lifecycle';
import { INestApplication } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { getOptionsToken, getStorageToken } from '@nestjs/throttler';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express from 'express';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { privateByDefault } from './common/http/http-caching';
import { readBudget } from './common/http/read-budget';
import { requestLog } from './common/http/request-log';
import { securityHeaders } from './common/http/security-headers';
import { AdZonesService } from './ads/ad-zones.service';
import { compressedAnswers } from './common/http/compression';
import { ExpressClassesAdapter } from './common/http/express-classes';
import { checkJsonDepth, crossSiteGuard, jsonOnlyGuard, noNulCharacters, oneApiSpelling, wellFormedReviver } from './common/http/request-guards';
import { sessionCookieName } from './common/http/session-cookie';
import { StrictValidationPipe } from './common/pipes/strict-validation.pipe';
import { StorageService } from './media/storage.service';
import { HlsKeysService } from './media/hls-keys.service';
import { ImageVariants } from './media/image-variants';
import { MEDIA_PATH, mediaServing } from './media/media-serving';
import { withErrorCodes } from './openapi/openapi.decorators';
import { SEO_ROUTES } from './seo/seo.controller';
import { HotAnswers, hotAnswersMiddleware } from './videos/hot-answers';
import { CountersController } from './videos/counters.controller';
import { CountersService } from './videos/counters/counters.service';
import { directCountingMiddleware } from './videos/counters/direct-counting';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { RateLimitGuard } from './common/guards/rate-limit.guard';
import type { AppConfig } from './config/app-config';
import { PagesService } from './web/pages.service';
import { webClientMiddleware } from './web/web-client.middleware';

/** Builds the whole application as `main.ts` serves it; tests use the same path. */
export async function createApp(config: AppConfig, options: AppModuleOptions = {}): Promise<INestApplication> {
  // API paths are case-sensitive: `/API/…` is a 404, not a second spelling of a route that path-based rules
  // (the cross-site guard, caching, rate limits) would have to know of (docs/security.md › "One spelling of a
  // path"). Set before Express makes its router, which reads it once.
  const server = express().set('case sensitive routing', true);
  // Only JSON bodies are parsed (multipart only by the upload routes' interceptors): no form-encoded bodies.
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), new ExpressClassesAdapter(server), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy.length ? config.trustProxy : false);
  app.disable('x-powered-by');
  // Strong ETags from the body: a revalidation of an unchanged answer is a 304 without a body.
  app.set('etag', 'strong');
  // While draining, every answer closes its connection: the client's next request goes to another process.
  const lifecycle = app.get(Lifecycle);
  app.use((_req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (lifecycle.draining) res.setHeader('Connection', 'close');
    next();
  });
  // Every request timed by its route template; GET /metrics with METRICS_TOKEN (common/metrics/metrics.ts).
  const metrics = app.get(Metrics);
  app.use(requestMetrics(metrics), metricsRoute(metrics));
  app.use(requestLog());
  app.use(privateByDefault);
  const built = app.get(PagesService).built;
  /** The web client's built files (scripts, styles, images), which no page's policy nor read budget concerns. */
  const isBuiltFile = (path: string) => built?.assets.has(path) ?? false;
  // The same headers on every answer, except that other sites may frame the embeddable player (/embed/{id}).
  app.use(securityHeaders(
    {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // No `https:` anywhere (helmet's defaults allow any HTTPS style sheet and font), and no inline <style> but
          // the app's own sheet written into rendered pages, by its hash (docs/web-client.md › "Boot work"), and
          // React's style attributes (a thumbnail's hue, the seek bar's position), which server-rendered markup
          // carries and hydration does not set again (docs/security.md › "Headers and small things").
          'style-src': ["'self'", ...(built?.early?.styleHashes ?? [])],
          'style-src-attr': ["'unsafe-inline'"],
          'font-src': ["'self'", 'data:'],
          'img-src': ["'self'", 'data:', 'blob:', ...hostsOf(config.imageHost)],
          // The image host serves the hover clips and the caption files (<track>) too.
          'media-src': ["'self'", 'blob:', ...hostsOf(...Object.values(config.mediaHosts), config.imageHost)],
          // hls.js starts its transmuxer worker from a blob URL (docs/web-client.md › "First frame").
          'worker-src': ["'self'", 'blob:'],
          'connect-src': ["'self'", ...hostsOf(...Object.values(config.mediaHosts), config.imageHost)],
          'upgrade-insecure-requests': config.env === 'production' ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // HSTS only where the site is served over HTTPS; on http://localhost it would pin the browser to TLS.
      strictTransportSecurity: config.env === 'production',
    },
    // The ad zones' hosts and inline blocks (docs/ads.md › "CSP"), as they are now: a change applies on the next page.
    () => app.get(AdZonesService).sources(),
    (path) => MEDIA_PATH.test(path) || isBuiltFile(path),
  ));
  // One spelling of an API path, and no NUL character in a path or query (docs/security.md).
  app.use(oneApiSpelling, noNulCharacters);
  // API JSON and pages compressed (brotli or gzip) for clients that take it; prebuilt files carry their own.
  app.use(compressedAnswers());
  // Reads per network (pages and API GETs, hot ones included; not media nor the web client's files).
  app.use(readBudget(config.rateLimits.read, isBuiltFile));
  // Hot catalogue answers, as the full pipeline last sent them and while they are still exact: before the
  // guards of writes, the body parsers and Nest's routing, none of which a bodiless GET needs.
  app.use(hotAnswersMiddleware(app.get(HotAnswers)));
  app.use(crossSiteGuard, jsonOnlyGuard);
  app.use(express.json({ limit: '256kb', verify: (_req, _res, buf) => checkJsonDepth(buf), reviver: wellFormedReviver }));
  // Guests' views, trending signals and likes with a body the validation would take as it is: the same guard,
  // controller and filter, without Nest's routing (nor the cookie parser: a guest has no session cookie).
  const rateLimit = new RateLimitGuard(app.get(getOptionsToken()), app.get(getStorageToken()), app.get(Reflector), config);
  await rateLimit.onModuleInit();
  app.use(directCountingMiddleware(app.get(CountersController), app.get(CountersService), rateLimit, new AllExceptionsFilter()));
  app.use(cookieParser());
  app.use(mediaServing(config, app.get(StorageService), app.get(ImageVariants), app.get(HlsKeysService)));
  // The web client's files and pages (each with its own head and the bootstrap block), before Nest's routing.
  app.use(webClientMiddleware(app.get(PagesService)));
  // robots.txt and the sitemaps live at the site's root, where crawlers look for them.
  app.setGlobalPrefix('api', { exclude: SEO_ROUTES });
  app.useGlobalPipes(new StrictValidationPipe());
  // No shutdown hooks on signals here: main.ts drains first (common/lifecycle/graceful-shutdown.ts).

  // The API's map is for its developers and clients: not published by a production site unless API_DOCS=on.
  // Built on its first request and kept (SwaggerModule keeps what the factory made): scanning every route cost
  // each boot about a fifth of a second (docs/testing.md › "How long it takes").
  if (config.apiDocs) {
    SwaggerModule.setup('api/docs', app, () => withErrorCodes(SwaggerModule.createDocument(app, openApiConfig(config))), { jsonDocumentUrl: 'api/docs-json' });
  }
  return app;
}

/**
 * The OpenAPI document's header: the same for /api/docs-json and the exported file the web client's types come from
 * (docs/api-conventions.md). OpenAPI 3.0; one server, this site's root, so that the document reads the same on every
 * machine; a session is the bearer token or the session cookie under its name for this environment.
 */
export function openApiConfig(config: Pick<AppConfig, 'siteName' | 'env'>) {
  return new DocumentBuilder()
    .setTitle(`${config.siteName} API`)
    .setDescription('The HTTP API of the video site; see api-contract.md')
    .setVersion('1')
    .addServer('/', 'This site')
    .addBearerAuth()
    .addCookieAuth(sessionCookieName(config))
    .build();
}

function hostsOf(...urls: string[]): string[] {
  return [...new Set(urls.filter(Boolean).map((u) => new URL(u).origin))];
}
