import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsPositive, Max } from 'class-validator';
import { VideoIdDto } from '../../common/dto/video-id.dto';

export const MAX_DURATION_SECONDS = 86_400;

export class UpdateDurationDto extends VideoIdDto {
  @ApiProperty({ description: 'Seconds, as the player reports them; stored rounded down', minimum: 0, exclusiveMinimum: true, maximum: MAX_DURATION_SECONDS })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'videoDuration must be a number of seconds' })
  @IsPositive({ message: 'videoDuration must be more than 0' })
  @Max(MAX_DURATION_SECONDS, { message: `videoDuration must be at most ${MAX_DURATION_SECONDS}` })
  videoDuration: number;
}

export class ViewsDto {
  @ApiProperty() views: number;
}

export class LikesDto {
  @ApiProperty() likes: number;
}

export class DurationDto {
  @ApiProperty({ description: 'Whole seconds' }) duration: number;
}
