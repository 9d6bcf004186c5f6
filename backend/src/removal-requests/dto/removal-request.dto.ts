import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsIn, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import {
  MAX_REMOVAL_URLS,
  REMOVAL_CONTACT_MAX_LENGTH,
  REMOVAL_CONTACT_MIN_LENGTH,
  REMOVAL_DETAILS_MAX_LENGTH,
  REMOVAL_URL_MAX_LENGTH,
} from '@hunktube/shared';
import {
  REMOVAL_REASONS,
  REMOVAL_STATES,
  type RemovalReason,
  type RemovalState,
} from '../removal-request-reasons';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * One rule per field, each with the one message that fits what was sent (class-validator would otherwise join
 * the messages of every rule a value breaks: "at most 20; at least one; must be a list").
 */
const ValidWhen = (name: string, problem: (value: unknown) => string | null, options?: ValidationOptions) =>
  ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args) => problem(args?.value) ?? '',
      },
    },
    options,
  );

const VideoAddresses = () =>
  ValidWhen('videoAddresses', (value) => {
    if (!Array.isArray(value) || value.some((url) => typeof url !== 'string')) return 'urls must be a list of video addresses';
    if (value.length === 0) return 'Give the address of at least one video';
    if (value.length > MAX_REMOVAL_URLS) return `Give at most ${MAX_REMOVAL_URLS} video addresses in one request`;
    if (value.some((url: string) => url.length > REMOVAL_URL_MAX_LENGTH)) {
      return `A video address is at most ${REMOVAL_URL_MAX_LENGTH} characters`;
    }
    return null;
  });

const Text = (field: string, { min, max, missing }: { min: number; max: number; missing: string }) =>
  ValidWhen(`${field}Text`, (value) => {
    if (typeof value !== 'string') return missing;
    if (value.length < min) return missing;
    if (value.length > max) return `${field} is at most ${max} characters`;
    return null;
  });

export class CreateRemovalRequestDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_REMOVAL_URLS,
    description: "Addresses of this site's watch pages (…/video/123), or video ids",
    example: ['https://hunktube.example/video/123'],
  })
  @VideoAddresses()
  urls: string[];

  @ApiProperty({ enum: REMOVAL_REASONS })
  @IsIn(REMOVAL_REASONS, { message: `reason must be one of: ${REMOVAL_REASONS.join(', ')}` })
  reason: RemovalReason;

  @ApiPropertyOptional({ maxLength: REMOVAL_DETAILS_MAX_LENGTH })
  @IsOptional()
  @Transform(trimmed)
  @Text('details', { min: 0, max: REMOVAL_DETAILS_MAX_LENGTH, missing: 'details must be a string' })
  details?: string;

  @ApiProperty({
    minLength: REMOVAL_CONTACT_MIN_LENGTH,
    maxLength: REMOVAL_CONTACT_MAX_LENGTH,
    description: 'An e-mail address or another way to reach the sender',
  })
  @Transform(trimmed)
  @Text('contact', {
    min: REMOVAL_CONTACT_MIN_LENGTH,
    max: REMOVAL_CONTACT_MAX_LENGTH,
    missing: 'Give an e-mail address or another way to reach you',
  })
  contact: string;

  @ApiProperty({ enum: [true], description: 'The sender states in good faith that the request is accurate' })
  @Equals(true, { message: 'Confirm that the request is made in good faith' })
  good_faith: true;
}

export class RemovalRequestCreatedDto {
  @ApiProperty({ description: 'The request number, for the sender to quote' }) id: number;
  @ApiProperty({ type: [Number], description: 'The videos the request names' }) video_ids: number[];
}

export class RemovalRequestVideoDto {
  @ApiProperty() id: number;
  @ApiProperty({ type: String, nullable: true, description: 'null once the video has been deleted' }) title: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['processing', 'ready', 'failed'], description: 'null once deleted' })
  status: string | null;
}

export class RemovalRequestDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: REMOVAL_REASONS }) reason: RemovalReason;
  @ApiProperty({ description: 'Consent, age or illegality: handled before the rest' }) urgent: boolean;
  @ApiProperty({ type: [RemovalRequestVideoDto] }) videos: RemovalRequestVideoDto[];
  @ApiProperty() details: string;
  @ApiProperty() contact: string;
  @ApiProperty({ enum: REMOVAL_STATES }) state: RemovalState;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closed_at: string | null;
}

export class RemovalRequestListDto {
  @ApiProperty({
    type: [RemovalRequestDto],
    description: 'Open: urgent first, then oldest first. Closed: most recently closed first, at most 200',
  })
  data: RemovalRequestDto[];
}

export class RemovalRequestResponseDto {
  @ApiProperty({ type: RemovalRequestDto }) data: RemovalRequestDto;
}

export class RemovalRequestListQuery {
  @ApiPropertyOptional({ enum: ['open', 'closed'], default: 'open' })
  @IsOptional()
  @IsIn(['open', 'closed'], { message: 'state must be open or closed' })
  state?: 'open' | 'closed';
}

export class CloseRemovalRequestDto {
  @ApiProperty({ enum: ['resolved', 'dismissed'], description: 'resolved: acted on; dismissed: no action needed' })
  @IsIn(['resolved', 'dismissed'], { message: 'state must be resolved or dismissed' })
  state: 'resolved' | 'dismissed';
}
