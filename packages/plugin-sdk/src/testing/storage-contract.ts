import { Readable } from 'node:stream';
import type { StoragePort } from '../storage';
import { errorOf, readAll, runId } from './util';

export interface StorageContractOptions {
  /** Shown in the suite's title: `storage contract: <name>`. Default: the backend's `driver`. */
  name?: string;
  /**
   * The exact public URL the backend must give for a key (your CDN, or
   * `${context.publicBaseUrl}/files/${key}`). Without it the kit checks that `url(key)` is an absolute
   * http(s) URL whose path ends with the key.
   */
  url?: (key: string) => string;
  /**
   * Concurrent writes of one key leave exactly one of them, whole (default true). Set false only when the
   * server under test is a fake that writes in place (s3rver does; S3 itself replaces objects atomically).
   */
  atomicOverwrite?: boolean;
  /** Called after each test with the backend it used (close clients, remove temp dirs). */
  teardown?: (storage: StoragePort) => void | Promise<void>;
  /** Per-test timeout, ms (default 60 s). */
  timeoutMs?: number;
}

/** Keys that could escape the storage root or confuse URLs: every method must refuse them. */
export const UNSAFE_STORAGE_KEYS: readonly string[] = [
  '../etc/passwd',
  '/abs',
  'a/../b',
  'a//b',
  '',
  '..',
  './a',
  'a/./b',
  'a/',
  'a\\..\\b',
];

/**
 * Registers a Jest suite that checks a storage backend against the contract the service relies on
 * (docs/plugins.md). `factory` builds a fresh backend for each test; the keys a test writes are unique
 * to the run, so the backend may be shared with other tests.
 *
 * @example
 * ```ts
 * import { describeStorageContract } from '@image-ar/plugin-sdk/testing';
 * const { createStorage } = require('../index.js');
 * describeStorageContract(() => createStorage({ url: dav.url }, { publicBaseUrl: 'https://ar.example.com', dataDir: tmp }), {
 *   url: (key) => `https://ar.example.com/files/${key}`,
 * });
 * ```
 */
