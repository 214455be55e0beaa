import { UserError, type StageContext, type StageProvider } from '@app/pipeline';
import { budgetUse, budgetViolations, type PictureLayer, type Scene, VIEWER_BUDGETS } from '@app/scene';
import { parseDimensionRequest, resolveDimensions, type Dimensions } from '../dimensions/dimensions';
import type { NormalisedImage, Poster } from '../normalise/normalise-image';
import { outerDimensions, parsePresentation, type Presentation } from '../presentation/presentation';
import { framedPoster } from './framed-poster';
import { pictureScene } from './picture-model';

/** The one description of the model that the GLB and USDZ writers serialise, and what the result shows. */
export interface SceneOutput {
  scene: Scene;
  dimensions: Dimensions;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  presentation: Presentation;
  /** The poster as the framed object looks from the front. */
  poster: Poster;
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
  jobInput: Record<string, unknown>,
  dimensions: Dimensions,
  layer: PictureLayer,
  poster: Poster,
): Promise<SceneOutput> {
  const presentation = parsePresentation(jobInput);
  const { scene } = await pictureScene(presentation, dimensions, layer);
  checkViewerBudgets(stage, scene);
  return {
    scene,
    dimensions,
    outer_dimensions: outerDimensions(dimensions, presentation),
    presentation,
    poster: await framedPoster(poster, dimensions, presentation),
  };
}

/** Builds the scene of a still picture job: its size (spec §2.1) from the normalised picture, then {@link pictureModel}. */
export async function buildSceneOutput(ctx: StageContext<{ from?: string }>, stage: string): Promise<SceneOutput> {
  const img = ctx.outputs[ctx.options.from ?? 'normalise'] as NormalisedImage;
  const dimensions = resolveDimensions(parseDimensionRequest(ctx.job.input), img.sourceWidth, img.sourceHeight);
  const layer: PictureLayer = {
    kind: 'still',
    texture: { id: 'picture', image: img.texture, mime: img.mime, width: img.width, height: img.height },
    alpha: img.alpha,
  };
  return pictureModel(stage, ctx.job.input, dimensions, layer, img.poster);
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
