import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { UserError } from '@app/pipeline';
import { LocalStorageAdapter } from '@app/storage';
import { tempDir, validateGlb } from '@app/testing';
import { parseDimensionRequest, resolveDimensions } from '../dimensions/dimensions';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { normaliseImage } from '../normalise/normalise-image';
import { pictureModel } from '../scene-builder/scene.stage';
import { WallBuildPool, type WallBuildThread } from './wall-build-pool';
import { buildGalleryWall, type WallPictureInput } from './wall-model';
import type { WallPictureRef } from '../job-inputs/wall-job-input';
import { loadWallPictures, readWallModels } from './wall-sources';

/** The thread entry from the sources, compiled by SWC as the thread requires it (nothing is built for unit tests). */
const THREAD: WallBuildThread = {
  filename: join(__dirname, '../../../../test/support/ts-thread.js'),
  workerData: { entry: join(__dirname, 'wall-build.thread.ts') },
};

/** n framed pictures with noisy 1600 px textures: a build that takes the CPU a while. */
async function pictures(n: number, px = 1600): Promise<WallPictureInput[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const image = await sharp({
        create: {
          width: px,
          height: px,
          channels: 3,
          background: { r: 40 * i, g: 120, b: 200 },
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .jpeg({ quality: 90 })
        .toBuffer();
      return {
        texture: { image, mime: 'image/jpeg' as const, width: px, height: px },
        sourceWidth: px,
        sourceHeight: px,
        spec: {
          width_inches: 20,
          height_inches: 20,
          frame: { style: i % 2 ? 'thin' : 'classic', color: i % 3 ? 'black' : 'oak' },
          mat: { width_inches: 2 },
        },
      };
    }),
  );
}