export function describeStorageContract(factory: () => StoragePort | Promise<StoragePort>, options: StorageContractOptions = {}): void {
  const timeout = options.timeoutMs ?? 60_000;
  const title = `storage contract: ${options.name ?? 'backend'}`;

  /** Runs `body` with a fresh backend and a key prefix of its own. */
  const test = (name: string, body: (storage: StoragePort, prefix: string) => Promise<void>) =>
    it(
      name,
      async () => {
        const storage = await factory();
        try {
          await body(storage, `contract-${runId()}`);
        } finally {
          await options.teardown?.(storage);
        }
      },
      timeout,
    );

  describe(title, () => {
    test('declares its driver and is ready (ping)', async (storage) => {
      expect(typeof storage.driver).toBe('string');
      expect(storage.driver.length).toBeGreaterThan(0);
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    test('stores, stats, reads whole and by range, and deletes', async (storage, p) => {
      const key = `${p}/models/api_x/model.glb`;
      await storage.ping();
      const body = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
      const put = await storage.put(key, body, 'model/gltf-binary');
      expect(put).toMatchObject({ key, size: 5000, contentType: 'model/gltf-binary' });
      expect(put.etag).toMatch(/^(W\/)?".+"$/);
      const stat = await storage.stat(key);
      expect(stat).toMatchObject({ key, size: 5000, contentType: 'model/gltf-binary' });
      expect(stat!.etag).toMatch(/^".+"$/);
      // A real Date (not instanceof: a backend's Date may come from another realm than the test's).
      expect(Object.prototype.toString.call(stat!.lastModified)).toBe('[object Date]');
      expect(Number.isNaN(stat!.lastModified.getTime())).toBe(false);
      expect((await readAll(await storage.read(key))).equals(body)).toBe(true);
      expect((await readAll(await storage.read(key, { start: 100, end: 199 }))).equals(body.subarray(100, 200))).toBe(true);
      // The first bytes (Safari probes with bytes=0-1), the last byte, a range to the end.
      expect((await readAll(await storage.read(key, { start: 0, end: 1 }))).equals(body.subarray(0, 2))).toBe(true);
      expect((await readAll(await storage.read(key, { start: 4999, end: 4999 }))).equals(body.subarray(4999))).toBe(true);
      expect((await readAll(await storage.read(key, { start: 4000, end: 4999 }))).equals(body.subarray(4000))).toBe(true);
      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
    });

    test('round-trips binary data byte for byte (every byte value, put and putStream)', async (storage, p) => {
      const bytes = Buffer.alloc(256 * 40);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
      bytes[0] = 0;
      bytes[1] = 0xff;
      bytes[2] = 0x0d;
      bytes[3] = 0x0a;
      await storage.put(`${p}/bin/a.bin`, bytes, 'application/octet-stream');
      expect((await readAll(await storage.read(`${p}/bin/a.bin`))).equals(bytes)).toBe(true);
      await storage.putStream(`${p}/bin/b.bin`, Readable.from([bytes.subarray(0, 3000), bytes.subarray(3000)]), 'application/octet-stream');
      expect((await readAll(await storage.read(`${p}/bin/b.bin`))).equals(bytes)).toBe(true);
      expect((await storage.stat(`${p}/bin/b.bin`))!.size).toBe(bytes.length);
    });

    test('overwrites on a replay with the same key', async (storage, p) => {
      const key = `${p}/models/r/poster.jpg`;
      const first = await storage.put(key, Buffer.from('one'), 'image/jpeg');
      await storage.put(key, Buffer.from('two!'), 'image/jpeg');
      expect((await readAll(await storage.read(key))).toString()).toBe('two!');
      const stat = await storage.stat(key);
      expect(stat).toMatchObject({ size: 4, contentType: 'image/jpeg' });
      // A strong validator: new bytes, new ETag.
      expect(stat!.etag).not.toBe(first.etag);
      // The content type follows the last write too.
      await storage.put(key, Buffer.from('{}'), 'application/json');
      expect(await storage.stat(key)).toMatchObject({ size: 2, contentType: 'application/json' });
    });

    test('stores a stream chunk by chunk, and leaves nothing behind when the stream fails', async (storage, p) => {
      const chunk = Buffer.alloc(64 * 1024, 7);
      async function* chunks(n: number, fail: boolean) {
        for (let i = 0; i < n; i++) yield chunk;
        if (fail) throw new Error('upload: too large');
      }
      const put = await storage.putStream(`${p}/uploads/s/a.png`, Readable.from(chunks(16, false)), 'image/png');
      expect(put).toMatchObject({ key: `${p}/uploads/s/a.png`, size: 16 * chunk.length, contentType: 'image/png' });
      expect((await storage.stat(`${p}/uploads/s/a.png`))!.size).toBe(16 * chunk.length);
      expect((await readAll(await storage.read(`${p}/uploads/s/a.png`))).equals(Buffer.concat(Array(16).fill(chunk)))).toBe(true);
      await expect(storage.putStream(`${p}/uploads/s/b.png`, Readable.from(chunks(4, true)), 'image/png')).rejects.toThrow('too large');
      expect(await storage.stat(`${p}/uploads/s/b.png`)).toBeNull();
    });

    test('answers for missing keys: stat null, read fails, delete is a no-op', async (storage, p) => {
      const key = `${p}/missing/nothing.glb`;
      expect(await storage.stat(key)).toBeNull();
      // read() may reject, or resolve with a stream that errors: either way no bytes come back.
      const err = await errorOf(async () => readAll(await storage.read(key)));
      expect(err).toEqual(expect.objectContaining({ message: expect.any(String) }));
      await expect(storage.delete(key)).resolves.toBeUndefined();
      // Deleting twice is fine too (a replayed cleanup).
      await storage.put(key, Buffer.from('x'), 'model/gltf-binary');
      await storage.delete(key);
      await expect(storage.delete(key)).resolves.toBeUndefined();
      expect(await storage.stat(key)).toBeNull();
    });

    test('takes concurrent writes: different keys all land, the same key ends up whole', async (storage, p) => {
      const bodies = Array.from({ length: 8 }, (_, i) => Buffer.alloc(20_000 + i * 1000, i + 1));
      await Promise.all(
        bodies.map((b, i) =>
          i % 2
            ? storage.put(`${p}/many/${i}.bin`, b, 'application/octet-stream')
            : storage.putStream(`${p}/many/${i}.bin`, Readable.from([b]), 'application/octet-stream'),
        ),
      );
      for (const [i, b] of bodies.entries()) {
        expect((await readAll(await storage.read(`${p}/many/${i}.bin`))).equals(b)).toBe(true);
      }
      if (options.atomicOverwrite === false) return;
      const same = `${p}/same/model.glb`;
      await Promise.all(bodies.slice(0, 4).map((b) => storage.put(same, b, 'model/gltf-binary')));
      const got = await readAll(await storage.read(same));
      // One of the writes wins, entirely: never a mix of two.
      expect(bodies.slice(0, 4).some((b) => b.equals(got))).toBe(true);
      expect((await storage.stat(same))!.size).toBe(got.length);
    });

    test('keeps nested keys apart', async (storage, p) => {
      await storage.put(`${p}/a/b/c/d/e.bin`, Buffer.from('deep'), 'application/octet-stream');
      await storage.put(`${p}/a/b/c/d/f.bin`, Buffer.from('sibling'), 'application/octet-stream');
      expect((await readAll(await storage.read(`${p}/a/b/c/d/e.bin`))).toString()).toBe('deep');
      await storage.delete(`${p}/a/b/c/d/f.bin`);
      expect((await readAll(await storage.read(`${p}/a/b/c/d/e.bin`))).toString()).toBe('deep');
    });

    test('gives public URLs', async (storage, p) => {
      const key = `${p}/models/a/model.usdz`;
      const url = storage.url(key);
      if (options.url) expect(url).toBe(options.url(key));
      const parsed = new URL(url);
      expect(parsed.protocol).toMatch(/^https?:$/);
      // Signed URLs may carry a query; the path names the key.
      expect(decodeURIComponent(parsed.pathname).endsWith(`/${key}`)).toBe(true);
    });

    test('refuses keys that could escape', async (storage) => {
      for (const bad of UNSAFE_STORAGE_KEYS) {
        await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid key');
        await expect(storage.putStream(bad, Readable.from([Buffer.from('x')]), 'text/plain')).rejects.toThrow('invalid key');
        for (const call of [() => storage.stat(bad), () => storage.read(bad), () => storage.delete(bad)]) {
          expect(String((await errorOf(call))?.message)).toContain('invalid key');
        }
        expect(() => storage.url(bad)).toThrow('invalid key');
      }
    });
  });
}
