import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { tempDir } from '@app/testing';
import { LocalStorageAdapter } from './local-storage.adapter';

const files = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
    .sort();
const temps = (root: string) => files(root).filter((f) => f.endsWith('.tmp'));

function setup() {
  const root = join(tempDir('ar-local-storage-'), 'storage');
  return { root, storage: new LocalStorageAdapter(root, 'https://ar.example.com') };
}

/** A full disk without filling one: every writeFile writes half its data, then fails the way ENOSPC does. */
function diskFullOnWriteFile() {
  const real = fsp.writeFile;
  return jest.spyOn(fsp, 'writeFile').mockImplementation((async (file: string, data: Buffer | string) => {
    const bytes = Buffer.from(data);
    await real(file, bytes.subarray(0, bytes.length >> 1));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC' });
  }) as unknown as typeof fsp.writeFile);
}

afterEach(() => jest.restoreAllMocks());

describe('LocalStorageAdapter after failed writes', () => {
  it('removes the temporary file when the source stream fails midway, and passes the source error on unchanged', async () => {
    const { root, storage } = setup();
    const cause = new Error('upload: connection reset');
    async function* midway() {
      yield Buffer.alloc(64 * 1024, 1);
      yield Buffer.alloc(64 * 1024, 2);
      throw cause;
    }
    await expect(storage.putStream('uploads/s/a.png', Readable.from(midway()), 'image/png')).rejects.toBe(cause);
    expect(files(root)).toEqual([]);
  });

  it('leaves no temporary file when the source fails before its first byte (the file may still be opening)', async () => {
    const { root, storage } = setup();
    for (let i = 0; i < 30; i++) {
      const failing = new Readable({
        read() {
          this.destroy(new Error('gone'));
        },
      });
      await expect(storage.putStream(`uploads/s/${i}.png`, failing, 'image/png')).rejects.toThrow('gone');
    }
    expect(files(root)).toEqual([]);
  });

  it('removes the temporary file when the rename fails', async () => {
    const { root, storage } = setup();
    // A non-empty directory where the object should go: rename() refuses, even for root.
    mkdirSync(join(root, 'models/j/model.glb'), { recursive: true });
    writeFileSync(join(root, 'models/j/model.glb/x'), 'x');
    await expect(storage.put('models/j/model.glb', Buffer.from('glb'), 'model/gltf-binary')).rejects.toThrow();
    await expect(storage.putStream('models/j/model.glb', Readable.from([Buffer.from('glb')]), 'model/gltf-binary')).rejects.toThrow();
    expect(temps(root)).toEqual([]);
  });

  it('on a full disk, fails each retry without collecting partial temporary files', async () => {
    const { root, storage } = setup();
    await storage.put('models/j/model.glb', Buffer.from('old version'), 'model/gltf-binary');
    diskFullOnWriteFile();
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(storage.put('models/j/model.glb', Buffer.alloc(4096, 7), 'model/gltf-binary')).rejects.toMatchObject({ code: 'ENOSPC' });
    }
    expect(temps(root)).toEqual([]);
    jest.restoreAllMocks();
    expect((await storage.stat('models/j/model.glb'))?.size).toBe('old version'.length);
  });

  it('drops a stale sidecar when the new one cannot be written, so the new bytes never carry the old ETag', async () => {
    const { root, storage } = setup();
    const first = await storage.put('models/j/poster.jpg', Buffer.from('one'), 'image/jpeg');
    const real = fsp.writeFile;
    jest.spyOn(fsp, 'writeFile').mockImplementation((async (file: string, data: Buffer | string) => {
      if (String(file).includes('.meta.')) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return real(file, data);
    }) as unknown as typeof fsp.writeFile);
    await expect(storage.put('models/j/poster.jpg', Buffer.from('two!'), 'image/jpeg')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(temps(root)).toEqual([]);
    expect((await storage.stat('models/j/poster.jpg'))!.etag).not.toBe(first.etag);
  });
});

