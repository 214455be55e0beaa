import type { Dimensions } from '../dimensions/dimensions';
import type { FitResult } from '../fit/fit';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import type { NormalisedImage } from '../normalise/normalise-image';
import type { ModelFileBodies, ModelFiles } from '../publish/model-files';
import { checkFileBudget, presentationResult, type SceneOutput, uncroppedPictureModel } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';
import type { VariantSpec } from './variant-specs';

/** What one variant of an item is, in a job result: its three files, its size and its presentation. */
export interface VariantBuild {
  id: string;
  files: ModelFiles;
  dimensions: Dimensions;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  /** How the picture met the variant's size (crop, stretch, or 'none' within 1 %). */
  fit?: FitResult;
  placement: SceneOutput['presentation']['placement'];
  allow_scaling: boolean;
  finish: SceneOutput['presentation']['finish'];
  frame: SceneOutput['presentation']['frame'];
  mat: SceneOutput['presentation']['mat'];
}

/** A variant's model, written but not stored: the scene it came from and the three file bodies. */
export interface VariantModel {
  id: string;
  model: SceneOutput;
  bodies: ModelFileBodies;
}

/**
 * Builds one variant of an item from its normalised picture, whose texture is the whole picture: the
 * variant's size (always explicit) and presentation from its spec, a crop through the picture quad's uv,
 * the scene checked against the viewer budgets, the GLB and the USDZ (each checked against the file
 * budget) embedding `img.texture` byte for byte, and the poster cut and framed like the model. Errors are
 * prefixed `stage` (`variants: variants[2]: the model would exceed…`). Nothing is decoded or stored here.
 *
 * @example
 * const [spec] = parseVariantSpecs({ variants: [{ id: 'var_50x70oak', width_inches: 19.69, height_inches: 27.56,
 *   fit: 'crop', frame: { style: 'thin', color: 'oak' }, mat: { width_inches: 2 } }] });
 * const { bodies, model } = await buildVariantModel(spec, img);
 * await storage.put('…/model.glb', bodies.glb, CONTENT_TYPES.glb);
 */
export async function buildVariantModel(spec: VariantSpec, img: NormalisedImage, stage = 'variants'): Promise<VariantModel> {
  const model = await uncroppedPictureModel(stage, spec.input, img);
  const glb = checkFileBudget(stage, await writeSceneGlb(model.scene));
  const usdz = checkFileBudget(stage, writeSceneUsdz(model.scene, 'card.usda'));
  const { image, ext, mime } = model.poster;
  return { id: spec.id, model, bodies: { glb, usdz, poster: { image, ext, mime } } };
}

/** The result record of a variant whose files are stored as `files`. */
export function variantBuild(v: VariantModel, files: VariantBuild['files']): VariantBuild {
  const { banner: _banner, ...presentation } = presentationResult(v.model) as Omit<VariantBuild, 'id' | 'files' | 'dimensions'> & {
    banner?: unknown;
  };
  return {
    id: v.id,
    files,
    dimensions: v.model.dimensions,
    ...(v.model.fit ? { fit: v.model.fit } : {}),
    ...presentation,
  };
}
