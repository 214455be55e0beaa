import type { AppConfig } from '@app/config';
import type { CreateStorage, StorageModuleContext } from '@image-ar/plugin-sdk';
import { LocalStorageAdapter } from './local-storage.adapter';
import { S3StorageAdapter } from './s3-storage.adapter';
import type { StoragePort } from './storage.port';

/** What a storage module's factory gets besides its own options (part of the SDK's contract). */
export type { StorageModuleContext } from '@image-ar/plugin-sdk';

const PORT_METHODS = ['put', 'putStream', 'stat', 'read', 'url', 'delete', 'ping'] as const;

/** What choosing and making a storage backend reads of the configuration (plain data: it crosses to threads). */
export type StorageSettings = Pick<AppConfig, 'storage' | 'publicBaseUrl' | 'dataDir'>;

export interface CreateStorageOptions {
  /**
   * Local storage: remove the temporary files an interrupted write left (default true). A second instance in the
   * same process (a worker thread's) says false: the process's own instance sweeps once.
   */
  sweepTemps?: boolean;
}

/** The storage backend chosen by configuration: STORAGE_DRIVER (local | s3) or CONFIG_FILE `storage.module`. */
export function createStorage(config: StorageSettings, opts: CreateStorageOptions = {}): StoragePort {
  const s = config.storage;
  switch (s.driver) {
    case 's3':
      return new S3StorageAdapter(s.s3);
    case 'local': {
      const local = new LocalStorageAdapter(s.root, config.publicBaseUrl);
      // In the background: a large tree must not delay the start, and leftovers harm nothing meanwhile.
      if (opts.sweepTemps ?? true) void local.removeStaleTemps().catch(() => undefined);
      return local;
    }
    case 'module':
      return loadStorageModule(s.module, s.options, { publicBaseUrl: config.publicBaseUrl, dataDir: config.dataDir });
  }
}

/**
 * Loads a custom backend: a module path or package name exporting `createStorage(options, context)`
 * (or that function as `default`). The result is checked against {@link StoragePort} at boot, so a
 * broken module stops the start instead of failing jobs.
 */
export function loadStorageModule(spec: string, options: Record<string, unknown>, context: StorageModuleContext): StoragePort {
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(spec) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`storage: cannot load module "${spec}": ${(err as Error).message}`, { cause: err });
  }
  const factory = (mod.createStorage ?? mod.default) as CreateStorage | undefined;
  if (typeof factory !== 'function') throw new Error(`storage: "${spec}" does not export createStorage(options, context)`);
  let storage: StoragePort;
  try {
    storage = factory(options, context);
  } catch (err) {
    throw new Error(`storage: "${spec}" refused its options: ${(err as Error).message}`, { cause: err });
  }
  const missing = PORT_METHODS.filter((m) => typeof (storage as unknown as Record<string, unknown>)?.[m] !== 'function');
  if (missing.length || typeof storage.driver !== 'string') {
    throw new Error(
      `storage: "${spec}" returned no storage backend (missing: ${[...missing, ...(typeof storage?.driver === 'string' ? [] : ['driver'])].join(', ')})`,
    );
  }
  return storage;
}
