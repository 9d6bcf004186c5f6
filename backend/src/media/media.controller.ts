import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiTags, ApiResponse } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { SecureQuery, SecureUrlDto } from './dto/secure.dto';
import { MediaService } from './media.service';

@ApiTags('watch page')
@Public()
@Controller('video')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  /** A signed URL for a video's stream: lifetime max(2 h, 3 × duration). */
  @Get('secure')
  @ApiBadRequestResponse({ description: 'A path outside /videos/ or with ..' })
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiResponse({ status: 200, type: SecureUrlDto })
  secure(@Query() query: SecureQuery): Promise<SecureUrlDto> {
    return this.media.secureUrl(query.path);
  }
}
