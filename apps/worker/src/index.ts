/**
 * The worker app's module, for the one other process that hosts it: the API in embedded mode
 * (`--role all`). The worker process itself starts from main.ts.
 */
export * from './worker.module';
export * from './job-worker.service';
