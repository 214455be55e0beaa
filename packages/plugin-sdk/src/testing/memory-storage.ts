import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStat, StoragePort } from '../storage';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Refuses keys that could escape a storage root or confuse URLs (the rule the service applies). */
export function assertStorageKey(key: string): void {
  if (typeof key !== 'string' || !KEY.test(key) || key.includes('..')) throw new Error(`storage: invalid key "${key}"`);
}

/**
 * An in-memory {@link StoragePort} for tests (it passes `describeStorageContract`): the `storage` a
 * motion model gets in `describeMotionProviderContract`, or a stand-in in your own unit tests.
 */
export function createMemoryStorage(
  publicBaseUrl = 'https://ar.example.com',
): StoragePort & { readonly objects: ReadonlyMap<string, ObjectStat & { bytes: Buffer }> } {
  const objects = new Map<string, ObjectStat & { bytes: Buffer }>();
  const store = (key: string, bytes: Buffer, contentType: string) => {
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
    objects.set(key, { key, size: bytes.length, contentType, etag, lastModified: new Date(), bytes });
    return { key, size: bytes.length, contentType, etag };
  };
  return {
    driver: 'memory',
    objects,
    async put(key, body, contentType) {
      assertStorageKey(key);
      return store(key, Buffer.from(body), contentType);
    },
    async putStream(key, body, contentType) {
      assertStorageKey(key);
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(Buffer.from(c));
      return store(key, Buffer.concat(chunks), contentType);
    },
    async stat(key) {
      assertStorageKey(key);
      const o = objects.get(key);
      return o ? { key: o.key, size: o.size, contentType: o.contentType, etag: o.etag, lastModified: o.lastModified } : null;
    },
    async read(key, range) {
      assertStorageKey(key);
      const o = objects.get(key);
      if (!o) throw new Error(`storage: no object "${key}"`);
      return Readable.from([range ? o.bytes.subarray(range.start, range.end + 1) : o.bytes]);
    },
    url(key) {
      assertStorageKey(key);
      return `${publicBaseUrl.replace(/\/+$/, '')}/files/${key}`;
    },
    async delete(key) {
      assertStorageKey(key);
      objects.delete(key);
    },
    async ping() {
      // Always ready.
    },
  };
}
