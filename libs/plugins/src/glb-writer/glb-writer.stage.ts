import type { StageProvider } from '@app/pipeline';
import type { Dimensions } from '../dimensions/dimensions';
import { cardInput } from '../card-input';
import { writeCardGlb } from './write-card-glb';

export interface GlbOutput {
  glb: Buffer;
  dimensions: Dimensions;
}

export const glbWriterStage: StageProvider<GlbOutput, { from?: string }> = {
  id: 'glb-writer',
  async run(ctx) {
    const { card, dimensions } = cardInput(ctx);
    return { glb: await writeCardGlb(card), dimensions };
  },
};
