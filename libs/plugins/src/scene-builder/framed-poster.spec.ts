import sharp from 'sharp';
import { parsePresentation } from '../presentation/presentation';
import { framedPoster } from './framed-poster';

async function poster(width: number, height: number) {
  const image = await sharp({ create: { width, height, channels: 3, background: '#2255aa' } })
    .jpeg()
    .toBuffer();
  return { image, mime: 'image/jpeg' as const, ext: 'jpg' as const, width, height };
}

describe('framedPoster', () => {
  it("draws frame and mat around the picture at the picture's pixels per inch", async () => {
    const p = await poster(240, 360); // 10 px per inch for 24 x 36 in
    const out = await framedPoster(
      p,
      { width_inches: 24, height_inches: 36 },
      parsePresentation({ frame: { style: 'thin', width_inches: 1, color: 'black' }, mat: { width_inches: 2, color: 'white' } }),
    );
    expect([out.width, out.height]).toEqual([240 + 2 * 30, 360 + 2 * 30]);
    const meta = await sharp(out.image).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([300, 420, 'jpeg']);
    const { data, info } = await sharp(out.image).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(Math.max(...px(5, 200))).toBeLessThan(80); // frame: black
    expect(Math.min(...px(20, 200))).toBeGreaterThan(200); // mat: white
    const [r, , b] = px(150, 210); // picture: blue
    expect(b).toBeGreaterThan(r + 60);
  });

  it('frames the pixels normalise kept, without decoding the poster file again', async () => {
    const p = await poster(240, 360);
    const pixels = { data: await sharp(p.image).raw().toBuffer(), width: 240, height: 360, channels: 3 as const };
    // No readable file: only the pixels can have been used.
    const out = await framedPoster(
      { ...p, image: Buffer.from('not a picture'), pixels },
      { width_inches: 24, height_inches: 36 },
      parsePresentation({ frame: { style: 'thin', width_inches: 1, color: 'black' } }),
    );
    expect([out.width, out.height]).toEqual([260, 380]);
    expect(out.pixels).toMatchObject({ width: 260, height: 380, channels: 3 });
    expect(out.pixels!.data.length).toBe(260 * 380 * 3);
    const meta = await sharp(out.image).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([260, 380, 'jpeg']);
    const [r, , b] = out.pixels!.data.subarray((190 * 260 + 130) * 3, (190 * 260 + 130) * 3 + 3);
    expect(b).toBeGreaterThan(r + 60);
  });

  it('keeps the poster of an unframed picture or a canvas wrap', async () => {
    const p = await poster(100, 100);
    expect(await framedPoster(p, { width_inches: 10, height_inches: 10 }, parsePresentation({}))).toBe(p);
    expect(await framedPoster(p, { width_inches: 10, height_inches: 10 }, parsePresentation({ frame: 'canvas' }))).toBe(p);
  });
});
