import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser, Public, Roles, type AuthUser } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { VideoStatsQuery } from '../videos/dto/video-stats.dto';
import { ApiAdmin, ApiError, ApiPublic } from '../openapi/openapi.decorators';
import { AdsService } from './ads.service';
import { AdEventsService } from './ad-events.service';
import { AdStatsService } from './ad-stats.service';
import { AD_ZONE_NOT_FOUND, AdZonesService } from './ad-zones.service';
import {
  AdEventDto,
  AdSlotListDto,
  AdSlotsQuery,
  AdStatsDto,
  AdZoneDto,
  AdZoneListDto,
  AdZoneStatsDto,
  CreateAdZoneDto,
  UpdateAdZoneDto,
} from './dto/ad-zone.dto';

/** A guest's slots: any cache may keep them, and asks again before each use. */
const ADS_CACHE_CONTROL = 'public, no-cache';

/** What a page or the player asks: the zones that may fill a slot, and the events it counts. */
@ApiTags('ads')
@ApiPublic()
@Controller('ads')
export class AdsController {
  constructor(
    private readonly ads: AdsService,
    private readonly events: AdEventsService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'The active zones of this site that may fill a slot for this viewer (members, embeds); the client picks by weight and applies the cap' })
  @ApiOkResponse({ type: AdSlotListDto })
  @ApiError(400, 'An unknown placement, a videoId that is not a positive integer, or embed not true or false')
  slots(
    @Query() query: AdSlotsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CurrentUser() user: AuthUser | null,
  ): Promise<AdSlotListDto> {
    // Not a catalogue answer (no hot answer keeps it: a zone's change is not the catalogue's): a guest's may be
    // stored but is checked again each time (its ETag answers 304), so a change applies on the next page; a
    // member's depends on their cap.
    if (!user) res.setHeader('Cache-Control', ADS_CACHE_CONTROL);
    return this.ads.slots(req, query.placement, query.embed === 'true', user?.id ?? null);
  }

  @Post(':id/events')
  @Public()
  @HttpCode(204)
  @ApiOperation({ summary: 'Count an event of a zone (per zone and day)' })
  @ApiNoContentResponse({ description: 'Counted' })
  @ApiError(400, 'id is not a positive integer, or an unknown event')
  @ApiError(404, AD_ZONE_NOT_FOUND)
  async event(@Param('id', parseId()) id: number, @Body() dto: AdEventDto, @CurrentUser() user: AuthUser | null): Promise<void> {
    await this.events.record(id, dto.event, user?.id ?? null);
  }
}

/** The admins' zones and their figures. */
@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin')
export class AdminAdZonesController {
  constructor(
    private readonly zones: AdZonesService,
    private readonly stats: AdStatsService,
  ) {}

  @Get('ad-zones')
  @ApiOperation({ summary: 'Every ad zone, by id' })
  @ApiOkResponse({ type: AdZoneListDto })
  async list(): Promise<AdZoneListDto> {
    return { data: await this.zones.zones() };
  }

  @Post('ad-zones')
  @ApiOperation({ summary: 'Create an ad zone' })
  @ApiCreatedResponse({ type: AdZoneDto })
  @ApiError(400, 'A field is missing or invalid (the message names it), or a kind the placement does not take')
  create(@Body() dto: CreateAdZoneDto): Promise<AdZoneDto> {
    return this.zones.create(dto);
  }

  @Patch('ad-zones/:id')
  @ApiOperation({ summary: 'Change any of a zone’s fields' })
  @ApiOkResponse({ type: AdZoneDto })
  @ApiError(400, 'A field is invalid (the message names it), or the zone would not hold together (a kind the placement does not take)')
  @ApiError(404, AD_ZONE_NOT_FOUND)
  update(@Param('id', parseId()) id: number, @Body() dto: UpdateAdZoneDto): Promise<AdZoneDto> {
    return this.zones.update(id, dto);
  }

  @Delete('ad-zones/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a zone with its figures' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiError(404, AD_ZONE_NOT_FOUND)
  async remove(@Param('id', parseId()) id: number): Promise<void> {
    await this.zones.remove(id);
  }

  @Get('ad-zones/:id/stats')
  @ApiOperation({ summary: 'A zone’s figures per day over the last days' })
  @ApiOkResponse({ type: AdZoneStatsDto })
  @ApiError(400, 'id is not a positive integer, or days is not 7, 30 or 90')
  @ApiError(404, AD_ZONE_NOT_FOUND)
  zoneStats(@Param('id', parseId()) id: number, @Query() query: VideoStatsQuery): Promise<AdZoneStatsDto> {
    return this.stats.zone(id, query.days);
  }

  @Get('ad-stats')
  @ApiOperation({ summary: 'Every zone’s totals and the days summed over the last days (beyond the contract)' })
  @ApiOkResponse({ type: AdStatsDto })
  @ApiError(400, 'days is not 7, 30 or 90')
  allStats(@Query() query: VideoStatsQuery): Promise<AdStatsDto> {
    return this.stats.all(query.days);
  }
}
