import { HiddenTopicsDto } from '../../taxonomy/dto/hidden-topics.dto';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '@hunktube/shared';

/** `{ password }` for DELETE /api/me/account: the account's password, asked again. */
export class DeleteAccountDto {
  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH, description: 'The account’s password, asked again' })
  @IsString({ message: 'password must be text' })
  @MinLength(1, { message: 'password is required' })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: `password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  password: string;
}

class ExportedVideoDto {
  @ApiProperty() video_id: number;
  @ApiProperty({ type: String, nullable: true, description: 'The title now; null for a video since deleted' }) title: string | null;
  @ApiProperty({ description: 'The watch page, on this site' }) page: string;
}

class ExportedListEntryDto extends ExportedVideoDto {
  @ApiProperty({ format: 'date-time' }) added_at: string;
}

class ExportedLikeDto extends ExportedVideoDto {
  @ApiProperty({ format: 'date-time' }) liked_at: string;
}

class ExportedHistoryEntryDto extends ExportedVideoDto {
  @ApiProperty({ format: 'date-time' }) watched_at: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Where playback stopped (Continue watching)' }) position_seconds: number | null;
}

class ExportedPlaylistDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: [ExportedListEntryDto], description: 'In the playlist’s order' }) videos: ExportedListEntryDto[];
}

class ExportedFollowDto {
  @ApiProperty() performer_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) followed_at: string;
}

class ExportedSessionDto {
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

class ExportedAccountDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() display_name: string;
  @ApiProperty({ type: String, nullable: true, enum: ['member', 'admin'] }) role: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty() history_paused: boolean;
  @ApiProperty({ type: [ExportedSessionDto], description: 'Sessions still open (signed-in browsers)' }) sessions: ExportedSessionDto[];
}

export class ExportedAdImpressionDto {
  @ApiProperty({ description: 'The ad zone shown' }) zone_id: number;
  @ApiProperty({ description: 'Its name' }) zone: string;
  @ApiProperty({ format: 'date-time' }) shown_at: string;
}

/** Everything the site keeps about a member, as GET /api/me/export sends it (a JSON file). */
export class AccountExportDto {
  @ApiProperty({ format: 'date-time' }) exported_at: string;
  @ApiProperty({ description: 'The site’s name' }) site: string;
  @ApiProperty({ type: ExportedAccountDto }) account: ExportedAccountDto;
  @ApiProperty({ type: [ExportedListEntryDto], description: 'Newest first' }) bookmarks: ExportedListEntryDto[];
  @ApiProperty({ type: [ExportedListEntryDto], description: 'Newest first' }) watch_later: ExportedListEntryDto[];
  @ApiProperty({ type: [ExportedPlaylistDto], description: 'Most recently changed first' }) playlists: ExportedPlaylistDto[];
  @ApiProperty({ type: [ExportedLikeDto], description: 'Newest first' }) likes: ExportedLikeDto[];
  @ApiProperty({ type: [ExportedFollowDto], description: 'Most recently followed first' }) following: ExportedFollowDto[];
  @ApiProperty({ type: [ExportedHistoryEntryDto], description: 'Most recently watched first' }) history: ExportedHistoryEntryDto[];
  @ApiProperty({ type: HiddenTopicsDto, description: 'The categories, performers and tags hidden from every listing' }) hidden: HiddenTopicsDto;
  @ApiProperty({
    type: [ExportedAdImpressionDto],
    description: 'The ads seen in zones with a frequency cap, which the cap counts (kept 720 hours at most; docs/ads.md); newest first',
  })
  ad_impressions: ExportedAdImpressionDto[];
}
