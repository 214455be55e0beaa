import { writeStoredZip } from '../usdz-writer/stored-zip';
import type { FlipbookModelInput } from './flipbook';
import { writeFlipbookUsda } from './flipbook-usda';

/**
 * Writes a flipbook USDZ: the USDA root layer first, then the atlases, in a 64-byte-aligned STORED zip.
 *
 * @example
 * const usdz = writeFlipbookUsdz({ atlases, frames, alpha: 'mask', width: 0.6, height: 0.4 });
 */
export function writeFlipbookUsdz(input: FlipbookModelInput): Buffer {
  const atlasPaths = input.atlases.map((a, i) => `textures/atlas-${i}.${a.mime === 'image/png' ? 'png' : 'jpg'}`);
  const usda = writeFlipbookUsda({ width: input.width, height: input.height, frames: input.frames, atlasPaths, alpha: input.alpha });
  return writeStoredZip([
    { name: 'flipbook.usda', data: Buffer.from(usda, 'utf8') },
    ...input.atlases.map((a, i) => ({ name: atlasPaths[i], data: a.image })),
  ]);
}