describe('WallBuildPool', () => {
  const pool = new WallBuildPool(() => 2, THREAD);
  afterAll(() => pool.close());

  it('builds the same files as a build in this thread, in another thread (not this event loop)', async () => {
    const pics = await pictures(12);
    // Warm both sides first (module loading is not what is measured).
    await pool.build(pics.slice(0, 2), { arrangement: 'row' });
    await buildGalleryWall(pics.slice(0, 2), { arrangement: 'row' });

    const here = await buildGalleryWall(pics, { arrangement: 'grid' });
    const there = await pool.build(pics, { arrangement: 'grid' });

    expect(there.threadId).not.toBe(threadId);
    expect(there.threadId).toBeGreaterThan(0);
    expect(there.bodies.glb.equals(here.bodies.glb)).toBe(true);
    expect(there.bodies.usdz.equals(here.bodies.usdz)).toBe(true);
    expect(there.bodies.poster.image.equals(here.bodies.poster.image)).toBe(true);
    expect((await validateGlb(there.bodies.glb)).numErrors).toBe(0);
    // The pictures given are left as they were (their textures were copied, not moved away).
    expect(pics[0].texture.image.length).toBeGreaterThan(0);
  }, 120_000);

  it('throws the UserError the build throws, with its code and param; the thread serves the next build', async () => {
    const pics = await pictures(2, 64);
    const bad = [pics[0], { ...pics[1], spec: { ...pics[1].spec, width_inches: -3 } }];
    const err = await pool.build(bad, { arrangement: 'row' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ param: expect.stringContaining('items[1]') });
    expect((await pool.build(pics, { arrangement: 'row' })).bodies.glb.length).toBeGreaterThan(0);
    expect(pool.threads).toBeLessThanOrEqual(2);
  }, 60_000);

  it('runs builds side by side on up to size() threads, more wait their turn', async () => {
    const pics = await pictures(2, 64);
    const out = await Promise.all(Array.from({ length: 5 }, () => pool.build(pics, { arrangement: 'row' })));
    expect(new Set(out.map((o) => o.bodies.glb.toString('base64'))).size).toBe(1);
    expect(new Set(out.map((o) => o.threadId)).size).toBeLessThanOrEqual(2);
    expect(pool.threads).toBeLessThanOrEqual(2);
  }, 60_000);

  it('builds from the stored models as read, moved to the thread (textures taken out there): the same files as from the loaded pictures', async () => {
    const storage = new LocalStorageAdapter(tempDir('wall-pool-models-'), 'http://127.0.0.1');
    const refs = await storedPictures(storage, 3);
    const arrange = { arrangement: 'row' as const };
    const here = await buildGalleryWall(await loadWallPictures(storage, refs), arrange);
    const models = await readWallModels(storage, refs);
    const there = await pool.buildFromModels(models, arrange);
    expect(there.threadId).not.toBe(threadId);
    expect(there.bodies.glb.equals(here.bodies.glb)).toBe(true);
    expect(there.bodies.usdz.equals(here.bodies.usdz)).toBe(true);
    // Moved, not copied: this thread no longer holds the models' bytes.
    expect(models.every((m) => m.glb.buffer.byteLength === 0)).toBe(true);

    // A model without a picture texture: the UserError naming the picture, thrown here from the thread's answer.
    const [first] = await readWallModels(storage, refs.slice(0, 1));
    const notOurs = { ...first, glb: Buffer.from('glTF but not a model of ours at all'), at: 'items[4]' };
    const err = await pool.buildFromModels([first, notOurs], arrange).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ code: 'unsupported_type', param: 'items[4]' });
  }, 60_000);

  it('reads the stored models in the thread with a storage of its own (local settings): the same files; a missing model is the UserError naming it', async () => {
    const root = tempDir('wall-pool-thread-reads-');
    const storage = new LocalStorageAdapter(root, 'http://127.0.0.1');
    const refs = await storedPictures(storage, 3);
    const arrange = { arrangement: 'grid' as const };
    const here = await buildGalleryWall(await loadWallPictures(storage, refs), arrange);
    const settings = { storage: { driver: 'local' as const, root }, publicBaseUrl: 'http://127.0.0.1', dataDir: root };
    const reading = new WallBuildPool(() => 1, THREAD, settings);
    try {
      // The caller's storage is not used: one that fails every read proves the thread read with its own.
      const refusing = {
        ...storage,
        read: () => Promise.reject(new Error('read here')),
        stat: () => Promise.reject(new Error('stat here')),
      };
      const there = await reading.buildFromStorage(refusing as unknown as typeof storage, refs, arrange);
      expect(there.threadId).not.toBe(threadId);
      expect(there.bodies.glb.equals(here.bodies.glb)).toBe(true);
      expect(there.bodies.usdz.equals(here.bodies.usdz)).toBe(true);
      expect(there.bodies.poster.image.equals(here.bodies.poster.image)).toBe(true);

      const gone = [refs[0], { ...refs[1], glb_key: 'models/nobody/model.glb' }];
      const err = await reading.buildFromStorage(storage, gone, arrange, 'wall.items').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect(err).toMatchObject({ code: 'item_missing', param: 'wall.items[1]' });
    } finally {
      await reading.close();
    }
  }, 60_000);

  it('reads the models here, with the storage given, when the pool has no settings or a custom storage module (made again in a thread it might not see the same objects)', async () => {
    const storage = new LocalStorageAdapter(tempDir('wall-pool-module-'), 'http://127.0.0.1');
    const refs = await storedPictures(storage, 2);
    const arrange = { arrangement: 'row' as const };
    const here = await buildGalleryWall(await loadWallPictures(storage, refs), arrange);
    const custom = {
      storage: { driver: 'module' as const, module: '/nowhere/storage.js', options: {} },
      publicBaseUrl: 'http://x',
      dataDir: '/nowhere',
    };
    const byModule = new WallBuildPool(() => 1, THREAD, custom);
    try {
      for (const p of [pool, byModule]) {
        const there = await p.buildFromStorage(storage, refs, arrange);
        expect(there.bodies.glb.equals(here.bodies.glb)).toBe(true);
      }
    } finally {
      await byModule.close();
    }
  }, 60_000);
});

/** n small framed pictures stored as the still-image steps store them (as in glb-texture.spec.ts): their refs. */
async function storedPictures(storage: LocalStorageAdapter, n: number): Promise<WallPictureRef[]> {
  const pics = await pictures(n, 256);
  return Promise.all(
    pics.map(async (p, i) => {
      const img = await normaliseImage(p.texture.image, { maxTexturePx: 2048, maxInputPixels: 100_000_000 });
      const dimensions = resolveDimensions(parseDimensionRequest(p.spec), img.sourceWidth, img.sourceHeight);
      const texture = { id: 'picture', image: img.texture, mime: img.mime, width: img.width, height: img.height };
      const model = await pictureModel('scene', p.spec, dimensions, { kind: 'still', texture, alpha: img.alpha }, img.poster);
      await storage.put(`models/p${i}/model.glb`, await writeSceneGlb(model.scene), 'model/gltf-binary');
      return { glb_key: `models/p${i}/model.glb`, spec: p.spec };
    }),
  );
}
