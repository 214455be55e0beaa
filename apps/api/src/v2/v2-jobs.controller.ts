import { Controller, Get, Inject, Injectable, Param, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountRepository, JobRepository, ShowcaseRepository } from '@app/persistence';
import { PublicUrls, STORAGE, v2JobView } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { V2JobDto } from './v2.dto';

@Injectable()
export class V2JobsService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly showcases: ShowcaseRepository,
    private readonly accounts: AccountRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  async get(ownerId: string, jobId: string) {
    const job = /^v2_[a-z2-7]{1,60}$/.test(jobId) ? await this.jobs.findForOwner(jobId, ownerId) : null;
    if (!job) throw ApiError.notFound(`job ${jobId.slice(0, 80)}`);
    return v2JobView(job, { item: await this.showcases.itemForJob(job.id), accounts: this.accounts }, this.urls, this.storage);
  }
}

@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/jobs')
@UseGuards(ApiKeyGuard)
export class V2JobsController {
  constructor(private readonly jobs: V2JobsService) {}

  @Get(':jobId')
  @ApiOperation({ summary: 'A v2 job: status (queued, downloading, converting, uploading, completed, failed), progress, and the result once completed' })
  @ApiResponse({ status: 200, type: V2JobDto, description: 'Also the body of an animated AR callback.' })
  get(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.jobs.get(req.principal.userId, jobId);
  }
}
