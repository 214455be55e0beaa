import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { UserError } from '@app/pipeline';
import { validateGlb } from '@app/testing';
import { WallBuildPool, type WallBuildThread } from './wall-build-pool';
import { buildGalleryWall, type WallPictureInput } from './wall-model';

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
});
