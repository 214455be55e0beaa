import type { StageProvider } from '@app/pipeline';
import type { NormalisedImage } from '../normalise/normalise-image';
import { makePoster, type Poster } from './make-poster';

export const posterStage: StageProvider<Poster, { from?: string; maxPx?: number }> = {
  id: 'poster',
  async run(ctx) {
    return makePoster(ctx.outputs[ctx.options.from ?? 'normalise'] as NormalisedImage, ctx.options.maxPx);
  },
};
