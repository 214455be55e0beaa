import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { quadrantPicture } from '@app/testing';
import { normaliseImage } from './normalise-image';

const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };

describe('normaliseImage keepTexture: a texture this service encoded, read back for variants', () => {
  it('keeps the bytes of a texture it would encode the same way (JPEG 4:4:4, PNG with alpha); the poster as ever', async () => {
    const { png } = await quadrantPicture(640, 480);
    const first = await normaliseImage(png, LIMITS);
    const again = await normaliseImage(first.texture, { ...LIMITS, keepTexture: true });
    expect(again.texture).toBe(first.texture);
    expect(again).toMatchObject({ width: 640, height: 480, sourceWidth: 640, sourceHeight: 480, mime: 'image/jpeg', alpha: 'opaque' });
    expect(again.poster).toMatchObject({ width: 640, height: 480, mime: 'image/jpeg' });

    const cutout = await normaliseImage((await quadrantPicture(320, 240, true)).png, LIMITS);
    const kept = await normaliseImage(cutout.texture, { ...LIMITS, keepTexture: true });
    expect(kept.texture.equals(cutout.texture)).toBe(true);
    expect(kept).toMatchObject({ mime: 'image/png', alpha: 'mask' });
  });

  it('encodes again what it would not have written: another chroma subsampling, a resize, or without the option', async () => {
    const png = await sharp(readFileSync(join(__dirname, '../../../../test/fixtures/media/photo-street.jpg')))
      .png()
      .toBuffer();
    const subsampled = await sharp(png).jpeg({ quality: 90, chromaSubsampling: '4:2:0' }).toBuffer();
    expect((await normaliseImage(subsampled, { ...LIMITS, keepTexture: true })).texture.equals(subsampled)).toBe(false);
    const texture = (await normaliseImage(png, LIMITS)).texture;
    expect((await normaliseImage(texture, { ...LIMITS, maxTexturePx: 320, keepTexture: true })).width).toBe(320);
    expect((await normaliseImage(texture, LIMITS)).texture.equals(texture)).toBe(false);
  });
});
