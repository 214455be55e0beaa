export * from './app-config';
export * from './load-config';
export { envSchema, fileSchema } from './config.schema';
export * from './cli-config';
export * from './config-reference';
