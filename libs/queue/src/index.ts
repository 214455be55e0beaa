export * from './job-queue.port';
export * from './group-limit';
export * from './in-process-queue.adapter';
export * from './bull-queue.adapter';
