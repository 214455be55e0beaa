import type { StageContext } from '@app/pipeline';
import { parseDimensionRequest, resolveDimensions, toMeters, type Dimensions } from './dimensions/dimensions';
import type { CardModelInput } from './glb-writer/write-card-glb';
import { inputOf, type PictureFields } from './job-inputs/job-input-fields';
import type { NormalisedImage } from './normalise/normalise-image';

/** The card to build from the normalised picture and the job's size parameters (docs/api.md, Picture size). */
export function cardInput(ctx: StageContext<{ from?: string }>): { card: CardModelInput; dimensions: Dimensions } {
  const img = ctx.outputs[ctx.options.from ?? 'normalise'] as NormalisedImage;
  const dimensions = resolveDimensions(parseDimensionRequest(inputOf<PictureFields>(ctx.job)), img.sourceWidth, img.sourceHeight);
  const m = toMeters(dimensions);
  return { card: { texture: img.texture, mime: img.mime, alpha: img.alpha, width: m.width, height: m.height }, dimensions };
}
