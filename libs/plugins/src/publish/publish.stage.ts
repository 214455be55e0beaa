import { OperationalError, type StageProvider } from '@app/pipeline';
import { CONTENT_TYPES, type StoragePort } from '@app/storage';
import type { Dimensions } from '../dimensions/dimensions';
import type { FitResult } from '../fit/fit';
import type { GlbOutput } from '../glb-writer/glb-writer.stage';
import type { NormalisedImage } from '../normalise/normalise-image';
import { presentationResult } from '../scene-builder/scene.stage';
import type { VariantBuild } from '../variants/build-variant';
import type { VariantsOutput } from '../variants/variants.stage';
import { isVariantsJob } from '../variants/variant-specs';

export interface StoredFile {
  key: string;
  bytes: number;
  content_type: string;
}

/** The job result of a still-image conversion. URLs are derived from keys when read. */
export interface StillImageResult {
  [k: string]: unknown;
  dimensions: Dimensions;
  files: { glb: StoredFile; usdz: StoredFile; poster: StoredFile };
  texture: { width: number; height: number; mime: string; alpha: string };
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

/** The three files of a model: binary glTF, USDZ and poster. */
export interface ModelFileBodies {
  glb: Buffer;
  usdz: Buffer;
  poster: { image: Buffer; ext: string; mime: string };
}

/**
 * Stores a model's files under `models/<job id>/` (same keys on a replay, so it is idempotent), or under
 * `base` when given (an item's variant: `models/<job id>/variants/<variant id>`). A storage failure is an
 * operational error (retried), named after `stage`.
 *
 * @example
 * const files = await storeModelFiles(storage, 'variants', job.id, bodies, () => {}, `models/${job.id}/variants/var_a3oak`);
 * files.glb.key // 'models/<job id>/variants/var_a3oak/model.glb'
 */
export async function storeModelFiles(
  storage: StoragePort,
  stage: string,
  jobId: string,
  b: ModelFileBodies,
  progress: (f: number) => void,
  base = `models/${jobId}`,
): Promise<StillImageResult['files']> {
  const items: [keyof StillImageResult['files'], string, Buffer, string][] = [
    ['glb', `${base}/model.glb`, b.glb, CONTENT_TYPES.glb],
    ['usdz', `${base}/model.usdz`, b.usdz, CONTENT_TYPES.usdz],
    ['poster', `${base}/poster.${b.poster.ext}`, b.poster.image, b.poster.mime],
  ];
  // Written side by side: the writes and their hashing overlap instead of queueing one after another.
  let done = 0;
  const stored = await Promise.all(
    items.map(async ([name, key, body, type]) => {
      try {
        await storage.put(key, body, type);
      } catch (e) {
        throw new OperationalError('storage_unavailable', `${stage}: could not store ${name}: ${(e as Error).message}`);
      }
      progress(++done / items.length);
      return [name, { key, bytes: body.length, content_type: type }] as const;
    }),
  );
  const files = Object.fromEntries(stored) as StillImageResult['files'];
  return files;
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
        ...(fit ? { fit } : {}),
        ...presentationResult(glb.model),
        ...(isVariantsJob(ctx.job.input) ? { variants: (ctx.outputs.variants as VariantsOutput | undefined)?.variants ?? [] } : {}),
      };
    },
  };
}
