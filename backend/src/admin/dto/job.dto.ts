import { ApiProperty } from '@nestjs/swagger';
import type { JobState } from '../../jobs/job-types';

export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'done', 'failed'];

export class JobDto {
  @ApiProperty() id: number;
  @ApiProperty({ type: Number, nullable: true }) video_id: number | null;
  @ApiProperty({ example: 'ingest' }) kind: string;
  @ApiProperty({ enum: JOB_STATES }) state: JobState;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
}

export class JobListDto {
  @ApiProperty({ type: [JobDto], description: 'Newest first, at most 200' }) data: JobDto[];
}

export class JobResponseDto {
  @ApiProperty({ type: JobDto }) data: JobDto;
}
