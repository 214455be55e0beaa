import { buildPictureScene } from '@app/scene';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { UNFRAMED } from '../glb-writer/write-card-glb';
import { flipbookLayer, type FlipbookModelInput } from './flipbook';

/**
 * Writes an unframed looping flipbook GLB (a picture scene whose layer is the flipbook): one quad per
 * frame stacked a fraction of a millimetre apart and ONE animation of STEP scale channels.
 *
 * @example
 * const glb = await writeFlipbookGlb({ atlases, frames, alpha: 'opaque', width: 0.6096, height: 0.6096 });
 */
export async function writeFlipbookGlb(input: FlipbookModelInput): Promise<Buffer> {
  return writeSceneGlb(
    buildPictureScene({ ...UNFRAMED, picture: { width: input.width, height: input.height }, layer: flipbookLayer(input) }).scene,
  );
}
