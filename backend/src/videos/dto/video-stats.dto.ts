import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';

/** The periods the per-video charts offer, in days (today included). */
export const STATS_PERIODS = [7, 30, 90] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** `?days=7|30|90`: the period of a video's statistics and of the site dashboard. */
export class VideoStatsQuery {
  @ApiPropertyOptional({ enum: STATS_PERIODS, default: 30, description: 'Days of history, today included' })
  @IsOptional()
  @Type(() => Number)
  @IsIn(STATS_PERIODS, { message: `days must be one of: ${STATS_PERIODS.join(', ')}` })
  days: StatsPeriod = 30;
}

export class DailyCountsDto {
  @ApiProperty({ example: '2026-11-26', description: 'The day (the database’s calendar)' }) day: string;
  @ApiProperty({ description: 'Views counted that day' }) views: number;
  @ApiProperty({ description: 'Likes given that day (one taken back later stays on the day it was given)' }) likes: number;
}

export class RankDto {
  @ApiProperty({ type: Number, nullable: true, description: '1 for the first; null when the video is not published' }) rank: number | null;
  @ApiProperty({ description: 'Published videos ranked' }) of: number;
}

export class TrendingRankDto extends RankDto {
  @ApiProperty({ description: 'Views of the last 7 days, each day weighted 0.8 per day of age' }) score: number;
}

export class CategoryRankDto extends RankDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class LifetimeCountsDto {
  @ApiProperty() views: number;
  @ApiProperty() likes: number;
}

export class VideoStatsDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty({ enum: ['processing', 'ready', 'failed'] }) status: string;
  @ApiProperty({ enum: STATS_PERIODS }) days: number;
  @ApiProperty({ type: LifetimeCountsDto, description: 'Lifetime views and likes, buffered ones included' }) lifetime: LifetimeCountsDto;
  @ApiProperty({ type: TrendingRankDto }) trending: TrendingRankDto;
  @ApiProperty({ type: [CategoryRankDto], description: 'Its rank by lifetime views in each of its categories' }) categories: CategoryRankDto[];
  @ApiProperty({ type: [DailyCountsDto], description: 'Every day of the period, oldest first; days without any are zeros' }) daily: DailyCountsDto[];
}
