import sharp from 'sharp';
import { UserError } from '@app/pipeline';
import { close, quadrantPicture, QUADRANTS } from '@app/testing';
import { normaliseImage } from './normalise-image';

const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };

async function failure(input: Buffer, limits = LIMITS): Promise<UserError> {
  try {
    await normaliseImage(input, limits);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('did not fail');
}

describe('normaliseImage', () => {
  it('keeps an opaque picture at its size as JPEG', async () => {
    const { png } = await quadrantPicture(640, 480);
    const out = await normaliseImage(png, LIMITS);
    expect(out).toMatchObject({
      mime: 'image/jpeg',
      ext: 'jpg',
      width: 640,
      height: 480,
      sourceWidth: 640,
      sourceHeight: 480,
      alpha: 'opaque',
    });
    expect((await sharp(out.texture).metadata()).format).toBe('jpeg');
  });

  it('scales down only when a side exceeds the viewer limit, keeping the aspect', async () => {
    const { png } = await quadrantPicture(3000, 1000);
    const out = await normaliseImage(png, LIMITS);
    expect([out.width, out.height]).toEqual([2048, 683]);
    expect([out.sourceWidth, out.sourceHeight]).toEqual([3000, 1000]);
    const small = await normaliseImage((await quadrantPicture(100, 50)).png, { ...LIMITS, maxTexturePx: 64 });
    expect([small.width, small.height]).toEqual([64, 32]);
  });

  it("decodes once: the poster is made from the texture's pixels and keeps its own pixels for the later stages", async () => {
    const { png } = await quadrantPicture(3000, 2000);
    const out = await normaliseImage(png, LIMITS);
    expect([out.width, out.height, out.poster.width, out.poster.height]).toEqual([2048, 1365, 1024, 683]);
    const px = out.poster.pixels!;
    expect([px.width, px.height, px.channels, px.data.length]).toEqual([1024, 683, 3, 1024 * 683 * 3]);
    const meta = await sharp(out.poster.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1024, 683]);
    // The kept pixels are the poster's: each quadrant's colour, in the file and in memory.
    const at = (x: number, y: number) => [...px.data.subarray((y * 1024 + x) * 3, (y * 1024 + x) * 3 + 3)];
    expect(close(at(100, 100), QUADRANTS.tl)).toBe(true);
    expect(close(at(900, 600), QUADRANTS.br)).toBe(true);
    const small = await normaliseImage((await quadrantPicture(300, 200, true)).png, LIMITS);
    expect(small.poster.pixels).toMatchObject({ width: 300, height: 200, channels: 4 });
  });

  it('keeps alpha as PNG and tells 1-bit (mask) from soft (blend) transparency', async () => {
    const { png } = await quadrantPicture(64, 64, true);
    const mask = await normaliseImage(png, LIMITS);
    expect(mask).toMatchObject({ mime: 'image/png', alpha: 'mask' });
    const meta = await sharp(mask.texture).metadata();
    expect([meta.format, meta.hasAlpha]).toEqual(['png', true]);
    const soft = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } })
      .png()
      .toBuffer();
    expect((await normaliseImage(soft, LIMITS)).alpha).toBe('blend');
    const opaqueWithAlpha = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } })
      .png()
      .toBuffer();
    expect(await normaliseImage(opaqueWithAlpha, LIMITS)).toMatchObject({ alpha: 'opaque', mime: 'image/jpeg' });
  });

  it('uses the frame size of an animated GIF / WebP, not the whole strip', async () => {
    const frames = await Promise.all(
      [0, 1, 2].map((i) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background: { r: i * 80, g: 0, b: 0 } } })
          .png()
          .toBuffer(),
      ),
    );
    for (const format of ['gif', 'webp'] as const) {
      const anim = await sharp(frames, { join: { animated: true } })
        .toFormat(format)
        .toBuffer();
      const all = await sharp(anim, { pages: -1 }).metadata();
      expect([all.pages, all.height]).toEqual([3, 90]);
      const out = await normaliseImage(anim, LIMITS);
      expect([out.sourceWidth, out.sourceHeight, out.width, out.height]).toEqual([40, 30, 40, 30]);
    }
  });

  it('fails clearly on a file that is not an image', async () => {
    expect((await failure(Buffer.from('<html>hello</html>'.repeat(10)))).code).toBe('invalid_image');
  });

  it('fails clearly on a truncated file', async () => {
    const jpg = await sharp((await quadrantPicture(400, 400)).png)
      .jpeg()
      .toBuffer();
    const e = await failure(jpg.subarray(0, Math.floor(jpg.length / 2)));
    expect(e.code).toBe('invalid_image');
    expect(e.message).toMatch(/^normalise: /);
  });

  it('refuses a decompression bomb without decoding it', async () => {
    // 11000 x 11000 of one colour compresses to a few hundred KB and would decode to 363 MB.
    const bomb = await sharp({ create: { width: 11000, height: 11000, channels: 3, background: '#fff' }, limitInputPixels: false })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(2_000_000);
    const e = await failure(bomb);
    expect(e.code).toBe('image_too_large');
    expect(e.message).toContain('11000x11000');
  });
});
