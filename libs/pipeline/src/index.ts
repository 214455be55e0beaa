import 'reflect-metadata';

export * from './container';

export * from './errors';
export * from './job-state';
export * from './stage.port';
export * from './pipeline-definition';
export * from './plugin';
export * from './registry';
export * from './runner';
export * from './progress-writer';
export * from './job-store.port';
export * from './tokens';
export * from './metrics.port';
export * from './work-slots';
