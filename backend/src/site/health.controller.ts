import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Public } from '../common/decorators/auth.decorators';
import { UnavailableError } from '../common/errors/domain-errors';
import { REDIS_CONNECTION } from '../common/redis/redis.module';
import { SearchIndex, type SearchIndexState } from '../videos/catalogue/search-index';
import { ApiError, ApiPublic } from '../openapi/openapi.decorators';
import { SiteErrorCode } from './site-errors';
import { Lifecycle } from '../common/lifecycle/lifecycle';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'], description: '`degraded`: the database answers but Redis does not (the API runs on its own buffers)' })
  status!: 'ok' | 'degraded';

  @ApiProperty({ enum: ['up'] })
  database!: 'up';

  @ApiProperty({ enum: ['up', 'down', 'unused'] })
  redis!: 'up' | 'down' | 'unused';

  @ApiProperty({
    enum: ['ready', 'loading', 'off'],
    description: 'Title search from memory (docs/operating.md, Caches): `off` below SEARCH_INDEX_MIN_VIDEOS published videos, `loading` while the database answers searches instead',
  })
  searchIndex!: SearchIndexState;
}

/** Resolves to what `check` answers, or to `fallback` after `ms`. */
function within<T>(ms: number, check: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([check.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

class LiveDto {
  @ApiProperty({ enum: ['live'] })
  status!: 'live';
}

class ReadyDto {
  @ApiProperty({ enum: ['ready'] })
  status!: 'ready';
}

/** How long readiness waits for the database: a process that cannot answer within it should get no traffic. */
const READY_DATABASE_BUDGET_MS = 1000;

@ApiTags('site')
// Health checks are never counted in the read budget (read-budget.ts).
@ApiPublic({ readBudget: false })
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS_CONNECTION) private readonly redis: Redis | null,
    private readonly search: SearchIndex,
    private readonly lifecycle: Lifecycle,
  ) {}

  /** Migrations are run before the app starts; once seen done, they stay done for this process. */
  private migrated = false;

  /** 200 while the process runs and its event loop turns: what a supervisor restarts it on. Nothing else is asked. */
  @Get('live')
  @ApiOperation({ summary: 'Whether the process runs (liveness)' })
  @ApiResponse({ status: 200, type: LiveDto })
  live(): LiveDto {
    return { status: 'live' };
  }

  /**
   * 200 while the process should get traffic: its database answered within a second, its migrations are done and
   * it is not draining (SIGTERM); 503 `NOT_READY` naming which, otherwise. Redis down is not a reason (the API
   * runs on its own buffers then). docs/operating.md › "Liveness, readiness and draining".
   */
  @Get('ready')
  @ApiOperation({ summary: 'Whether the process should get traffic (readiness)' })
  @ApiResponse({ status: 200, type: ReadyDto })
  @ApiError(503, 'errorCode NOT_READY: draining, the database does not answer, or migrations are pending', [SiteErrorCode.NotReady])
  async ready(): Promise<ReadyDto> {
    if (this.lifecycle.draining) throw new UnavailableError('Not ready: this process is shutting down', SiteErrorCode.NotReady);
    if (!(await this.databaseAnswers(READY_DATABASE_BUDGET_MS))) throw new UnavailableError('Not ready: the database does not answer', SiteErrorCode.NotReady);
    if (!this.migrated) {
      const pending = await within(READY_DATABASE_BUDGET_MS, this.db.showMigrations(), true);
      if (pending) throw new UnavailableError('Not ready: database migrations are pending', SiteErrorCode.NotReady);
      this.migrated = true;
    }
    return { status: 'ready' };
  }

  /**
   * 200 `ok`, or 200 `degraded` when Redis is down (caches, rate limits and counters fall back to the process);
   * 503 `DATABASE_DOWN` when the database does not answer (catalogue reads are then served stale where possible).
   */
  @Get()
  @ApiOperation({ summary: 'Whether the database and Redis answer' })
  @ApiResponse({ status: 200, type: HealthDto })
  @ApiError(503, 'errorCode DATABASE_DOWN: the database does not answer', [SiteErrorCode.DatabaseDown])
  async check(): Promise<HealthDto> {
    const [database, redis] = await Promise.all([
      this.databaseAnswers(3000),
      this.redis ? within(1000, this.redis.ping().then(() => 'up' as const), 'down' as const) : Promise.resolve('unused' as const),
    ]);
    if (!database) throw new UnavailableError('The database does not answer', SiteErrorCode.DatabaseDown);
    return { status: redis === 'down' ? 'degraded' : 'ok', database: 'up', redis, searchIndex: this.search.state };
  }

  /** Whether the database answers `SELECT 1` within `ms`. */
  private databaseAnswers(ms: number): Promise<boolean> {
    return within(ms, this.db.isInitialized ? this.db.query('SELECT 1').then(() => true) : Promise.resolve(false), false);
  }
}
