import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startS3, S3_TEST_CREDENTIALS } from '../../../test/support/s3-server';
import { startWebDav } from '../../../test/support/webdav-server';
import { tempDir } from '../../../test/support/app-process';
import { assertSafeKey, contentTypeFor, loadStorageModule, LocalStorageAdapter, S3StorageAdapter, type StoragePort } from './index';

async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

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

const adapters: [string, () => StoragePort][] = [
  ['local filesystem', () => new LocalStorageAdapter(join(tempDir(), 'storage'), 'https://ar.example.com')],
  ['S3-compatible (s3rver)', () => new S3StorageAdapter({ endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, forcePathStyle: true, ...S3_TEST_CREDENTIALS, publicBaseUrl: 'https://cdn.example.com/models' })],
  // The example custom backend (examples/storage-webdav), loaded the way CONFIG_FILE storage.module loads it.
  ['WebDAV example module', () => loadStorageModule(join(__dirname, '../../../examples/storage-webdav'), { url: dav.url, username: 'ar', password: 'dav-secret' }, { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() })],
];

describe.each(adapters)('storage contract: %s', (name, make) => {
  it('stores, stats, reads whole and by range, and deletes', async () => {
    const storage = make();
    await storage.ping();
    const body = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const put = await storage.put('models/api_x/model.glb', body, 'model/gltf-binary');
    expect(put).toMatchObject({ key: 'models/api_x/model.glb', size: 5000, contentType: 'model/gltf-binary' });
    const stat = await storage.stat('models/api_x/model.glb');
    expect(stat).toMatchObject({ size: 5000, contentType: 'model/gltf-binary' });
    expect(stat!.etag).toMatch(/^".+"$/);
    expect((await readAll(await storage.read('models/api_x/model.glb'))).equals(body)).toBe(true);
    expect((await readAll(await storage.read('models/api_x/model.glb', { start: 100, end: 199 }))).equals(body.subarray(100, 200))).toBe(true);
    await storage.delete('models/api_x/model.glb');
    expect(await storage.stat('models/api_x/model.glb')).toBeNull();
  });

  it('overwrites on a replay with the same key', async () => {
    const storage = make();
    await storage.put('models/r/poster.jpg', Buffer.from('one'), 'image/jpeg');
    await storage.put('models/r/poster.jpg', Buffer.from('two!'), 'image/jpeg');
    expect((await readAll(await storage.read('models/r/poster.jpg'))).toString()).toBe('two!');
  });

  it('stores a stream chunk by chunk, and leaves nothing behind when the stream fails', async () => {
    const storage = make();
    const chunk = Buffer.alloc(64 * 1024, 7);
    async function* chunks(n: number, fail: boolean) {
      for (let i = 0; i < n; i++) yield chunk;
      if (fail) throw new Error('upload: too large');
    }
    const put = await storage.putStream('uploads/s/a.png', Readable.from(chunks(16, false)), 'image/png');
    expect(put).toMatchObject({ size: 16 * chunk.length, contentType: 'image/png' });
    expect((await storage.stat('uploads/s/a.png'))!.size).toBe(16 * chunk.length);
    expect((await readAll(await storage.read('uploads/s/a.png'))).equals(Buffer.concat(Array(16).fill(chunk)))).toBe(true);
    await expect(storage.putStream('uploads/s/b.png', Readable.from(chunks(4, true)), 'image/png')).rejects.toThrow('too large');
    expect(await storage.stat('uploads/s/b.png')).toBeNull();
  });

  it('gives public URLs', () => {
    const url = make().url('models/a/model.usdz');
    expect(url).toBe(name.startsWith('local') || name.startsWith('WebDAV') ? 'https://ar.example.com/files/models/a/model.usdz' : 'https://cdn.example.com/models/models/a/model.usdz');
  });

  it('refuses keys that could escape', async () => {
    const storage = make();
    for (const bad of ['../etc/passwd', '/abs', 'a/../b', 'a//b', '']) {
      await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid key');
    }
  });
});

describe('storage helpers', () => {
  it('a storage module that is missing, exports no factory, refuses its options or returns no backend stops the start', () => {
    const ctx = { publicBaseUrl: 'https://ar.example.com', dataDir: tempDir() };
    expect(() => loadStorageModule('/nonexistent/storage.js', {}, ctx)).toThrow(/^storage: cannot load module "\/nonexistent\/storage.js"/);
    expect(() => loadStorageModule(join(__dirname, 'storage.port.ts'), {}, ctx)).toThrow('does not export createStorage(options, context)');
    expect(() => loadStorageModule(join(__dirname, '../../../examples/storage-webdav'), {}, ctx)).toThrow('refused its options: webdav: options.url');
    const dir = tempDir();
    writeFileSync(join(dir, 'half.js'), 'exports.createStorage = () => ({ driver: "half", put() {} });');
    expect(() => loadStorageModule(join(dir, 'half.js'), {}, ctx)).toThrow('returned no storage backend (missing: putStream, stat, read, url, delete, ping)');
  });

  it('maps extensions to the AR content types', () => {
    expect(contentTypeFor('a/model.glb')).toBe('model/gltf-binary');
    expect(contentTypeFor('a/model.usdz')).toBe('model/vnd.usdz+zip');
    expect(contentTypeFor('a/p.jpg')).toBe('image/jpeg');
    expect(contentTypeFor('a/x.bin')).toBe('application/octet-stream');
    expect(() => assertSafeKey('models/api_1/model.glb')).not.toThrow();
  });

  it('S3 ping fails clearly when the bucket does not exist', async () => {
    const storage = new S3StorageAdapter({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'nope', forcePathStyle: true, ...S3_TEST_CREDENTIALS });
    await expect(storage.ping()).rejects.toThrow();
  });
});
