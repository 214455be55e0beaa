import type { AppConfig } from '@app/config';
import { LocalStorageAdapter } from './local-storage.adapter';
import { S3StorageAdapter } from './s3-storage.adapter';
import type { StoragePort } from './storage.port';

/** The storage backend chosen by configuration (STORAGE_DRIVER). */
export function createStorage(config: AppConfig): StoragePort {
  return config.storage.driver === 's3'
    ? new S3StorageAdapter(config.storage.s3)
    : new LocalStorageAdapter(config.storage.root, config.publicBaseUrl);
}
