import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import { CONTINUE_WATCHING_LIMIT, MAX_RESUME_POSITION_SECONDS } from '@hunktube/shared';
import { HistoryVideoCardDto } from '../../videos/dto/video.dto';

export const POSITION_MESSAGE = `position must be a whole number of seconds from 0 to ${MAX_RESUME_POSITION_SECONDS}, or null`;

const isPosition = (value: unknown) =>
  value === null || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_RESUME_POSITION_SECONDS);

/** `{ position }` for PUT /api/me/history/{videoId}/position: where playback is, or null once finished. */
export class ResumePositionDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: MAX_RESUME_POSITION_SECONDS,
    example: 125,
    description: 'Whole seconds into the video; null (or a position in its last seconds) when it was watched to the end',
  })
  @ValidateBy({ name: 'isResumePosition', validator: { validate: isPosition, defaultMessage: () => POSITION_MESSAGE } })
  position: number | null;
}

export class ResumePositionStateDto {
  @ApiProperty({ description: 'false while the member’s history is paused: nothing was written' }) recorded: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The position kept: null when not started or finished' }) position: number | null;
}

export class ContinueWatchingQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: CONTINUE_WATCHING_LIMIT, default: 12 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1)
  @Max(CONTINUE_WATCHING_LIMIT)
  limit: number = 12;
}

export class ContinueWatchingCardDto extends HistoryVideoCardDto {
  @ApiProperty({ description: 'Whole seconds watched: where playback resumes' }) position_seconds: number;
}

export class ContinueWatchingDto {
  @ApiProperty({ type: [ContinueWatchingCardDto], description: 'Started and not finished, most recently watched first' })
  data: ContinueWatchingCardDto[];
  @ApiProperty({ description: 'The member’s history is paused: the row is not shown and nothing is recorded' }) paused: boolean;
}
