import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The storage contract (`StoragePort`: where models and posters live; `StoredObject`, `ObjectStat`) is
 * defined once, in `@image-ar/plugin-sdk`: backend authors compile against it and run its
 * `describeStorageContract` (the built-in backends run it in libs/storage/src/storage.contract.spec.ts).
 */
export type { ObjectStat, StoragePort, StoredObject } from '@image-ar/plugin-sdk';

/** Rejects keys that could escape the storage root or confuse URLs. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`storage: invalid key "${key}"`);
  }
}

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  glb: 'model/gltf-binary',
  usdz: 'model/vnd.usdz+zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  json: 'application/json',
};

/**
 * Cache-Control of stored files served to browsers (`/files`, the showcase thumbnails, S3 objects). Every
 * stored file can be deleted (DELETE of a job or picture, retention, user deletion), so shared caches keep
 * one an hour, not a year as `immutable`: a deleted picture stops being served within the hour by caches
 * that honour it (docs/operations.md, CDN caveat). ETags make a revalidation cheap.
 */
export const STORED_FILE_CACHE_CONTROL = 'public, max-age=3600';

export function contentTypeFor(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Streams `body` into a file, hashing it on the way: the size and digest of what was written. */
export async function spoolToFile(body: Readable, file: string, algorithm = 'sha256'): Promise<{ size: number; digest: Buffer }> {
  const hash = createHash(algorithm);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const out = createWriteStream(file);
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  try {
    await pipeline(body, counter, out);
  } catch (err) {
    // pipeline() settles before the file is closed; a source that fails at once can even beat the open, which
    // would then create the file after the caller's cleanup ran. Settle only once the file is closed.
    out.destroy();
    await closed;
    throw err;
  }
  return { size, digest: hash.digest() };
}
