import { buildPictureScene } from '@app/scene';
import { type CardModelInput, cardScene } from '../glb-writer/write-card-glb';
import { writeSceneUsdz } from './write-scene-usdz';

/**
 * Writes a USDZ of an unframed picture card anchored to a wall: the USDA root layer first, then the
 * texture, in a 64-byte-aligned STORED zip.
 *
 * @example
 * const usdz = writeCardUsdz({ texture, mime: 'image/png', alpha: 'blend', width: 0.6, height: 0.9 });
 */
export function writeCardUsdz(input: CardModelInput): Buffer {
  return writeSceneUsdz(buildPictureScene(cardScene(input)).scene, 'card.usda');
}
