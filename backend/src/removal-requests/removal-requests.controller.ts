import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Public, Roles, type AuthUser } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { clientNetworkOf } from '../common/utils/client-ip';
import {
  CloseRemovalRequestDto,
  CreateRemovalRequestDto,
  RemovalRequestCreatedDto,
  RemovalRequestListDto,
  RemovalRequestListQuery,
  RemovalRequestResponseDto,
} from './dto/removal-request.dto';
import { REMOVAL_BUDGETS } from './removal-request-budget';
import { RemovalRequestsService } from './removal-requests.service';
import { ApiAdmin, ApiError, ApiPublic } from '../openapi/openapi.decorators';

/** The public side: anyone, signed in or not, may ask for videos to be taken down. Beyond the contract. */
@ApiTags('removal-requests')
@ApiPublic()
@Controller('removal-requests')
export class RemovalRequestsController {
  constructor(private readonly requests: RemovalRequestsService) {}

  @Public()
  @Post()
  @ApiOperation({ summary: 'Ask for videos to be taken down' })
  @ApiCreatedResponse({
    type: RemovalRequestCreatedDto,
    description: 'Filed, or counted as a further report of the open request with the same reason that names all its videos (merged: true)',
  })
  @ApiError(400, 'A field is missing or invalid, or an address is not a video of this site')
  @ApiError(
    429,
    `Each filing counts against a budget per hour: ${REMOVAL_BUDGETS.anonymous} per address ` +
      `(IPv6: per /64) without signing in, ${REMOVAL_BUDGETS.member} per member account and ${REMOVAL_BUDGETS.membersPerNetwork} ` +
      'for all members on one address, none for admins. Retry-After says when the sender may file again',
  )
  create(@Body() dto: CreateRemovalRequestDto, @Req() req: Request, @CurrentUser() user: AuthUser | null): Promise<RemovalRequestCreatedDto> {
    // The Host the form came to (X-Forwarded-Host only from a trusted proxy) is one of this site's names.
    return this.requests.create(dto, { network: clientNetworkOf(req), user }, req.host);
  }
}

/** The admins' queue of removal requests. */
@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/removal-requests')
export class AdminRemovalRequestsController {
  constructor(private readonly requests: RemovalRequestsService) {}

  @Get()
  @ApiOperation({ summary: 'Removal requests, filtered by state and reason' })
  @ApiOkResponse({ type: RemovalRequestListDto })
  @ApiError(400, 'An unknown state or reason, or a page or limit out of its limits')
  list(@Query() query: RemovalRequestListQuery): Promise<RemovalRequestListDto> {
    return this.requests.list(query);
  }

  @Post(':id/close')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Close a removal request' })
  @ApiOkResponse({ type: RemovalRequestResponseDto })
  @ApiError(404, 'Removal request not found')
  @ApiError(409, 'This removal request is already closed')
  close(
    @Param('id', parseId()) id: number,
    @Body() dto: CloseRemovalRequestDto,
    @CurrentUser() admin: AuthUser,
  ): Promise<RemovalRequestResponseDto> {
    return this.requests.close(id, dto, admin.id);
  }
}
