import { buildPictureScene, hexToLinear, METERS_PER_INCH, type PictureLayer, type PictureScene } from '@app/scene';
import type { Dimensions } from '../dimensions/dimensions';
import { colorHex, type Presentation } from '../presentation/presentation';
import { woodGrainTexture } from './wood-texture';

const WOODS = new Set(['oak', 'walnut']);
const METALS = new Set(['gold', 'silver']);

/** Per style: how the moulding's surface takes light. */
const ROUGHNESS = { none: 1, canvas: 1, thin: 0.45, classic: 0.55, float: 0.5 } as const;

/**
 * The AR scene of a picture as the request asked for it: size in inches, frame, mat, finish and
 * placement from the resolved {@link Presentation}; wood presets get a grain texture, gold and silver
 * a metallic surface.
 *
 * @example
 * const { scene, outer } = await pictureScene(parsePresentation(job.input), { width_inches: 24, height_inches: 36 }, layer);
 */
export async function pictureScene(p: Presentation, dims: Dimensions, layer: PictureLayer): Promise<PictureScene> {
  const frameColor = p.frame.color;
  const framed = p.frame.style === 'thin' || p.frame.style === 'classic' || p.frame.style === 'float';
  return buildPictureScene({
    name: 'Card',
    picture: { width: dims.width_inches * METERS_PER_INCH, height: dims.height_inches * METERS_PER_INCH },
    layer,
    placement: p.placement,
    finish: p.finish,
    frame: {
      style: p.frame.style,
      width: p.frame.width_inches * METERS_PER_INCH,
      depth: p.frame.depth_inches * METERS_PER_INCH,
      color: hexToLinear(colorHex(frameColor)),
      texture: framed && WOODS.has(frameColor) ? await woodGrainTexture(colorHex(frameColor)) : undefined,
      metallic: METALS.has(frameColor) ? 0.85 : 0,
      roughness: METALS.has(frameColor) ? 0.35 : ROUGHNESS[p.frame.style],
      edge: p.frame.edge === undefined || p.frame.edge === 'mirror' ? 'mirror' : hexToLinear(colorHex(p.frame.edge)),
    },
    mat: p.mat ? { width: p.mat.width_inches * METERS_PER_INCH, color: hexToLinear(colorHex(p.mat.color)) } : null,
  });
}
