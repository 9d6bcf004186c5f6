import { ApiProperty, ApiPropertyOptional, PartialType, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AD_KINDS, AD_PLACEMENTS, BRANDS, type AdKind, type AdPlacement, type Brand } from '@hunktube/shared';
import { AD_EVENTS, type AdEvent } from '../ad-zone-rules';

export const AD_NAME_MAX = 80;
export const AD_URL_MAX = 2048;
export const AD_HTML_MAX = 20_000;
export const AD_HOSTS_MAX = 20;
export const AD_SKIP_MAX = 300;
export const AD_CAP_COUNT_MAX = 100;
export const AD_CAP_HOURS_MAX = 720;
export const AD_WEIGHT_MAX = 100;

/** An origin a zone's ads load from: a scheme, a host and maybe a port; nothing else. */
const ORIGIN = /^https?:\/\/[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/;
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lowered = ({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)) : value);

/** At most `count` impressions per viewer in `hours`. */
export class FrequencyCapDto {
  @ApiProperty({ minimum: 1, maximum: AD_CAP_COUNT_MAX, example: 3 })
  @IsInt({ message: 'frequencyCap.count must be a whole number' })
  @Min(1, { message: `frequencyCap.count must be from 1 to ${AD_CAP_COUNT_MAX}` })
  @Max(AD_CAP_COUNT_MAX, { message: `frequencyCap.count must be from 1 to ${AD_CAP_COUNT_MAX}` })
  count: number;

  @ApiProperty({ minimum: 1, maximum: AD_CAP_HOURS_MAX, example: 24 })
  @IsInt({ message: 'frequencyCap.hours must be a whole number' })
  @Min(1, { message: `frequencyCap.hours must be from 1 to ${AD_CAP_HOURS_MAX}` })
  @Max(AD_CAP_HOURS_MAX, { message: `frequencyCap.hours must be from 1 to ${AD_CAP_HOURS_MAX}` })
  hours: number;
}

/**
 * `{count, hours}` or null, written out where it is used: OpenAPI 3.0 reads no `nullable` beside a `$ref`, and
 * Redocly wants a `type` beside `nullable`, which Nest drops beside `allOf`.
 */
const NULLABLE_CAP: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['count', 'hours'],
  properties: {
    count: { type: 'integer', minimum: 1, maximum: AD_CAP_COUNT_MAX, example: 3 },
    hours: { type: 'integer', minimum: 1, maximum: AD_CAP_HOURS_MAX, example: 24 },
  },
};

/**
 * A zone as an admin writes it (POST); PATCH takes any subset. Rules between fields: docs/ads.md › "Zones". The
 * defaults are said in the descriptions, not as OpenAPI's `default`, which would make the generated PATCH type
 * require them.
 */
export class CreateAdZoneDto {
  @ApiProperty({ minLength: 1, maxLength: AD_NAME_MAX, example: 'Home pre-roll' })
  @Transform(trimmed)
  @IsString({ message: 'name must be text' })
  @Length(1, AD_NAME_MAX, { message: `name must be 1 to ${AD_NAME_MAX} characters` })
  name: string;

  @ApiProperty({ enum: AD_PLACEMENTS })
  @IsIn(AD_PLACEMENTS, { message: `placement must be one of: ${AD_PLACEMENTS.join(', ')}` })
  placement: AdPlacement;

