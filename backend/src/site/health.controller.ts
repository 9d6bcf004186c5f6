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
  ) {}

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
      within(3000, this.db.isInitialized ? this.db.query('SELECT 1').then(() => true) : Promise.resolve(false), false),
      this.redis ? within(1000, this.redis.ping().then(() => 'up' as const), 'down' as const) : Promise.resolve('unused' as const),
    ]);
    if (!database) throw new UnavailableError('The database does not answer', SiteErrorCode.DatabaseDown);
    return { status: redis === 'down' ? 'degraded' : 'ok', database: 'up', redis, searchIndex: this.search.state };
  }
}
