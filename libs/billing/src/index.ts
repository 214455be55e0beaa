export * from './api-key';
export * from './pricing.policy';
