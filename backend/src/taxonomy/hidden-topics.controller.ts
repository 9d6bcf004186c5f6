import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';
import { HiddenTopicsDto } from './dto/hidden-topics.dto';
import { HiddenTopicsService } from './hidden-topics.service';

/** The topics a member hides from every listing, search, related row and Continue watching. Members only. */
@ApiTags('lists')
@ApiMember()
@Controller('me')
export class HiddenTopicsController {
  constructor(private readonly hidden: HiddenTopicsService) {}

  @Get('hidden')
  @ApiOperation({ summary: 'The categories, performers and tags the caller hides' })
  @ApiOkResponse({ type: HiddenTopicsDto })
  get(@CurrentUser() user: AuthUser): Promise<HiddenTopicsDto> {
    return this.hidden.get(user.id);
  }

  @Put('hidden')
  @ApiOperation({ summary: 'Replace the topics the caller hides (all three lists, at most 100 ids each)' })
  @ApiOkResponse({ type: HiddenTopicsDto, description: 'As stored: each list sorted, each id once' })
  @ApiError(400, 'A list missing or too long, an id that is not one, or an unknown topic')
  put(@CurrentUser() user: AuthUser, @Body() dto: HiddenTopicsDto): Promise<HiddenTopicsDto> {
    return this.hidden.put(user.id, dto);
  }
}