  @ApiProperty({ enum: AD_KINDS, description: '`vast` for the player (not banners), `html` for banners and pause' })
  @IsIn(AD_KINDS, { message: `kind must be one of: ${AD_KINDS.join(', ')}` })
  kind: AdKind;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: AD_URL_MAX, description: 'The VAST tag URL (http or https); only for `vast`', example: 'https://ads.example/vast?zone=1&cb=[CACHEBUSTING]' })
  @IsOptional()
  @IsString({ message: 'vastUrl must be an http or https URL' })
  @MaxLength(AD_URL_MAX, { message: `vastUrl is at most ${AD_URL_MAX} characters` })
  @Matches(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { message: 'vastUrl must be an http or https URL' })
  vastUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: AD_HTML_MAX, description: 'The banner snippet; only for `html`. Shown in a sandboxed frame' })
  @IsOptional()
  @IsString({ message: 'html must be text' })
  @Length(1, AD_HTML_MAX, { message: `html must be 1 to ${AD_HTML_MAX} characters` })
  html?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: AD_HOSTS_MAX, example: ['https://cdn.ads.example'], description: 'Further origins the ads load from (creatives, trackers); the pages’ CSP lets them in' })
  @IsOptional()
  @Transform(lowered)
  @IsArray({ message: 'hosts must be a list of origins' })
  @ArrayMaxSize(AD_HOSTS_MAX, { message: `hosts has at most ${AD_HOSTS_MAX} origins` })
  @Matches(ORIGIN, { each: true, message: 'each of hosts must be an origin such as https://cdn.example (a scheme, a host and maybe a port)' })
  hosts?: string[];

  @ApiProperty({ type: [String], enum: BRANDS, example: ['default'], description: 'The brands (sites) the zone runs on' })
  @IsDefined({ message: 'brands must list at least one brand' })
  @IsArray({ message: 'brands must list at least one brand' })
  @ArrayMinSize(1, { message: 'brands must list at least one brand' })
  @ArrayUnique({ message: 'brands must not repeat a brand' })
  @IsIn(BRANDS, { each: true, message: `each of brands must be one of: ${BRANDS.join(', ')}` })
  brands: Brand[];

  @ApiPropertyOptional({ description: 'Signed-in members see it too (left out: false)' })
  @IsOptional()
  @IsBoolean({ message: 'members must be true or false' })
  members?: boolean;

  @ApiPropertyOptional({ description: 'The embeddable player carries it (left out: false)' })
  @IsOptional()
  @IsBoolean({ message: 'embeds must be true or false' })
  embeds?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: AD_SKIP_MAX, description: 'Seconds before a video ad may be skipped; null: not skippable' })
  @IsOptional()
  @IsInt({ message: `skipAfter must be a whole number of seconds from 0 to ${AD_SKIP_MAX}, or null` })
  @Min(0, { message: `skipAfter must be a whole number of seconds from 0 to ${AD_SKIP_MAX}, or null` })
  @Max(AD_SKIP_MAX, { message: `skipAfter must be a whole number of seconds from 0 to ${AD_SKIP_MAX}, or null` })
  skipAfter?: number | null;

  @ApiPropertyOptional({ ...NULLABLE_CAP, description: 'At most `count` impressions per viewer in `hours`; null: no cap' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsObject({ message: 'frequencyCap must be {count, hours} or null' })
  @ValidateNested()
  @Type(() => FrequencyCapDto)
  frequencyCap?: FrequencyCapDto | null;

  @ApiPropertyOptional({ minimum: 1, maximum: AD_WEIGHT_MAX, description: 'Its share among the zones that fit one slot (left out: 1)' })
  @IsOptional()
  @IsInt({ message: `weight must be a whole number from 1 to ${AD_WEIGHT_MAX}` })
  @Min(1, { message: `weight must be a whole number from 1 to ${AD_WEIGHT_MAX}` })
  @Max(AD_WEIGHT_MAX, { message: `weight must be a whole number from 1 to ${AD_WEIGHT_MAX}` })
  weight?: number;

  @ApiPropertyOptional({ description: 'On or off (left out: on)' })
  @IsOptional()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;
}

export class UpdateAdZoneDto extends PartialType(CreateAdZoneDto) {}

export class AdZoneDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: AD_PLACEMENTS }) placement: AdPlacement;
  @ApiProperty({ enum: AD_KINDS }) kind: AdKind;
  @ApiProperty({ type: String, nullable: true }) vastUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) html: string | null;
  @ApiProperty({ type: [String] }) hosts: string[];
  @ApiProperty({ type: [String], enum: BRANDS }) brands: Brand[];
  @ApiProperty() members: boolean;
  @ApiProperty() embeds: boolean;
  @ApiProperty({ type: Number, nullable: true }) skipAfter: number | null;
  @ApiProperty(NULLABLE_CAP) frequencyCap: FrequencyCapDto | null;
  @ApiProperty() weight: number;
  @ApiProperty() active: boolean;
}

export class AdZoneListDto {
  @ApiProperty({ type: [AdZoneDto] }) data: AdZoneDto[];
}

/** GET /api/ads: which slot to fill. */
export class AdSlotsQuery {
  @ApiProperty({ enum: AD_PLACEMENTS })
  @IsIn(AD_PLACEMENTS, { message: `placement must be one of: ${AD_PLACEMENTS.join(', ')}` })
  placement: AdPlacement;

  @ApiPropertyOptional({ description: 'The video being watched (positive integer)' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'videoId must be a positive integer' })
  videoId?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'The embeddable player or a framed page asks' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'embed must be true or false' })
  embed?: 'true' | 'false';
}

/** One zone that may fill the slot; the client picks by weight and applies the cap it keeps (guests). */
export class AdSlotDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: AD_PLACEMENTS }) placement: AdPlacement;
  @ApiProperty({ enum: AD_KINDS }) kind: AdKind;
  @ApiProperty({ type: String, nullable: true }) vastUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) html: string | null;
  @ApiProperty({ type: Number, nullable: true }) skipAfter: number | null;
  @ApiProperty() weight: number;
  @ApiProperty(NULLABLE_CAP) frequencyCap: FrequencyCapDto | null;
}

export class AdSlotListDto {
  @ApiProperty({ type: [AdSlotDto] }) data: AdSlotDto[];
}

export class AdEventDto {
  @ApiProperty({ enum: AD_EVENTS })
  @IsIn(AD_EVENTS, { message: `event must be one of: ${AD_EVENTS.join(', ')}` })
  event: AdEvent;
}

export class AdCountsDto {
  @ApiProperty() requests: number;
  @ApiProperty() fills: number;
  @ApiProperty() impressions: number;
  @ApiProperty() completes: number;
  @ApiProperty() skips: number;
  @ApiProperty() clicks: number;
  @ApiProperty() errors: number;
}

export class AdDayDto extends AdCountsDto {
  @ApiProperty({ example: '2026-11-28', description: 'The day (the database’s calendar)' }) day: string;
}

export class AdZoneStatsDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: [7, 30, 90] }) days: number;
  @ApiProperty({ type: AdCountsDto, description: 'The period’s sums, what is still buffered included' }) totals: AdCountsDto;
  @ApiProperty({ type: [AdDayDto], description: 'Every day of the period, oldest first; days without any are zeros' }) daily: AdDayDto[];
}

export class AdZoneTotalsDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: AD_PLACEMENTS }) placement: AdPlacement;
  @ApiProperty() active: boolean;
  @ApiProperty({ type: AdCountsDto }) totals: AdCountsDto;
}

export class AdStatsDto {
  @ApiProperty({ enum: [7, 30, 90] }) days: number;
  @ApiProperty({ type: [AdZoneTotalsDto], description: 'Every zone, by id' }) zones: AdZoneTotalsDto[];
  @ApiProperty({ type: [AdDayDto], description: 'Every zone summed per day, oldest first' }) daily: AdDayDto[];
}
