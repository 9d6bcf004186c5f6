import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { EmptyBodyDto } from '../common/dto/empty-body.dto';
import { AdminService } from './admin.service';

class NoErrorDto {
  @ApiProperty({ type: 'null', nullable: true }) error: null;
}

class RefreshViewsDto extends NoErrorDto {
  @ApiProperty({ description: 'Videos whose buffered counts were written' }) flushed: number;
}

@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('refresh-views')
  @HttpCode(HttpStatus.OK)
  refreshViews(@Body() _body: EmptyBodyDto): Promise<RefreshViewsDto> {
    return this.admin.refreshViews();
  }

  @Post('clear-cache')
  @HttpCode(HttpStatus.OK)
  clearCache(@Body() _body: EmptyBodyDto): Promise<NoErrorDto> {
    return this.admin.clearCache();
  }
}
