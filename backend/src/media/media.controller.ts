import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { SecureQuery, SecureUrlDto } from './dto/secure.dto';
import { MediaService } from './media.service';
import { ApiError, ApiPublic } from '../openapi/openapi.decorators';

@ApiTags('watch page')
@ApiPublic()
@Public()
@Controller('video')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  /** A signed URL for a video's stream: lifetime max(2 h, 3 × duration). */
  @Get('secure')
  @ApiOperation({ summary: 'A signed URL for a video’s stream' })
  @ApiResponse({ status: 200, type: SecureUrlDto })
  @ApiError(400, 'A path outside /videos/ or with ..')
  @ApiError(404, 'Video not found')
  secure(@Query() query: SecureQuery): Promise<SecureUrlDto> {
    return this.media.secureUrl(query.path);
  }
}
