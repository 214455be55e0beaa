export * from './storage.port';
export * from './local-storage.adapter';
export * from './s3-storage.adapter';
export * from './create-storage';
