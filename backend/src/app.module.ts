import { MetricsModule } from './common/metrics/metrics';
import { LifecycleModule } from './common/lifecycle/lifecycle';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { REDIS_CONNECTION, RedisModule } from './common/redis/redis.module';
import { PublicCacheInterceptor } from './common/http/http-caching';
import { StaleReadsModule } from './common/http/stale-reads';
import { RedisThrottlerStorage } from './common/redis/redis-throttler-storage';
import { LoggerModule } from 'nestjs-pino';
import { existsSync } from 'node:fs';
import { AccountModule } from './account/account.module';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { JwtAuthGuard } from './common/guards/jwt-auth.guard';
import { AUTH_THROTTLER, RateLimitGuard, WRITE_THROTTLER } from './common/guards/rate-limit.guard';
import { RolesGuard } from './common/guards/roles.guard';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DemoSeedService } from './database/seeds/demo-seed.service';
import { ListsModule } from './lists/lists.module';
import { JobsModule } from './jobs/jobs.module';
import { MediaModule } from './media/media.module';
import { PlaylistsModule } from './playlists/playlists.module';
import { RemovalRequestsModule } from './removal-requests/removal-requests.module';
import { AdsModule } from './ads/ads.module';
import { SeoModule } from './seo/seo.module';
import { SiteModule } from './site/site.module';
import { TaxonomyModule } from './taxonomy/taxonomy.module';
import { VideosModule } from './videos/videos.module';
import { HotAnswersInterceptor } from './videos/hot-answers';
import { WebModule } from './web/web.module';

export interface AppModuleOptions {
  /** Built web client to serve at `/`, every page with its own head (web/); skipped when absent. */
  webRoot?: string;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    // The built web client's files and pages (web/); the API alone when there is no build.
    const webRoot = options.webRoot && existsSync(options.webRoot) ? options.webRoot : null;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RedisModule,
        StaleReadsModule,
        LifecycleModule,
        MetricsModule,
        // pino as the application's logger; requests are logged by `requestLog` (app.factory.ts), not by a
        // per-request pino-http child logger (no route is given to its middleware).
        LoggerModule.forRoot({ pinoHttp: { level: config.logLevel }, forRoutes: [] }),
        // Rate limits count per address across every API process when REDIS_URL is set.
        ThrottlerModule.forRootAsync({
          inject: [REDIS_CONNECTION],
          useFactory: (redis: Redis | null) => ({
            throttlers: [
              { name: AUTH_THROTTLER, ttl: 60_000, limit: config.rateLimits.auth },
              { name: WRITE_THROTTLER, ttl: 60_000, limit: config.rateLimits.write },
            ],
            storage: redis ? new RedisThrottlerStorage(redis, `${config.redisPrefix}ratelimit:`) : undefined,
          }),
        }),
        DatabaseModule,
        AuthModule,
        VideosModule,
        ListsModule,
        PlaylistsModule,
        AccountModule,
        TaxonomyModule,
        SiteModule,
        JobsModule,
        MediaModule,
        AdminModule,
        DashboardModule,
        RemovalRequestsModule,
        AdsModule,
        SeoModule,
        WebModule.forRoot(webRoot),
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: PublicCacheInterceptor },
        // Keeps public catalogue answers as sent, for app.factory's hotAnswersMiddleware to serve again.
        { provide: APP_INTERCEPTOR, useClass: HotAnswersInterceptor },
        // Order matters: rate limits first, then who you are, then what you may do.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
        DemoSeedService,
      ],
    };
  }
}
