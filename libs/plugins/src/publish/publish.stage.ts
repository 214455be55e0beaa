import { OperationalError, type StageProvider } from '@app/pipeline';
import { CONTENT_TYPES, type StoragePort } from '@app/storage';
import type { Dimensions } from '../dimensions/dimensions';
import type { GlbOutput } from '../glb-writer/glb-writer.stage';
import type { NormalisedImage } from '../normalise/normalise-image';

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
}

/** Stores the models and poster under `models/<job id>/`. Same keys on a replay, so it is idempotent. */
export function createPublishStage(storage: StoragePort): StageProvider<StillImageResult> {
  return {
    id: 'publish',
    async run(ctx) {
      const glb = ctx.outputs['glb-writer'] as GlbOutput;
      const usdz = (ctx.outputs['usdz-writer'] as { usdz: Buffer }).usdz;
      const img = ctx.outputs.normalise as NormalisedImage;
      const poster = img.poster;
      const base = `models/${ctx.job.id}`;
      const items: [keyof StillImageResult['files'], string, Buffer, string][] = [
        ['glb', `${base}/model.glb`, glb.glb, CONTENT_TYPES.glb],
        ['usdz', `${base}/model.usdz`, usdz, CONTENT_TYPES.usdz],
        ['poster', `${base}/poster.${poster.ext}`, poster.image, poster.mime],
      ];
      const files = {} as StillImageResult['files'];
      let done = 0;
      for (const [name, key, body, type] of items) {
        try {
          await storage.put(key, body, type);
        } catch (e) {
          throw new OperationalError('storage_unavailable', `publish: could not store ${name}: ${(e as Error).message}`);
        }
        files[name] = { key, bytes: body.length, content_type: type };
        ctx.progress(++done / items.length);
      }
      return {
        dimensions: glb.dimensions,
        files,
        texture: { width: img.width, height: img.height, mime: img.mime, alpha: img.alpha },
      };
    },
  };
}
