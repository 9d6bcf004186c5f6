import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { Equals, IsIn, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import {
  MAX_REMOVAL_URLS,
  REMOVAL_CONTACT_MAX_LENGTH,
  REMOVAL_CONTACT_MIN_LENGTH,
  REMOVAL_DETAILS_MAX_LENGTH,
  REMOVAL_URL_MAX_LENGTH,
} from '@hunktube/shared';
import { MAX_PAGE } from '../../videos/dto/list-videos.query';
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

const WholeNumber = (field: string, min: number, max: number) =>
  ValidWhen(`${field}WholeNumber`, (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? null : `${field} must be a whole number from ${min} to ${max}`,
  );

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
  @ApiProperty({
    description:
      'true: an open request with the same reason already named all these videos, and this one was counted as a further ' +
      'report of it (id is that request\'s number; its first details and contact are kept)',
  })
  merged: boolean;
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
  @ApiProperty({ description: 'Filings counted in this request: the first and every repeat merged into it', minimum: 1 })
  reports: number;
  @ApiProperty({ description: 'How many different senders (networks) those filings came from', minimum: 1 })
  reporters: number;
  @ApiProperty({ format: 'date-time', description: 'When it was filed first' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the latest filing merged into it came (created_at if none)' })
  last_reported_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closed_at: string | null;
}

/** How many requests of each reason the listed state holds. */
export class RemovalRequestCountsDto {
  @ApiProperty() underage: number;
  @ApiProperty() 'no-consent': number;
  @ApiProperty() illegal: number;
  @ApiProperty() copyright: number;
  @ApiProperty() other: number;
}

export class RemovalRequestListDto {
  @ApiProperty({
    type: [RemovalRequestDto],
    description:
      'Open: urgent reasons first; then the most senders first; then each sender\'s oldest open request before their ' +
      'next one (one sender\'s backlog cannot push everyone else down); then oldest first. Closed: most recently closed first',
  })
  data: RemovalRequestDto[];
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty({ description: 'Requests in the listed state (of the reason asked for, if any), over all pages' }) total: number;
  @ApiProperty({ type: RemovalRequestCountsDto, description: 'Requests in the listed state by reason, whatever reason was asked for' })
  counts: RemovalRequestCountsDto;
}

export class RemovalRequestResponseDto {
  @ApiProperty({ type: RemovalRequestDto }) data: RemovalRequestDto;
}

/** A page of the queue: a bounded answer however many requests arrive. */
export const REMOVAL_LIST_DEFAULT_LIMIT = 20;
export const REMOVAL_LIST_MAX_LIMIT = 50;

export class RemovalRequestListQuery {
  @ApiPropertyOptional({ enum: ['open', 'closed'], default: 'open' })
  @IsOptional()
  @IsIn(['open', 'closed'], { message: 'state must be open or closed' })
  state: 'open' | 'closed' = 'open';

  @ApiPropertyOptional({ enum: REMOVAL_REASONS, description: 'Only requests of this reason' })
  @IsOptional()
  @IsIn(REMOVAL_REASONS, { message: `reason must be one of: ${REMOVAL_REASONS.join(', ')}` })
  reason?: RemovalReason;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @WholeNumber('page', 1, MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: REMOVAL_LIST_MAX_LIMIT, default: REMOVAL_LIST_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @WholeNumber('limit', 1, REMOVAL_LIST_MAX_LIMIT)
  limit: number = REMOVAL_LIST_DEFAULT_LIMIT;
}

export class CloseRemovalRequestDto {
  @ApiProperty({ enum: ['resolved', 'dismissed'], description: 'resolved: acted on; dismissed: no action needed' })
  @IsIn(['resolved', 'dismissed'], { message: 'state must be resolved or dismissed' })
  state: 'resolved' | 'dismissed';
}
