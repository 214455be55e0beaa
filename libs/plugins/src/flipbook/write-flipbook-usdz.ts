import { buildPictureScene } from '@app/scene';
import { UNFRAMED } from '../glb-writer/write-card-glb';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';
import { flipbookLayer, type FlipbookModelInput } from './flipbook';

/**
 * Writes an unframed flipbook USDZ: per-frame `xformOp:scale.timeSamples`, the atlases as textures, in
 * a 64-byte-aligned STORED zip.
 *
 * @example
 * const usdz = writeFlipbookUsdz({ atlases, frames, alpha: 'mask', width: 0.6, height: 0.4 });
 */
export function writeFlipbookUsdz(input: FlipbookModelInput): Buffer {
  return writeSceneUsdz(
    buildPictureScene({ ...UNFRAMED, picture: { width: input.width, height: input.height }, layer: flipbookLayer(input) }).scene,
    'flipbook.usda',
  );
}
