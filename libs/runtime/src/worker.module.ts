import { Module } from '@nestjs/common';
import { JobWorkerService } from './job-worker.service';

/** The job consumer. Imported by the worker app, and by the API app in embedded mode. */
@Module({ providers: [JobWorkerService] })
export class WorkerModule {}
