import sharp from 'sharp';
import type { SceneTexture } from '@app/scene';

const SIZE = 256;
const cache = new Map<string, Promise<SceneTexture>>();

/** Deterministic value noise, so the same colour always gives the same grain (and the same bytes). */
function hash(x: number, y: number): number {
  const s = Math.sin(x * 127.1 + y * 311.7) * 43758.5453;
  return s - Math.floor(s);
}

/**
 * A tileable wood-grain texture in the given base colour (sRGB hex): long fibres along u with ring
 * bands, periodic over its 256 px so it repeats without seams. Cached per colour.
 *
 * @example
 * const oak = await woodGrainTexture('#b8895a');
 */
export function woodGrainTexture(hex: string): Promise<SceneTexture> {
  let t = cache.get(hex);
  if (!t) {
    t = render(hex);
    cache.set(hex, t);
  }
  return t;
}

async function render(hex: string): Promise<SceneTexture> {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const px = Buffer.alloc(SIZE * SIZE * 3);
  const TAU = Math.PI * 2;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const u = x / SIZE;
      const v = y / SIZE;
      // Bands across v, wobbling slowly along u; every term has a whole number of periods per tile.
      const wobble = 0.004 * Math.sin(TAU * u * 2 + Math.sin(TAU * v * 3)) + (0.35 * Math.sin(TAU * v * 3)) / 14;
      const rings = (0.5 + 0.5 * Math.sin(TAU * (v * 14 + wobble * 10))) ** 3;
      const fibre = hash(Math.floor(x / 8) % (SIZE / 8), y) * 0.5 + hash(x % SIZE, y) * 0.2;
      const k = 0.78 + 0.22 * rings - 0.12 * fibre;
      const o = 3 * (y * SIZE + x);
      px[o] = Math.min(255, Math.round(r * k));
      px[o + 1] = Math.min(255, Math.round(g * k));
      px[o + 2] = Math.min(255, Math.round(b * k));
    }
  }
  const image = await sharp(px, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { id: `wood-${hex.slice(1)}`, image, mime: 'image/jpeg', repeat: true, width: SIZE, height: SIZE };
}
