import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';
import { BackgroundRemoverPool, cutOutSequence, maskIou } from '@app/plugins';

/**
 * The cut-out's quality with the service's defaults (BG_REMOVAL_INFER_PX 1024, BG_REMOVAL_KEYFRAME_GAP,
 * the agreement check) on the three clips of test/fixtures/media/cut-out (street footage with scene cuts,
 * an object crossing a still background and leaving the picture, a turntable), against the library's own
 * default mask of every frame at full size (stored at 320x180, README there): issue 44's targets, mean IoU
 * >= 0.95 and every frame >= 0.90, and fewer model runs than frames. Real model, real frames; ~3 min on
 * two cores. Speed is the bench's (bench/cut-out.ts).
 */
const FIXTURES = join(__dirname, 'fixtures/media/cut-out');
const W = 640;
const H = 360;

function decodeClip(file: string): Buffer[] {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `fps=12,scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
    {
      maxBuffer: 1 << 28,
    },
  );
  const size = W * H * 4;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size));
}

async function references(clip: string): Promise<Buffer[]> {
  const { data, info } = await sharp(join(FIXTURES, `${clip}.masks.png`))
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const size = (W / 2) * (H / 2);
  return Array.from({ length: info.height / (H / 2) }, (_, i) => data.subarray(i * size, (i + 1) * size));
}

/** A cut-out frame's alpha as the references are stored: 320x180 (bilinear), at 128. */
async function alphaMask(rgba: Buffer): Promise<Buffer> {
  // The alpha taken out here: sharp orders its operations itself, and its threshold would greyscale RGB.
  const alpha = Buffer.alloc(W * H);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3];
  return sharp(alpha, { raw: { width: W, height: H, channels: 1 } })
    .resize(W / 2, H / 2, { kernel: 'linear' })
    .threshold(128)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

describe('cut-out quality against the library on every frame (issue 44)', () => {
  // The service's pool of model processes (BackgroundRemoverPool, as BG_REMOVAL_WORKERS runs it), two of them with
  // one ONNX Runtime thread each instead of one with the service's two, and the three clips at once: the same masks
  // byte for byte (checked on the street clip) and the same plan (which frames the model runs on does not depend on
  // timing), 4.8 instead of 5.9 CPU-s a model run (no spinning pool thread), and two runs at a time where the
  // machine has the room. This file runs beside other files in `npm test`, where CPU is what the run waits for.
  const remover = new BackgroundRemoverPool({ workers: 2, threads: 1 });
  afterAll(() => remover.close());

  it.concurrent.each(['street', 'moving', 'turntable'])(
    '%s: mean IoU >= 0.95, every frame >= 0.90, fewer model runs than frames',
    async (clip) => {
      const frames = decodeClip(join(FIXTURES, `${clip}.mp4`));
      const refs = await references(clip);
      expect(frames).toHaveLength(48);
      expect(refs).toHaveLength(48);
      const cut = await cutOutSequence(frames, W, H, remover);
      const ious: number[] = [];
      for (let i = 0; i < frames.length; i++) ious.push(maskIou(await alphaMask(cut.frames[i]), refs[i]));
      const mean = ious.reduce((a, b) => a + b, 0) / ious.length;
      const worst = Math.min(...ious);
      // Printed for the record: which frame is worst, and how many runs the plan needed.
      console.log(
        `${clip}: ${cut.keyframes} model runs, IoU mean ${mean.toFixed(3)}, worst ${worst.toFixed(3)} (frame ${ious.indexOf(worst)})`,
      );
      expect(mean).toBeGreaterThanOrEqual(0.95);
      expect(worst).toBeGreaterThanOrEqual(0.9);
      expect(cut.keyframes).toBeLessThan(frames.length);
    },
    600_000,
  );
});
