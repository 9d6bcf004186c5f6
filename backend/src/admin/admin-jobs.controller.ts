import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { EmptyBodyDto } from '../common/dto/empty-body.dto';
import { parseId } from '../common/pipes/parse-id.pipe';
import { JobListDto, JobResponseDto } from './dto/job.dto';
import { NoErrorDto } from '../common/dto/no-error.dto';
import { AdminJobsService } from './admin-jobs.service';

@ApiTags('admin')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'No or bad token' })
@ApiForbiddenResponse({ description: 'Not an admin' })
@Roles('admin')
@Controller('admin/jobs')
export class AdminJobsController {
  constructor(private readonly jobs: AdminJobsService) {}

  @Get()
  @ApiOkResponse({ type: JobListDto })
  list(): Promise<JobListDto> {
    return this.jobs.list();
  }

  @Get(':id')
  @ApiOkResponse({ type: JobResponseDto })
  @ApiNotFoundResponse({ description: 'Job not found' })
  findOne(@Param('id', parseId()) id: number): Promise<JobResponseDto> {
    return this.jobs.findOne(id);
  }

  @Post(':id/retry')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: NoErrorDto, description: 'Queued again: state queued, progress 0, no error, no attempts' })
  @ApiNotFoundResponse({ description: 'Job not found' })
  @ApiConflictResponse({ description: 'Only failed jobs can be retried' })
  retry(@Param('id', parseId()) id: number, @Body() _body: EmptyBodyDto): Promise<NoErrorDto> {
    return this.jobs.retry(id);
  }
}
