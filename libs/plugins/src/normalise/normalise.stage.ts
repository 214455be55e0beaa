import type { AppConfig } from '@app/config';
import type { StageProvider } from '@app/pipeline';
import { parseDimensionRequest } from '../dimensions/dimensions';
import type { FetchedSource } from '../fetch/fetch-source';
import { parseFit } from '../fit/fit';
import { inputOf, type PictureFields } from '../job-inputs/job-input-fields';
import { isVariantsJob } from '../variants/variant-specs';
import { normaliseImage, type NormaliseOptions, type NormalisedImage } from './normalise-image';

/**
 * How the picture meets the job's size: only an explicit width_inches + height_inches has an aspect to
 * meet (auto and aspect_ratio sizes follow the picture or stretch it, as before `fit` existed). `fit` is
 * checked on every job, so a wrong value fails whatever the size mode. A job building variants
 * ({@link isVariantsJob}) checks it too but crops nothing here: its texture keeps the whole picture.
 */
export function fitOption(input: PictureFields): NormaliseOptions['fit'] {
  const mode = parseFit(input);
  const size = parseDimensionRequest(input);
  return size.mode === 'explicit' ? { mode, aspect: size.width / size.height } : undefined;
}

export function createNormaliseStage(config: AppConfig): StageProvider<NormalisedImage, { from?: string }> {
  return {
    id: 'normalise',
    async run(ctx) {
      const source = ctx.outputs[ctx.options.from ?? 'fetch'] as FetchedSource;
      const input = inputOf<PictureFields>(ctx.job);
      const fit = fitOption(input);
      // An item with variants keeps the whole picture: each model crops through its uv (scene, variants).
      if (isVariantsJob(input)) {
        return normaliseImage(source.bytes, {
          maxTexturePx: config.images.maxTexturePx,
          maxInputPixels: config.images.maxInputPixels,
          // Rebuilt from the item's stored model: its texture is reused as it is, not encoded again.
          keepTexture: source.url?.startsWith('upload:models/') === true,
        });
      }
      return normaliseImage(source.bytes, {
        maxTexturePx: config.images.maxTexturePx,
        maxInputPixels: config.images.maxInputPixels,
        fit,
      });
    },
  };
}
