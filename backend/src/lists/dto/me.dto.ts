import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { HistoryVideoCardDto } from '../../videos/dto/video.dto';

/** `{ paused }`, in and out of PUT /api/me/history/paused. */
export class HistoryPausedDto {
  @ApiProperty()
  @IsBoolean({ message: 'paused must be true or false' })
  paused: boolean;
}

export class HistoryPageDto {
  @ApiProperty({ type: [HistoryVideoCardDto], description: 'Most recently watched first' }) data: HistoryVideoCardDto[];
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty() total: number;
}
