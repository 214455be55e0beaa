import { Module } from '@nestjs/common';
import { JobWorkerService } from './job-worker.service';
import { RefundReconciler } from './refund-reconciler.service';
import { RetentionSweeper } from './retention-sweeper.service';

/**
 * The job consumer and the worker's sweeps (refunds a crash lost, retention). Imported by the worker app,
 * and by the API app in embedded mode (`@apps/worker`), on top of the shared CoreModule.
 */
@Module({ providers: [JobWorkerService, RefundReconciler, RetentionSweeper], exports: [JobWorkerService] })
export class WorkerModule {}
