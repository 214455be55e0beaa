import { Module } from '@nestjs/common';
import { JobWorkerService } from './job-worker.service';
import { RefundReconciler } from './refund.listener';
import { RetentionSweeper } from './retention-sweeper.service';

/** The job consumer. Imported by the worker app, and by the API app in embedded mode. */
@Module({ providers: [JobWorkerService, RefundReconciler, RetentionSweeper], exports: [JobWorkerService] })
export class WorkerModule {}
