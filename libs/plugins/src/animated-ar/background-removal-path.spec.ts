import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import type { StageContext } from '@app/pipeline';
import { fakeStageContext } from '@app/testing';
import type { StoragePort } from '@app/storage';
import type { BackgroundRemoverPort } from '../background-removal';
import { MotionCatalog, type MotionProvider } from '../motion/motion-provider.port';
import { proceduralMotionProvider } from '../motion/procedural/procedural-motion.adapter';
import { createBackgroundRemovalStage, type BackgroundRemovalOutput } from './background-removal.stage';
import type { SourceFrames } from './frames.stage';
import { createMotionStage, type MotionStageOutput } from './motion.stage';
import { backgroundRemovalPath } from './publish-animated.stage';

const W = 96;
const H = 64;
const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bg-path-')),
  MOTION_LOOP_S: '1',
  MOTION_FPS: '6',
  ANIMATION_MAX_FRAME_PX: '128',
});

/** Counts its calls; "cuts out" the left half of every frame (alpha 0), keeping RGB. */
class CountingRemover implements BackgroundRemoverPort {
  calls = 0;
  async cutOut(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    this.calls++;
    const out = Buffer.from(rgba);
    for (let y = 0; y < height; y++) for (let x = 0; x < width / 2; x++) out[(y * width + x) * 4 + 3] = 0;
    return out;
  }
  async mask(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    this.calls++;
    const mask = Buffer.alloc(width * height, 255);
    for (let y = 0; y < height; y++) mask.fill(0, y * width, y * width + width / 2);
    return mask;
  }
  async close(): Promise<void> {}
}

/** An opaque mid-grey still. */
const still = () => ({ rgba: Buffer.alloc(W * H * 4, 128).fill(255, 0, 0), width: W, height: H });

function context(outputs: Record<string, unknown>): StageContext {
  return fakeStageContext({
    job: { input: { image_url: 'https://a.example/x.jpg', remove_background: true, motion_style: 'drift' } },
    outputs,
  });
}

/** Motion then background removal on a still picture, with `provider` as the only motion model. */
async function run(provider: MotionProvider, keyframeGap = 6) {
  const remover = new CountingRemover();
  const catalog = new MotionCatalog([provider], provider.models()[0].id);
  const frames: SourceFrames = { kind: 'image', sourceWidth: W, sourceHeight: H, still: still() };
  const motionStage = createMotionStage({ config, storage: {} as StoragePort, catalog: () => catalog, remover: () => remover });
  const motion = (await motionStage.run(context({ frames }))) as MotionStageOutput;
  const bg = (await createBackgroundRemovalStage(() => remover, keyframeGap).run(context({ frames, motion }))) as BackgroundRemovalOutput;
  return { remover, motion, bg, path: backgroundRemovalPath(bg, motion) };
}

/** A motion model that needs an opaque picture: the cut-out has to happen on its output frames. */
const opaqueOnly: MotionProvider = {
  ...proceduralMotionProvider,
  id: 'opaque-test',
  acceptsTransparency: false,
  models: () => [{ id: 'opaque-test', display_name: 'test', provider: 'opaque-test', description: 'test' }],
};

describe('background removal of a still picture with motion', () => {
  it('procedural motion (keeps transparency): the still is cut out once, then animated with its alpha', async () => {
    const { remover, bg, path } = await run(proceduralMotionProvider);
    expect(remover.calls).toBe(1);
    expect(bg.removed).toBe(true);
    expect(bg.sequence.frames.length).toBe(6);
    // The card moves with its alpha: every frame carries transparency from the one cut-out.
    expect(bg.sequence.alpha).not.toBe('opaque');
    for (const f of bg.sequence.frames) expect(f.rgba.some((v, i) => i % 4 === 3 && v < 128)).toBe(true);
    expect(path).toEqual({ path: 'once-before-motion', frames_processed: 1 });
  });

  it('a motion model that needs an opaque picture: every output frame is cut out (model on each with a keyframe gap of 1)', async () => {
    const { remover, bg, path } = await run(opaqueOnly, 1);
    expect(remover.calls).toBe(6);
    expect(path).toEqual({ path: 'per-frame', frames_processed: 6 });
    expect(bg.sequence.alpha).not.toBe('opaque');
  });

  it('with keyframes: the model runs on fewer frames, every frame still gets the mask', async () => {
    const { remover, bg, path } = await run(opaqueOnly, 4);
    expect(remover.calls).toBeLessThan(6);
    expect(path).toEqual({ path: 'keyframes', frames_processed: remover.calls });
    for (const f of bg.sequence.frames) expect(f.rgba[3]).toBe(0); // the left half, moved with the (still) picture
  });

  it('no removal asked or done: null', () => {
    const seq = { width: W, height: H, frames: [], alpha: 'opaque' as const };
    expect(
      backgroundRemovalPath(
        { sequence: seq, removed: false, framesProcessed: 0 },
        { skipped: true, sequence: seq, backgroundRemoved: false },
      ),
    ).toBeNull();
  });
});
