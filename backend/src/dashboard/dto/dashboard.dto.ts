import { ApiProperty } from '@nestjs/swagger';
import { REMOVAL_REASONS } from '../../removal-requests/removal-request-reasons';
import { OPEN_AGE_BANDS } from '../../removal-requests/removal-requests.service';
import { RANKING_PERIODS } from '../../videos/site-stats.service';
import { STATS_PERIODS } from '../../videos/dto/video-stats.dto';

export class DashboardDayDto {
  @ApiProperty({ example: '2026-11-26', description: 'The day (the database’s calendar)' }) day: string;
  @ApiProperty({ description: 'Views counted that day, the whole site' }) views: number;
  @ApiProperty({ description: 'Likes given that day' }) likes: number;
  @ApiProperty({ description: 'Accounts created that day' }) members: number;
  @ApiProperty({ description: 'Videos uploaded that day (ingest jobs started)' }) uploads: number;
  @ApiProperty({ description: 'Ingest jobs that finished done that day' }) ingests_done: number;
  @ApiProperty({ description: 'Ingest jobs that failed for good that day' }) ingests_failed: number;
}

export class DashboardTotalsDto {
  @ApiProperty() views: number;
  @ApiProperty() likes: number;
  @ApiProperty() members: number;
  @ApiProperty() uploads: number;
  @ApiProperty() ingests_done: number;
  @ApiProperty() ingests_failed: number;
}

export class IngestSummaryDto {
  @ApiProperty({ description: 'Ingest jobs waiting now' }) queued: number;
  @ApiProperty({ description: 'Ingest jobs running now' }) running: number;
  @ApiProperty({ description: 'Minutes of video ingested (done) in the period' }) media_minutes: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Seconds of processing per minute of video, over the ingests done in the period; null when none',
  })
  seconds_per_media_minute: number | null;
}

export class RankedVideoDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Views counted in the period' }) views: number;
}

export class RankedTaxonDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Views counted in the period, over its published videos' }) views: number;
  @ApiProperty({ description: 'Its videos watched in the period' }) videos: number;
}

export class RankingDto {
  @ApiProperty({ enum: RANKING_PERIODS, description: 'day: today; week: the last 7 days, today included' }) period: string;
  @ApiProperty({ format: 'date-time', description: 'When it was computed (every 5 minutes, and on refresh-views)' }) computed_at: string;
  @ApiProperty({ type: [RankedVideoDto], description: 'The 10 most viewed published videos' }) videos: RankedVideoDto[];
  @ApiProperty({ type: [RankedTaxonDto], description: 'The 10 busiest categories' }) categories: RankedTaxonDto[];
  @ApiProperty({ type: [RankedTaxonDto], description: 'The 10 busiest performers' }) performers: RankedTaxonDto[];
}

export class RemovalAgeDto {
  @ApiProperty({ enum: OPEN_AGE_BANDS.map((b) => b.band), description: 'How long since it was filed' }) band: string;
  @ApiProperty() count: number;
}

export class RemovalReasonCountDto {
  @ApiProperty({ enum: REMOVAL_REASONS }) reason: string;
  @ApiProperty() count: number;
}

export class RemovalSummaryDto {
  @ApiProperty({ description: 'Open removal requests' }) open: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the longest-waiting one was filed' }) oldest_at: string | null;
  @ApiProperty({ type: [RemovalAgeDto], description: 'Every band, youngest first' }) by_age: RemovalAgeDto[];
  @ApiProperty({ type: [RemovalReasonCountDto], description: 'Every reason' }) by_reason: RemovalReasonCountDto[];
}

export class DashboardDto {
  @ApiProperty({ enum: STATS_PERIODS }) days: number;
  @ApiProperty({ type: [DashboardDayDto], description: 'Every day of the period, oldest first; days without any are zeros' }) daily: DashboardDayDto[];
  @ApiProperty({ type: DashboardTotalsDto, description: 'The period’s days added up' }) totals: DashboardTotalsDto;
  @ApiProperty({ type: IngestSummaryDto }) ingest: IngestSummaryDto;
  @ApiProperty({ type: [RankingDto], description: 'Today’s and the last 7 days’ rankings' }) rankings: RankingDto[];
  @ApiProperty({ type: RemovalSummaryDto }) removals: RemovalSummaryDto;
}
