import type { CardModelInput } from '../glb-writer/write-card-glb';
import { writeCardUsda } from './card-usda';
import { writeStoredZip } from './stored-zip';

/**
 * Writes a USDZ picture card: the USDA root layer first, then the texture, in a 64-byte-aligned STORED zip.
 *
 * @example
 * const usdz = writeCardUsdz({ texture, mime: 'image/png', alpha: 'blend', width: 0.6, height: 0.9 });
 */
export function writeCardUsdz(input: CardModelInput): Buffer {
  const texturePath = `textures/picture.${input.mime === 'image/png' ? 'png' : 'jpg'}`;
  const usda = writeCardUsda({ width: input.width, height: input.height, texturePath, alpha: input.alpha });
  return writeStoredZip([
    { name: 'card.usda', data: Buffer.from(usda, 'utf8') },
    { name: texturePath, data: input.texture },
  ]);
}
