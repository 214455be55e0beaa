import { Module } from '@nestjs/common';
import { JobWorkerService } from './job-worker.service';
import { RebuildReconciler } from './rebuild-reconciler.service';
import { RefundReconciler } from './refund-reconciler.service';
import { RetentionSweeper } from './retention-sweeper.service';

/**
 * The job consumer and the worker's sweeps (refunds and item rebuilds a crash lost, retention). Imported by the worker app,
 * and by the API app in embedded mode (`@apps/worker`), on top of the shared CoreModule.
 */
@Module({ providers: [JobWorkerService, RefundReconciler, RebuildReconciler, RetentionSweeper], exports: [JobWorkerService] })
export class WorkerModule {}
