import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { Dimensions } from '../dimensions/dimensions';
import type { FitResult } from '../fit/fit';
import type { GlbOutput } from '../glb-writer/glb-writer.stage';
import type { NormalisedImage } from '../normalise/normalise-image';
import { presentationResult } from '../scene-builder/scene.stage';
import type { VariantBuild } from '../variants/build-variant';
import type { VariantsOutput } from '../variants/variants.stage';
import { isVariantsJob } from '../variants/variant-specs';
import { type ModelFiles, storeModelFiles } from './model-files';

// Re-exported: the animated-AR and wall stages, the API's visitor walls and the package index take them from here.
export { type ModelFileBodies, type ModelFiles, storeModelFiles, type StoredFile } from './model-files';

/** The job result of a still-image conversion. URLs are derived from keys when read. */
export interface StillImageResult {
  [k: string]: unknown;
  dimensions: Dimensions;
  files: ModelFiles;
  texture: { width: number; height: number; mime: string; alpha: string };
  /**
   * The stored poster's size in pixels: the pages list its thumbnails only when it is wide enough to make
   * them (`makesThumbnails`). Absent on results written before it existed (their thumbnails were all made).
   */
  poster_px?: { width: number; height: number };
  /**
   * How the picture met an explicit width_inches + height_inches (crop or stretch, or 'none' within 1 %).
   * Absent for auto and aspect_ratio sizes, and on results written before it existed.
   */
  fit?: FitResult;
  /**
   * A job whose input has `variants` (an item's other sizes and frames): each one's files and presentation,
   * in the order asked, built by the `variants` step from the same texture. Absent on every other job.
   */
  variants?: VariantBuild[];
}

/**
 * Stores the models and poster under `models/<job id>/`. Same keys on a replay, so it is idempotent. A
 * job building variants gets the `variants` step's records in its result (`variants`, [] when none).
 */
export function createPublishStage(storage: StoragePort): StageProvider<StillImageResult> {
  return {
    id: 'publish',
    async run(ctx) {
      const glb = ctx.outputs['glb-writer'] as GlbOutput;
      const usdz = (ctx.outputs['usdz-writer'] as { usdz: Buffer }).usdz;
      const img = ctx.outputs.normalise as NormalisedImage;
      const files = await storeModelFiles(storage, 'publish', ctx.job.id, { glb: glb.glb, usdz, poster: glb.model.poster }, ctx.progress);
      // An item with variants: normalise kept the whole picture and the scene decided the fit.
      const fit = img.fit ?? glb.model.fit;
      return {
        dimensions: glb.dimensions,
        files,
        texture: { width: img.width, height: img.height, mime: img.mime, alpha: img.alpha },
        poster_px: { width: glb.model.poster.width, height: glb.model.poster.height },
        ...(fit ? { fit } : {}),
        ...presentationResult(glb.model),
        ...(isVariantsJob(ctx.job.input) ? { variants: (ctx.outputs.variants as VariantsOutput | undefined)?.variants ?? [] } : {}),
      };
    },
  };
}