describe('LocalStorageAdapter.ping (readiness)', () => {
  it('writes and removes a probe on a working root', async () => {
    const { root, storage } = setup();
    await storage.ping();
    expect(files(root)).toEqual([]);
  });

  it('rejects when the root cannot be written, leaving no probe behind', async () => {
    const { root, storage } = setup();
    await storage.ping();
    diskFullOnWriteFile();
    await expect(storage.ping()).rejects.toMatchObject({ code: 'ENOSPC' });
    jest.restoreAllMocks();
    expect(files(root)).toEqual([]);
  });

  it('rejects when the root is a file', async () => {
    const dir = tempDir('ar-local-storage-');
    writeFileSync(join(dir, 'storage'), 'not a directory');
    await expect(new LocalStorageAdapter(join(dir, 'storage'), 'https://ar.example.com').ping()).rejects.toThrow();
  });
});

describe('LocalStorageAdapter.removeStaleTemps', () => {
  it('removes temporary files older than the limit and keeps objects, sidecars and younger temporaries', async () => {
    const { root, storage } = setup();
    await storage.put('models/j/model.glb', Buffer.from('glb'), 'model/gltf-binary');
    const old = [
      'models/j/model.glb.4242.1700000000000.tmp',
      'models/k/model.usdz.7.1700000000000-0a1b2c3d.tmp',
      '.ready-probe.9.1700000000000-00ff00ff.tmp',
    ];
    const young = 'uploads/s/a.png.42.1700000000000-deadbeef.tmp';
    for (const f of [...old, young]) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), 'partial');
    }
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    for (const f of old) utimesSync(join(root, f), twoHoursAgo, twoHoursAgo);
    expect(await storage.removeStaleTemps(3_600_000)).toBe(3);
    expect(files(root)).toEqual(['models/j/model.glb', 'models/j/model.glb.meta', young]);
  });

  it('does nothing before anything was written', async () => {
    expect(await setup().storage.removeStaleTemps()).toBe(0);
  });
});

describe('LocalStorageAdapter.delete (folders)', () => {
  /** Every folder under the root, relative to it. */
  const folders = (root: string) =>
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
      .sort();
  const png = Buffer.from('png');

  it('leaves no empty folder behind a deleted or replaced job, never removes the root, and keeps folders with files', async () => {
    const { root, storage } = setup();
    const job = (id: string) => [`models/${id}/model.glb`, `models/${id}/model.usdz`, `models/${id}/thumb-640.webp`];
    for (const key of [...job('v2_a'), ...job('v2_b')]) await storage.put(key, png, 'application/octet-stream');
    await storage.putStream('uploads/sc_1/upl_1/dunes.jpg', Readable.from([png]), 'image/jpeg');
    // A job replaced by a rebuild: its files written again, then the old job's deleted, as JobDeletion does
    // (every key it may have written, some never were).
    await storage.put('models/v2_a/model.glb', Buffer.from('again'), 'model/gltf-binary');
    for (const key of [...job('v2_a'), 'models/v2_a/poster.png', 'motion/v2_a/source.png']) await storage.delete(key);
    expect(folders(root)).toEqual(['models', 'models/v2_b', 'uploads', 'uploads/sc_1', 'uploads/sc_1/upl_1']);
    expect(files(root)).toEqual(
      [...job('v2_b').flatMap((k) => [k, `${k}.meta`]), 'uploads/sc_1/upl_1/dunes.jpg', 'uploads/sc_1/upl_1/dunes.jpg.meta'].sort(),
    );

    for (const key of [...job('v2_b'), 'uploads/sc_1/upl_1/dunes.jpg']) await storage.delete(key);
    expect(folders(root)).toEqual([]);
    expect(readdirSync(root)).toEqual([]);
    // The root stays, and a later write makes its folders again.
    await storage.put('models/v2_c/model.glb', png, 'model/gltf-binary');
    expect(files(root)).toEqual(['models/v2_c/model.glb', 'models/v2_c/model.glb.meta']);
  });

  it('two deletes in one folder at once leave neither the folder nor an error', async () => {
    const { root, storage } = setup();
    const keys = Array.from({ length: 20 }, (_, i) => `models/v2_x/f${i}.png`);
    for (const key of keys) await storage.put(key, png, 'image/png');
    await Promise.all(keys.map((k) => storage.delete(k)));
    expect(readdirSync(root)).toEqual([]);
  });
});
