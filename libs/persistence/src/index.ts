export * from './job.entity';
export * from './job.repository';
export * from './data-source.factory';
export { MIGRATIONS } from './migrations';
export * from './webhook.entity';
export * from './webhook.repository';
export * from './account.repository';
export * from './idempotency.repository';
