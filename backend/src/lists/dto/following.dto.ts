import { ApiProperty } from '@nestjs/swagger';

export class FollowedPerformerDto {
  @ApiProperty({ example: 'alex-stone' }) id: string;
  @ApiProperty({ example: 'Alex Stone' }) name: string;
  @ApiProperty({ description: 'Published videos carrying the performer' }) video_count: number;
  @ApiProperty({ description: 'When the member followed (ISO 8601)' }) followed_at: string;
}

export class FollowingListDto {
  @ApiProperty({ type: [FollowedPerformerDto], description: 'Most recently followed first' }) data: FollowedPerformerDto[];
}

export class FollowStateDto {
  @ApiProperty({ description: 'Whether the member now follows the performer' }) following: boolean;
}
