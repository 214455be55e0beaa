import type { StageProvider } from '@app/pipeline';
import { cardInput } from '../card-input';
import { writeCardUsdz } from './write-card-usdz';

export const usdzWriterStage: StageProvider<{ usdz: Buffer }, { from?: string }> = {
  id: 'usdz-writer',
  async run(ctx) {
    return { usdz: writeCardUsdz(cardInput(ctx).card) };
  },
};
