import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { EmptyBodyDto } from '../common/dto/empty-body.dto';
import { parseId } from '../common/pipes/parse-id.pipe';
import { JobListDto, JobResponseDto } from './dto/job.dto';
import { NoErrorDto } from '../common/dto/no-error.dto';
import { AdminJobsService } from './admin-jobs.service';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';

@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/jobs')
export class AdminJobsController {
  constructor(private readonly jobs: AdminJobsService) {}

  @Get()
  @ApiOperation({ summary: 'Ingest jobs, newest first' })
  @ApiOkResponse({ type: JobListDto })
  list(): Promise<JobListDto> {
    return this.jobs.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'An ingest job' })
  @ApiOkResponse({ type: JobResponseDto })
  @ApiError(400, 'id is not a positive integer')
  @ApiError(404, 'Job not found')
  findOne(@Param('id', parseId()) id: number): Promise<JobResponseDto> {
    return this.jobs.findOne(id);
  }

  @Post(':id/retry')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Run a failed ingest job again' })
  @ApiAcceptedResponse({ type: NoErrorDto, description: 'Queued again: state queued, progress 0, no error, no attempts' })
  @ApiError(404, 'Job not found')
  @ApiError(409, 'Only failed jobs can be retried')
  retry(@Param('id', parseId()) id: number, @Body() _body: EmptyBodyDto): Promise<NoErrorDto> {
    return this.jobs.retry(id);
  }
}
