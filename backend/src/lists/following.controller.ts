import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { EmptyBodyDto } from '../common/dto/empty-body.dto';
import { PageQuery } from '../videos/dto/list-videos.query';
import { VideoCardPageDto } from '../videos/dto/video.dto';
import { FollowingListDto, FollowStateDto } from './dto/following.dto';
import { FOLLOW_CAP, FollowsService } from './follows.service';
import { ListsErrorCode } from './lists-errors';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';

/** The performers a member follows, and their newest videos (docs/decisions.md › "Following performers"). Members only. */
@ApiTags('lists')
@ApiMember()
@Controller('me')
export class FollowingController {
  constructor(private readonly follows: FollowsService) {}

  @Get('following')
  @ApiOperation({ summary: 'The performers the caller follows' })
  @ApiOkResponse({ type: FollowingListDto, description: `The performers followed (at most ${FOLLOW_CAP}), most recent first` })
  following(@CurrentUser() user: AuthUser): Promise<FollowingListDto> {
    return this.follows.following(user);
  }

  @Get('followed-videos')
  @ApiOperation({ summary: 'The newest videos of the performers the caller follows' })
  @ApiOkResponse({ type: VideoCardPageDto, description: 'Published videos of the performers followed, each once, newest upload first' })
  feed(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.follows.feed(user, query);
  }

  @Put('following/:performerId')
  @ApiParam({ name: 'performerId', example: 'alex-stone' })
  @ApiOperation({ summary: 'Follow a performer' })
  @ApiOkResponse({ type: FollowStateDto, description: 'Followed (idempotent)' })
  @ApiError(400, 'Not a performer id, or a body with fields')
  @ApiError(404, 'Performer not found')
  @ApiError(409, `errorCode FOLLOW_LIMIT: already following ${FOLLOW_CAP} performers`, [ListsErrorCode.FollowLimit])
  follow(@CurrentUser() user: AuthUser, @Param('performerId') performerId: string, @Body() _body: EmptyBodyDto): Promise<FollowStateDto> {
    return this.follows.follow(user, performerId);
  }

  @Delete('following/:performerId')
  @ApiParam({ name: 'performerId', example: 'alex-stone' })
  @ApiOperation({ summary: 'Stop following a performer' })
  @ApiOkResponse({ type: FollowStateDto, description: 'Not followed any more (idempotent)' })
  @ApiError(400, 'Not a performer id')
  unfollow(@CurrentUser() user: AuthUser, @Param('performerId') performerId: string): Promise<FollowStateDto> {
    return this.follows.unfollow(user, performerId);
  }
}
