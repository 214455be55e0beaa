import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { AdminJobsController } from './admin-jobs.controller';
import { AdminJobsService } from './admin-jobs.service';
import { ConversionService } from './conversion.service';
import { JobAdmission } from './job-admission.service';
import { JobCancellation } from './job-cancellation.service';
import { V1Controller } from './v1.controller';
import { V2JobsController } from './v2-jobs.controller';
import { V2JobsService } from './v2-jobs.service';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/**
 * Jobs: v1 convert/status/result, the caller's v2 jobs (list, get, delete, cancel), the operators' jobs and
 * queue (/api/admin), callback deliveries. Exports JobAdmission (fair share) to the modules that create jobs.
 */
@Module({
  imports: [HttpModule],
  controllers: [V1Controller, V2JobsController, AdminJobsController, WebhookDeliveriesController],
  providers: [JobAdmission, JobCancellation, ConversionService, V2JobsService, AdminJobsService, WebhookDeliveriesService],
  exports: [JobAdmission],
})
export class JobsModule {}
