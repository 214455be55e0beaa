export * from './analytics-event';
export * from './user-agents';
export * from './visitors';
export * from './aggregate';
export * from './analytics-buffer.port';
export * from './memory-analytics-buffer.adapter';
export * from './redis-analytics-buffer.adapter';
export * from './seen-ids';
