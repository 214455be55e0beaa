export * from './tokens';
export * from './core.module';
export * from './worker.module';
export * from './job-worker.service';
export * from './job-routes';
export * from './queue-lifecycle.service';
export * from './stage-logger.adapter';
export * from './plugin-loader';
