import type { AppConfig } from '@app/config';
import type { StageProvider } from '@app/pipeline';
import type { FetchedSource } from '../fetch/fetch-source';
import { normaliseImage, type NormalisedImage } from './normalise-image';

export function createNormaliseStage(config: AppConfig): StageProvider<NormalisedImage, { from?: string }> {
  return {
    id: 'normalise',
    async run(ctx) {
      const source = ctx.outputs[ctx.options.from ?? 'fetch'] as FetchedSource;
      return normaliseImage(source.bytes, { maxTexturePx: config.images.maxTexturePx, maxInputPixels: config.images.maxInputPixels });
    },
  };
}
