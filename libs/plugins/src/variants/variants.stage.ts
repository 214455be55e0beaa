import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { NormalisedImage } from '../normalise/normalise-image';
import { storeModelFiles } from '../publish/model-files';
import { buildVariantModel, variantBuild, type VariantBuild } from './build-variant';
import { parseVariantSpecs } from './variant-specs';

/** What the `variants` step made: each variant's record, in the order asked, and the texture they share. */
export interface VariantsOutput {
  variants: VariantBuild[];
  texture: { width: number; height: number; mime: string; alpha: string };
}

export interface VariantsStageOptions {
  /** The normalise step's id (default `normalise`). */
  from?: string;
  /**
   * Variants built at once (default 2): one's poster encode and file writes overlap the next one's scene and
   * writers. Measured on 2 cores (bench/variant-cost.ts, 6 variants stored): 2 at once 10-15 % faster than 1.
   */
  concurrency?: number;
}

/** Key prefix of a variant's files: `models/<job id>/variants/<variant id>`. */
export const variantBase = (jobId: string, variantId: string): string => `models/${jobId}/variants/${variantId}`;

/**
 * The `variants` stage: every variant the job input lists ({@link parseVariantSpecs}) built from the one
 * normalised texture ({@link buildVariantModel}: no decode, the texture never encoded again) and its three
 * files stored under `models/<job id>/variants/<variant id>/` (`model.glb`, `model.usdz`, `poster.<ext>`;
 * the same keys on a replay). A job without variants gets `{ variants: [] }` at once.
 *
 * @example
 * // In a pipeline, after normalise:
 * { stage: 'variants', phase: 'converting', weight: 2 }
 * // output: { variants: [{ id: 'var_a3oak', files: { glb, usdz, poster }, dimensions, outer_dimensions, fit, … }], texture }
 */
export function createVariantsStage(storage: StoragePort): StageProvider<VariantsOutput, VariantsStageOptions> {
  return {
    id: 'variants',
    resource: 'cpu',
    async run(ctx) {
      const img = ctx.outputs[ctx.options.from ?? 'normalise'] as NormalisedImage;
      const texture = { width: img.width, height: img.height, mime: img.mime, alpha: img.alpha };
      const specs = parseVariantSpecs(ctx.job.input);
      if (!specs.length) return { variants: [], texture };
      const out: VariantBuild[] = new Array(specs.length);
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (next < specs.length) {
          const i = next++;
          ctx.signal.throwIfAborted();
          const built = await buildVariantModel(specs[i], img, `variants: variants[${i}]`);
          const files = await storeModelFiles(
            storage,
            'variants',
            ctx.job.id,
            built.bodies,
            () => undefined,
            variantBase(ctx.job.id, built.id),
          );
          out[i] = variantBuild(built, files);
          ctx.progress(++done / specs.length);
        }
      };
      const n = Math.max(1, Math.min(ctx.options.concurrency ?? 2, specs.length));
      await Promise.all(Array.from({ length: n }, worker));
      return { variants: out, texture };
    },
  };
}
