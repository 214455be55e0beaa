import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { validateDefinition } from '@app/pipeline';
import { LocalStorageAdapter } from '@app/storage';
import { fakeStageContext, quadrantPicture, QUADRANTS, close } from '@app/testing';
import { STILL_IMAGE_PIPELINE } from '../still-image/still-image.plugin';
import {
  makesThumbnails,
  MIN_THUMBNAIL_POSTER_PX,
  renderThumbnail,
  renderThumbnails,
  SHARE_FILE,
  THUMB_FILES,
  thumbHeight,
  thumbKey,
} from './thumbnail-files';
import { SHOWCASE_PICTURE_PIPELINE } from './thumbnails.plugin';
import { createThumbnailsStage } from './thumbnails.stage';

const read = async (s: LocalStorageAdapter, key: string) => {
  const chunks: Buffer[] = [];
  for await (const c of await s.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/** Every {@link THUMB_FILES} entry was made and stored at its width and the object's outer shape (`w` x `h` in). */
async function expectEveryThumbnail(storage: LocalStorageAdapter, out: { thumbnails: Record<string, string> }, w: number, h: number) {
  expect(Object.keys(out.thumbnails).sort()).toEqual(Object.keys(THUMB_FILES).sort());
  for (const [file, spec] of Object.entries(THUMB_FILES)) {
    const meta = await sharp(await read(storage, thumbKey('v2_job1', file))).metadata();
    expect([meta.width, meta.height]).toEqual([spec.width, thumbHeight(spec.width, w, h)]);
  }
}

function setup() {
  const storage = new LocalStorageAdapter(join(mkdtempSync(join(tmpdir(), 'thumbs-')), 'storage'), 'http://files.test');
  const warnings: string[] = [];
  const run = (outputs: Record<string, unknown>) => {
    const ctx = fakeStageContext({ job: { id: 'v2_job1', kind: 'v2.picture' }, outputs });
    return createThumbnailsStage(storage).run({ ...ctx, options: {}, log: { ...ctx.log, warn: (m: string) => void warnings.push(m) } });
  };
  return { storage, warnings, run };
}

describe('thumbnail files', () => {
  it('are AVIF and WebP at 480/720/960 px and a 1200 px JPEG for sharing', () => {
    expect(Object.entries(THUMB_FILES).map(([f, s]) => `${f}:${s.format}:${s.width}`)).toEqual([
      '480.avif:avif:480',
      '720.avif:avif:720',
      '960.avif:avif:960',
      '480.webp:webp:480',
      '720.webp:webp:720',
      '960.webp:webp:960',
      '1200.jpg:jpeg:1200',
    ]);
    expect(SHARE_FILE).toBe('1200.jpg');
    expect(thumbHeight(480, 24, 36)).toBe(720);
    expect(thumbHeight(480, 72, 24)).toBe(160);
  });

  it('renders exactly width x the object shape, in the format asked, keeping the picture', async () => {
    const { png } = await quadrantPicture(400, 600);
    for (const file of ['480.avif', '720.webp', '1200.jpg']) {
      const out = await renderThumbnail(png, THUMB_FILES[file]!, { w: 24, h: 36 });
      const meta = await sharp(out).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        file.endsWith('avif') ? 'heif' : file.endsWith('webp') ? 'webp' : 'jpeg',
        THUMB_FILES[file]!.width,
        THUMB_FILES[file]!.width * 1.5,
      ]);
      // Top-left quadrant colour survives (lossy formats: within tolerance).
      const { data } = await sharp(out)
        .extract({ left: 10, top: 10, width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(close([...data], QUADRANTS.tl)).toBe(true);
    }
  });
});

describe('thumbnails from pixels', () => {
  it('are every file at its size and format from one set of pixels, one resize per width', async () => {
    const { raw } = await quadrantPicture(400, 600);
    const bodies = new Map<string, Buffer>();
    const files = await renderThumbnails({ data: raw, width: 400, height: 600, channels: 3 }, { w: 24, h: 36 }, async (file, body) => {
      bodies.set(file, body);
      return file;
    });
    expect(files).toEqual(Object.keys(THUMB_FILES));
    for (const [file, spec] of Object.entries(THUMB_FILES)) {
      const meta = await sharp(bodies.get(file)!).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        { avif: 'heif', webp: 'webp', jpeg: 'jpeg' }[spec.format],
        spec.width,
        spec.width * 1.5,
      ]);
      const { data } = await sharp(bodies.get(file)!)
        .extract({ left: 10, top: 10, width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(close([...data], QUADRANTS.tl)).toBe(true);
    }
  });

  it('keep transparency in AVIF and WebP and flatten the sharing JPEG onto white', async () => {
    const { raw } = await quadrantPicture(200, 200, true); // the left quarter is transparent
    const bodies = new Map<string, Buffer>();
    await renderThumbnails(
      { data: raw, width: 200, height: 200, channels: 4 },
      { w: 10, h: 10 },
      async (file, body) => void bodies.set(file, body),
      ['480.webp', '1200.jpg'],
    );
    expect((await sharp(bodies.get('480.webp')!).metadata()).hasAlpha).toBe(true);
    const { data } = await sharp(bodies.get('1200.jpg')!)
      .extract({ left: 20, top: 20, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(close([...data], [255, 255, 255])).toBe(true);
  });
});

describe('thumbnails stage', () => {
  it("makes them from the framed poster's pixels the scene stage kept, without reading the stored poster", async () => {
    const { storage, run, warnings } = setup();
    const { raw } = await quadrantPicture(560, 400);
    // Nothing stored under the poster's key: a read would fail and leave no thumbnails.
    const out = await run({
      scene: { poster: { width: 560, height: 400, pixels: { data: raw, width: 560, height: 400, channels: 3 } } },
      publish: {
        files: { poster: { key: 'models/v2_job1/poster.jpg' } },
        dimensions: { width_inches: 24, height_inches: 16 },
        outer_dimensions: { width_inches: 28, height_inches: 20, depth_inches: 1 },
      },
    });
    expect(warnings).toEqual([]);
    await expectEveryThumbnail(storage, out, 28, 20);
  });

  it('makes every thumbnail from the stored poster at the framed outer size, next to the poster', async () => {
    const { storage, run } = setup();
    const poster = (await quadrantPicture(560, 400)).png;
    await storage.put('models/v2_job1/poster.png', poster, 'image/png');
    const out = await run({
      publish: {
        files: { poster: { key: 'models/v2_job1/poster.png', bytes: poster.length, content_type: 'image/png' } },
        dimensions: { width_inches: 24, height_inches: 16 },
        outer_dimensions: { width_inches: 28, height_inches: 20, depth_inches: 1 },
      },
    });
    expect(Object.keys(out.thumbnails).sort()).toEqual(Object.keys(THUMB_FILES).sort());
    for (const [file, spec] of Object.entries(THUMB_FILES)) {
      expect(out.thumbnails[file]).toBe(thumbKey('v2_job1', file));
      const stat = await storage.stat(thumbKey('v2_job1', file));
      expect(stat?.contentType).toBe({ avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }[spec.format]);
      const meta = await sharp(await read(storage, thumbKey('v2_job1', file))).metadata();
      expect([meta.width, meta.height]).toEqual([spec.width, thumbHeight(spec.width, 28, 20)]);
    }
  });

  it('makes none for a poster narrower than MIN_THUMBNAIL_POSTER_PX (the pages show it), whether it has the pixels, the recorded width or only the file', async () => {
    expect([makesThumbnails(24), makesThumbnails(MIN_THUMBNAIL_POSTER_PX - 1), makesThumbnails(MIN_THUMBNAIL_POSTER_PX)]).toEqual([
      false,
      false,
      true,
    ]);
    // A result written before the width was recorded: its thumbnails were all made.
    expect(makesThumbnails(undefined)).toBe(true);
    const { storage, run, warnings } = setup();
    const small = await quadrantPicture(24, 32);
    await storage.put('models/v2_job1/poster.png', small.png, 'image/png');
    const publish = {
      files: { poster: { key: 'models/v2_job1/poster.png', bytes: small.png.length, content_type: 'image/png' } },
      dimensions: { width_inches: 24, height_inches: 32 },
    };
    const withPixels = { poster: { width: 24, height: 32, pixels: { data: small.raw, width: 24, height: 32, channels: 3 } } };
    expect(await run({ scene: withPixels, publish })).toEqual({ thumbnails: {} });
    expect(await run({ publish: { ...publish, poster_px: { width: 24, height: 32 } } })).toEqual({ thumbnails: {} });
    expect(await run({ publish })).toEqual({ thumbnails: {} });
    expect(warnings).toEqual([]);
    expect(await storage.stat(thumbKey('v2_job1', SHARE_FILE))).toBeNull();
    // The recorded width decides (a wide enough poster gets every file).
    const wide = await run({ publish: { ...publish, poster_px: { width: MIN_THUMBNAIL_POSTER_PX, height: 320 } } });
    expect(Object.keys(wide.thumbnails).sort()).toEqual(Object.keys(THUMB_FILES).sort());
  });

  it('is best effort: a poster that cannot be read leaves a warning and no thumbnails, and the job goes on', async () => {
    const { run, warnings } = setup();
    const out = await run({
      publish: { files: { poster: { key: 'models/v2_job1/poster.png' } }, dimensions: { width_inches: 24, height_inches: 16 } },
    });
    expect(out).toEqual({ thumbnails: {} });
    expect(warnings).toEqual(['thumbnails: could not make them; the pages will make them on request']);
    const none = await run({ other: {} });
    expect(none).toEqual({ thumbnails: {} });
    expect(warnings[1]).toBe('thumbnails: no poster in the published result; the pages will make them on request');
  });

  it('runs in the showcase-picture pipeline after the still-image CPU steps and the variants, before publish, whose result is the job result', () => {
    expect(() => validateDefinition(SHOWCASE_PICTURE_PIPELINE)).not.toThrow();
    const still = STILL_IMAGE_PIPELINE.steps.map((s) => s.stage);
    expect(SHOWCASE_PICTURE_PIPELINE.steps.map((s) => s.stage)).toEqual([...still.slice(0, -1), 'variants', 'thumbnails', 'publish']);
    // Every step from normalise to thumbnails is a CPU step: the job holds one CPU slot through them (no queue
    // again between the variants and the thumbnails, as there was when publish, an I/O step, came between).
    const thumbs = SHOWCASE_PICTURE_PIPELINE.steps.find((s) => s.stage === 'thumbnails')!;
    expect([thumbs.phase, createThumbnailsStage(setup().storage).resource]).toEqual(['converting', 'cpu']);
    expect(SHOWCASE_PICTURE_PIPELINE.resultFrom).toBe('publish');
  });

  it("before publish: makes them from the scene's poster pixels at the scene's outer size, with no publish result yet", async () => {
    const { storage, run, warnings } = setup();
    const { raw } = await quadrantPicture(560, 400);
    const out = await run({
      scene: {
        poster: { width: 560, height: 400, pixels: { data: raw, width: 560, height: 400, channels: 3 } },
        dimensions: { width_inches: 24, height_inches: 16 },
        outer_dimensions: { width_inches: 28, height_inches: 20, depth_inches: 1 },
      },
    });
    expect(warnings).toEqual([]);
    await expectEveryThumbnail(storage, out, 28, 20);
    // A narrow poster's pixels: none, as after publish.
    const small = await quadrantPicture(24, 32);
    const none = await run({
      scene: {
        poster: { width: 24, height: 32, pixels: { data: small.raw, width: 24, height: 32, channels: 3 } },
        outer_dimensions: { width_inches: 24, height_inches: 32, depth_inches: 1 },
      },
    });
    expect([none, warnings]).toEqual([{ thumbnails: {} }, []]);
  });
});
