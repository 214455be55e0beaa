export * from './scene';
export * from './geometry';
export * from './build-picture-scene';
export * from './viewer-budgets';
export * from './flipbook-timing';
