import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeStorageContract } from '@image-ar/plugin-sdk/testing';
import { startS3, S3_TEST_CREDENTIALS, startWebDav, tempDir } from '@app/testing';
import { assertSafeKey, contentTypeFor, loadStorageModule, LocalStorageAdapter, S3StorageAdapter } from './index';

let s3: Awaited<ReturnType<typeof startS3>>;
let dav: Awaited<ReturnType<typeof startWebDav>>;
beforeAll(async () => {
  s3 = await startS3();
  dav = await startWebDav({ username: 'ar', password: 'dav-secret' });
});
afterAll(async () => {
  await s3.stop();
  await dav.stop();
});

// The storage contract kit of @image-ar/plugin-sdk, the one plugin authors run: the built-in backends
// and the example custom backend pass the same checks.
describeStorageContract(() => new LocalStorageAdapter(join(tempDir(), 'storage'), 'https://ar.example.com'), {
  name: 'local filesystem',
  url: (key) => `https://ar.example.com/files/${key}`,
});

describeStorageContract(
  () =>
    new S3StorageAdapter({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      forcePathStyle: true,
      ...S3_TEST_CREDENTIALS,
      publicBaseUrl: 'https://cdn.example.com/models',
    }),
  {
    name: 'S3-compatible (s3rver)',
    url: (key) => `https://cdn.example.com/models/${key}`,
    // s3rver writes objects in place, so two racing PUTs of one key can mix; S3 itself replaces atomically.
    atomicOverwrite: false,
    teardown: (storage) => (storage as S3StorageAdapter).destroy(),
  },
);

// The example custom backend (examples/storage-webdav), loaded the way CONFIG_FILE storage.module loads it.
describeStorageContract(
  () =>
    loadStorageModule(
      join(__dirname, '../../../examples/storage-webdav'),
      { url: dav.url, username: 'ar', password: 'dav-secret' },
      { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() },
    ),
  { name: 'WebDAV example module', url: (key) => `https://ar.example.com/files/${key}` },
);

describe('WebDAV example module: collections', () => {
  it("removes a deleted key's own collection once it is empty (not shared parents), and writes into it again later", async () => {
    const storage = loadStorageModule(
      join(__dirname, '../../../examples/storage-webdav'),
      { url: dav.url, username: 'ar', password: 'dav-secret' },
      { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() },
    );
    const body = Buffer.from('glb');
    const keys = ['models/v2_dav1/model.glb', 'models/v2_dav1/model.usdz'];
    for (const k of [...keys, 'models/v2_dav2/model.glb']) await storage.put(k, body, 'model/gltf-binary');
    await storage.delete(keys[0]);
    expect(dav.collections.has('models/v2_dav1')).toBe(true);
    await storage.delete(keys[1]);
    await storage.delete('models/v2_dav1/poster.png'); // never written, as JobDeletion's fixed names
    expect(dav.collections.has('models/v2_dav1')).toBe(false);
    expect([...dav.collections].filter((c) => c.startsWith('models'))).toEqual(['models', 'models/v2_dav2']);
    // The same backend (which had seen the collection) writes there again: made anew, not a 409.
    await storage.put(keys[0], body, 'model/gltf-binary');
    expect(dav.files.has(keys[0])).toBe(true);
    // Another process empties a collection this one knows: its next write makes it again (409, then MKCOL).
    const other = loadStorageModule(
      join(__dirname, '../../../examples/storage-webdav'),
      { url: dav.url, username: 'ar', password: 'dav-secret' },
      { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() },
    );
    await other.delete('models/v2_dav2/model.glb');
    expect(dav.collections.has('models/v2_dav2')).toBe(false);
    await storage.put('models/v2_dav2/thumb-640.webp', body, 'image/webp');
    expect(dav.files.has('models/v2_dav2/thumb-640.webp')).toBe(true);
  });
});

describe('storage helpers', () => {
  it('a storage module that is missing, exports no factory, refuses its options or returns no backend stops the start', () => {
    const ctx = { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() };
    expect(() => loadStorageModule('/nonexistent/storage.js', {}, ctx)).toThrow(/^storage: cannot load module "\/nonexistent\/storage.js"/);
    expect(() => loadStorageModule(join(__dirname, 'storage.port.ts'), {}, ctx)).toThrow('does not export createStorage(options, context)');
    expect(() => loadStorageModule(join(__dirname, '../../../examples/storage-webdav'), {}, ctx)).toThrow(
      'refused its options: webdav: options.url',
    );
    const dir = tempDir();
    writeFileSync(join(dir, 'half.js'), 'exports.createStorage = () => ({ driver: "half", put() {} });');
    expect(() => loadStorageModule(join(dir, 'half.js'), {}, ctx)).toThrow(
      'returned no storage backend (missing: putStream, stat, read, url, delete, ping)',
    );
  });

  it('maps extensions to the AR content types', () => {
    expect(contentTypeFor('a/model.glb')).toBe('model/gltf-binary');
    expect(contentTypeFor('a/model.usdz')).toBe('model/vnd.usdz+zip');
    expect(contentTypeFor('a/p.jpg')).toBe('image/jpeg');
    expect(contentTypeFor('a/x.bin')).toBe('application/octet-stream');
    expect(() => assertSafeKey('models/api_1/model.glb')).not.toThrow();
  });

  it('S3 ping fails clearly when the bucket does not exist', async () => {
    const storage = new S3StorageAdapter({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: 'nope',
      forcePathStyle: true,
      ...S3_TEST_CREDENTIALS,
    });
    await expect(storage.ping()).rejects.toThrow();
  });
});
