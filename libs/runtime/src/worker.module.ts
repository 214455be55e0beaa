import { Module } from '@nestjs/common';
import { JobWorkerService } from './job-worker.service';
import { RefundReconciler } from './refund.listener';

/** The job consumer. Imported by the worker app, and by the API app in embedded mode. */
@Module({ providers: [JobWorkerService, RefundReconciler], exports: [JobWorkerService] })
export class WorkerModule {}
