import { UserError, type StageContext, type StageProvider } from '@app/pipeline';
import { budgetUse, budgetViolations, type PictureLayer, type Scene, type UvRect, VIEWER_BUDGETS } from '@app/scene';
import { parseDimensionRequest, resolveDimensions, type Dimensions } from '../dimensions/dimensions';
import { type FitResult, parseFit, planFitCrop } from '../fit/fit';
import type { NormalisedImage, Poster } from '../normalise/normalise-image';
import { outerDimensions, parsePresentation, type Presentation } from '../presentation/presentation';
import { inputOf, type PictureFields } from '../job-inputs/job-input-fields';
import { isVariantsJob } from '../variants/variant-specs';
import { croppedFramedPoster, framedPoster } from './framed-poster';
import { pictureScene } from './picture-model';

/** The one description of the model that the GLB and USDZ writers serialise, and what the result shows. */
export interface SceneOutput {
  scene: Scene;
  dimensions: Dimensions;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  presentation: Presentation;
  /** The poster as the framed object looks from the front. */
  poster: Poster;
  /**
   * A job building variants (its texture is the whole picture): how the picture met an explicit size,
   * decided here instead of by normalise, a crop being the picture quad's uv. Absent otherwise.
   */
  fit?: FitResult;
}

/** Refuses a scene over the viewers' budgets before anything is written (stage-prefixed UserError). */
export function checkViewerBudgets(stage: string, scene: Scene, fileBytes?: number): void {
  const over = budgetViolations(budgetUse(scene), fileBytes);
  if (over.length)
    throw new UserError('viewer_budget_exceeded', `${stage}: the model would exceed what AR viewers load: ${over.join('; ')}`);
}

/** Refuses a written model file over the viewers' size budget. Returns the file. */
export function checkFileBudget(stage: string, file: Buffer): Buffer {
  if (file.length > VIEWER_BUDGETS.maxFileBytes) {
    throw new UserError(
      'viewer_budget_exceeded',
      `${stage}: the model file would be ${Math.round(file.length / 1048576)} MB; AR viewers on phones get at most ${VIEWER_BUDGETS.maxFileBytes / 1048576} MB`,
    );
  }
  return file;
}

/**
 * The model of a picture (a still texture or a flipbook) as the job asked for it: placement, frame, mat,
 * finish (the request's presentation fields, read from `jobInput`), checked against the viewer budgets,
 * with the framed poster. Still and animated pipelines both build their models here.
 */
export async function pictureModel(
  stage: string,
  jobInput: PictureFields,
  dimensions: Dimensions,
  layer: PictureLayer,
  poster: Poster,
  crop?: UvRect,
): Promise<SceneOutput> {
  const presentation = parsePresentation(jobInput);
  if (crop && layer.kind !== 'still') throw new Error(`${stage}: only a still picture can be cropped by uv`);
  const shown: PictureLayer = crop && layer.kind === 'still' ? { ...layer, uv: crop } : layer;
  const { scene } = await pictureScene(presentation, dimensions, shown);
  checkViewerBudgets(stage, scene);
  return {
    scene,
    dimensions,
    outer_dimensions: outerDimensions(dimensions, presentation),
    presentation,
    poster: crop ? await croppedFramedPoster(poster, crop, dimensions, presentation) : await framedPoster(poster, dimensions, presentation),
  };
}

/** The still layer of a normalised picture: its texture, as normalise encoded it. */
export function stillLayer(img: NormalisedImage): Extract<PictureLayer, { kind: 'still' }> {
  return {
    kind: 'still',
    texture: { id: 'picture', image: img.texture, mime: img.mime, width: img.width, height: img.height },
    alpha: img.alpha,
  };
}

/**
 * The model of a normalised picture for one size and presentation (`input`: a job input, or a variant's
 * spec), when its texture is the whole picture: an explicit size with `fit: crop` whose aspect differs by
 * more than 1 % shows the centred part at that aspect through the picture quad's uv (the poster cut to the
 * same part), never by cropping the texture. `fit` is reported for explicit sizes, as normalise does.
 *
 * @example
 * const model = await uncroppedPictureModel('scene', { width_inches: 20, height_inches: 20, fit: 'crop' }, img);
 * model.fit // { requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 }
 */
export async function uncroppedPictureModel(stage: string, input: PictureFields, img: NormalisedImage): Promise<SceneOutput> {
  const size = parseDimensionRequest(input);
  const mode = parseFit(input);
  const dimensions = resolveDimensions(size, img.sourceWidth, img.sourceHeight);
  const plan = size.mode === 'explicit' ? planFitCrop(mode, img.sourceWidth, img.sourceHeight, size.width / size.height) : undefined;
  const model = await pictureModel(stage, input, dimensions, stillLayer(img), img.poster, plan?.crop?.uv);
  return plan ? { ...model, fit: plan.fit } : model;
}

/**
 * Builds the scene of a still picture job: its size (docs/api.md, Picture size) from the normalised picture, then
 * {@link pictureModel}. A job building variants ({@link isVariantsJob}) has an uncropped texture: its
 * model is {@link uncroppedPictureModel}'s.
 */
export async function buildSceneOutput(ctx: StageContext<{ from?: string }>, stage: string): Promise<SceneOutput> {
  const img = ctx.outputs[ctx.options.from ?? 'normalise'] as NormalisedImage;
  const input = inputOf<PictureFields>(ctx.job);
  if (isVariantsJob(input)) return uncroppedPictureModel(stage, input, img);
  const dimensions = resolveDimensions(parseDimensionRequest(input), img.sourceWidth, img.sourceHeight);
  return pictureModel(stage, input, dimensions, stillLayer(img), img.poster);
}

/** The scene from the pipeline's `scene` step, or built here for pipelines written before it existed. */
export async function sceneOf(ctx: StageContext<{ from?: string }>, stage: string): Promise<SceneOutput> {
  return (ctx.outputs.scene as SceneOutput | undefined) ?? buildSceneOutput(ctx, stage);
}

export const sceneStage: StageProvider<SceneOutput, { from?: string }> = {
  id: 'scene',
  run: (ctx) => buildSceneOutput(ctx, 'scene'),
};

/** The presentation fields every picture result (v1, showcase item, animated AR) carries. */
export function presentationResult(s: Pick<SceneOutput, 'presentation' | 'outer_dimensions'>): Record<string, unknown> {
  const p = s.presentation;
  return {
    placement: p.placement,
    allow_scaling: p.allow_scaling,
    finish: p.finish,
    frame: p.frame,
    mat: p.mat,
    outer_dimensions: s.outer_dimensions,
    banner: p.banner,
  };
}
