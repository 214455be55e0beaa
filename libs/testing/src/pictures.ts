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
 * does not compress away as a flat colour does).
 */
export async function noisyPhoto(width: number, height: number, hue: number, quality = 85): Promise<Buffer> {
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } },
  })
    .png()
    .toBuffer();
  const rgb = { r: (hue * 53) % 256, g: (hue * 97 + 60) % 256, b: (hue * 151 + 120) % 256 };
  return sharp({ create: { width, height, channels: 3, background: rgb } })
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality })
    .toBuffer();
}
