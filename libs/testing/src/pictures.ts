import sharp from 'sharp';

/** Quadrant colours of the asymmetric test picture: top-left, top-right, bottom-left, bottom-right. */
export const QUADRANTS = {
  tl: [220, 30, 30],
  tr: [30, 200, 40],
  bl: [30, 40, 210],
  br: [240, 220, 30],
} as const;

/** A picture with four differently coloured quadrants, so any flip or rotation shows. */
export async function quadrantPicture(width: number, height: number, alpha = false): Promise<{ raw: Buffer; png: Buffer }> {
  const ch = alpha ? 4 : 3;
  const raw = Buffer.alloc(width * height * ch);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = y < height / 2 ? (x < width / 2 ? QUADRANTS.tl : QUADRANTS.tr) : x < width / 2 ? QUADRANTS.bl : QUADRANTS.br;
      const i = (y * width + x) * ch;
      raw[i] = c[0];
      raw[i + 1] = c[1];
      raw[i + 2] = c[2];
      if (alpha) raw[i + 3] = x < width / 4 ? 0 : 255;
    }
  }
  const png = await sharp(raw, { raw: { width, height, channels: ch as 3 | 4 } })
    .png()
    .toBuffer();
  return { raw, png };
}

export function close(a: readonly number[], b: readonly number[], tolerance = 12): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
}

/**
 * A photo-like JPEG: gaussian grain over a colour picked by `hue`, so it encodes to a realistic size (noise
 * does not compress away as a flat colour does). The grain is made once per process, as large as the largest
 * photo asked for, and each photo takes a region of it starting where its hue says: drawing gaussian noise is
 * most of the cost (~2.3 CPU-s for 3000 x 3000 px, against ~0.6 s to tint and encode a 3000 x 2250 photo), and a
 * file that wants thirteen 3000 px photos spent ~40 CPU-s on them.
 */
export async function noisyPhoto(width: number, height: number, hue: number, quality = 85): Promise<Buffer> {
  const g = await grainAtLeast(width, height);
  const left = (hue * 211) % (g.width - width + 1);
  const top = (hue * 137) % (g.height - height + 1);
  const region = await sharp(g.raw, { raw: { width: g.width, height: g.height, channels: 3 } })
    .extract({ left, top, width, height })
    .raw()
    .toBuffer();
  const rgb = { r: (hue * 53) % 256, g: (hue * 97 + 60) % 256, b: (hue * 151 + 120) % 256 };
  return sharp({ create: { width, height, channels: 3, background: rgb } })
    .composite([{ input: region, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality })
    .toBuffer();
}

let grain: { side: number; raw: Promise<Buffer> } | undefined;

/**
 * The shared grain (raw RGB, square: a portrait after a landscape fits), made again larger when a photo needs
 * more. Chosen synchronously, so photos made side by side (Promise.all) share one.
 */
async function grainAtLeast(width: number, height: number): Promise<{ raw: Buffer; width: number; height: number }> {
  if (!grain || grain.side < Math.max(width, height)) {
    const side = Math.max(width, height, grain?.side ?? 0);
    const raw = sharp({
      create: { width: side, height: side, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } },
    })
      .raw()
      .toBuffer();
    grain = { side, raw };
  }
  const { side, raw } = grain;
  return { raw: await raw, width: side, height: side };
}
