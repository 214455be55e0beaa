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

describe('normaliseImage with an explicit size (fit)', () => {
  /** A 4:3 quadrant picture with a 50 px magenta band down each side: a centred crop to 1:1 cuts both off. */
  async function banded(width = 400, height = 300): Promise<Buffer> {
    const band = Math.round((width - height) / 2);
    const { raw } = await quadrantPicture(width - 2 * band, height);
    return sharp(raw, { raw: { width: width - 2 * band, height, channels: 3 } })
      .extend({ left: band, right: band, background: { r: 255, g: 0, b: 255 } })
      .png()
      .toBuffer();
  }
  const pixelAt = async (image: Buffer, x: number, y: number) => {
    const { data } = await sharp(image)
      .extract({ left: x, top: y, width: 1, height: 1 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return [...data];
  };

  it('crops the centre to the aspect asked for, before the texture and the poster are made', async () => {
    const out = await normaliseImage(await banded(), { ...LIMITS, fit: { mode: 'crop', aspect: 1 } });
    expect([out.width, out.height, out.sourceWidth, out.sourceHeight]).toEqual([300, 300, 400, 300]);
    expect(out.fit).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 });
    const meta = await sharp(out.texture).metadata();
    expect([meta.width, meta.height]).toEqual([300, 300]);
    // The magenta bands are gone: the corners are the quadrants' colours.
    expect(close(await pixelAt(out.texture, 2, 2), QUADRANTS.tl)).toBe(true);
    expect(close(await pixelAt(out.texture, 297, 297), QUADRANTS.br)).toBe(true);
    expect([out.poster.width, out.poster.height]).toEqual([300, 300]);
    expect(out.poster.pixels).toMatchObject({ width: 300, height: 300 });
    expect(close(await pixelAt(out.poster.image, 3, 220), QUADRANTS.bl)).toBe(true);
  });

  it('crops a portrait source top and bottom, and scales the crop down to the texture limit', async () => {
    const { png } = await quadrantPicture(900, 1200);
    const out = await normaliseImage(png, { ...LIMITS, maxTexturePx: 512, fit: { mode: 'crop', aspect: 2 } });
    expect([out.width, out.height]).toEqual([512, 256]);
    expect(out.fit).toMatchObject({ applied: 'crop', source_aspect: 0.75, target_aspect: 2 });
    // 900 x 450 out of the middle of 900 x 1200: the quadrants meet in its middle.
    expect(close(await pixelAt(out.texture, 10, 10), QUADRANTS.tl)).toBe(true);
    expect(close(await pixelAt(out.texture, 500, 250), QUADRANTS.br)).toBe(true);
  });

  it('crops the picture as displayed (after EXIF rotation)', async () => {
    const upright = await banded(400, 300);
    const sideways = await sharp(upright).rotate(270).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).width).toBe(300);
    const out = await normaliseImage(sideways, { ...LIMITS, fit: { mode: 'crop', aspect: 1 } });
    expect([out.width, out.height, out.sourceWidth, out.sourceHeight]).toEqual([300, 300, 400, 300]);
    expect(close(await pixelAt(out.texture, 3, 3), QUADRANTS.tl)).toBe(true);
    expect(close(await pixelAt(out.texture, 296, 3), QUADRANTS.tr)).toBe(true);
  });

  it('keeps transparency when it crops', async () => {
    const { png } = await quadrantPicture(400, 200, true); // the left quarter is transparent
    const out = await normaliseImage(png, { ...LIMITS, fit: { mode: 'crop', aspect: 1 } });
    // The centre 200 px of 400 starts at x = 100, past the transparent quarter (x < 100): opaque, a JPEG.
    expect(out).toMatchObject({ width: 200, height: 200, mime: 'image/jpeg', alpha: 'opaque' });
    const { png: png2 } = await quadrantPicture(400, 100, true);
    const cut = await normaliseImage(png2, { ...LIMITS, fit: { mode: 'crop', aspect: 3 } });
    expect([cut.width, cut.height, cut.alpha, cut.mime]).toEqual([300, 100, 'mask', 'image/png']);
  });

  it('changes no pixel with stretch, within 1 %, or with nothing asked: the same bytes as before fit existed', async () => {
    const png = await banded();
    const before = await normaliseImage(png, LIMITS);
    expect(before.fit).toBeUndefined();
    const stretch = await normaliseImage(png, { ...LIMITS, fit: { mode: 'stretch', aspect: 1 } });
    expect(stretch.fit).toEqual({ requested: 'stretch', applied: 'stretch', source_aspect: 1.3333, target_aspect: 1 });
    const near = await normaliseImage(png, { ...LIMITS, fit: { mode: 'crop', aspect: 1.005 * (400 / 300) } });
    expect(near.fit).toMatchObject({ requested: 'crop', applied: 'none' });
    for (const out of [stretch, near]) {
      expect(out.texture.equals(before.texture)).toBe(true);
      expect(out.poster.image.equals(before.poster.image)).toBe(true);
      expect([out.width, out.height]).toEqual([400, 300]);
    }
  });
});
