import { buildPictureScene, type PictureSceneInput } from '@app/scene';
import { FRAME_DEFAULTS } from '../presentation/presentation';
import { writeSceneGlb } from './write-scene-glb';

export interface CardModelInput {
  texture: Buffer;
  mime: 'image/jpeg' | 'image/png';
  alpha: 'opaque' | 'mask' | 'blend';
  /** Plane size in metres. */
  width: number;
  height: number;
  /** Texture size in pixels (for the viewer budgets), when known. */
  textureWidth?: number;
  textureHeight?: number;
}

/** The scene options of a plain picture: on a wall, unframed, exact colours. */
export const UNFRAMED: Pick<PictureSceneInput, 'placement' | 'finish' | 'frame' | 'mat'> = {
  placement: 'wall',
  finish: 'unlit',
  frame: { style: 'none', width: 0, depth: FRAME_DEFAULTS.none.depth * 0.0254, color: [1, 1, 1] },
  mat: null,
};

/** The scene of an unframed picture card (the still pipeline builds framed ones from the request). */
export function cardScene(input: CardModelInput, options: Partial<typeof UNFRAMED> = {}): PictureSceneInput {
  return {
    ...UNFRAMED,
    ...options,
    picture: { width: input.width, height: input.height },
    layer: {
      kind: 'still',
      texture: { id: 'picture', image: input.texture, mime: input.mime, width: input.textureWidth, height: input.textureHeight },
      alpha: input.alpha,
    },
  };
}

/**
 * Writes a GLB of an unframed picture card hung on a wall: the picture facing +Z with an unlit sRGB
 * texture (KHR_materials_unlit), its back on z = 0.
 *
 * @example
 * const glb = await writeCardGlb({ texture, mime: 'image/jpeg', alpha: 'opaque', width: 0.6096, height: 0.6096 });
 */
export async function writeCardGlb(input: CardModelInput): Promise<Buffer> {
  return writeSceneGlb(buildPictureScene(cardScene(input)).scene);
}
