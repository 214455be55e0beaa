import sharp from 'sharp';
import type { StageProvider } from '@app/pipeline';
import { parseDimensionRequest, resolveDimensions, type Dimensions } from '../dimensions/dimensions';
import { flipbookLayer } from '../flipbook/flipbook';
import { packAtlases } from '../flipbook/pack-atlases';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { outerDimensions, parsePresentation, type Presentation } from '../presentation/presentation';
import { framedPoster } from '../scene-builder/framed-poster';
import { pictureScene } from '../scene-builder/picture-model';
import { checkFileBudget, checkViewerBudgets } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';
import type { AlphaMode } from '../frames/frame-sequence';
import type { Poster } from '../normalise/normalise-image';
import type { BackgroundRemovalOutput } from './background-removal.stage';
import type { SourceFrames } from './frames.stage';

export interface FlipbookOutput {
  glb: Buffer;
  usdz: Buffer;
  poster: Poster;
  dimensions: Dimensions;
  frames: { count: number; width: number; height: number; duration_s: number; atlases: number; alpha: AlphaMode };
  presentation: Presentation;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
}

/**
 * Builds the looping flipbook GLB and USDZ (DESIGN §5) from the final frames, sized by the source's
 * displayed proportions (or the request's inches), and the poster from the first frame.
 */
export const flipbookWriterStage: StageProvider<FlipbookOutput> = {
  id: 'flipbook-writer',
  async run(ctx) {
    const src = ctx.outputs.frames as SourceFrames;
    const { sequence } = ctx.outputs['background-removal'] as BackgroundRemovalOutput;
    const dimensions = resolveDimensions(parseDimensionRequest(ctx.job.input), src.sourceWidth, src.sourceHeight);
    const presentation = parsePresentation(ctx.job.input);
    const alpha = sequence.alpha;
    const { atlases, frames } = await packAtlases(sequence.frames, { width: sequence.width, height: sequence.height, alpha: alpha !== 'opaque' });
    ctx.progress(0.4);
    // The frame, mat and back stay still; only the picture's flipbook plays.
    const { scene } = await pictureScene(presentation, dimensions, flipbookLayer({ atlases, frames, alpha }));
    checkViewerBudgets('flipbook-writer', scene);
    const glb = checkFileBudget('flipbook-writer', await writeSceneGlb(scene));
    ctx.progress(0.7);
    const usdz = checkFileBudget('flipbook-writer', writeSceneUsdz(scene, 'flipbook.usda'));
    const picturePoster = await posterOf(sequence.frames[0].rgba, sequence.width, sequence.height, alpha !== 'opaque');
    const poster = await framedPoster(picturePoster, dimensions, presentation);
    ctx.progress(1);
    const duration = sequence.frames.reduce((s, f) => s + f.duration, 0);
    return {
      glb,
      usdz,
      poster,
      dimensions,
      frames: { count: frames.length, width: sequence.width, height: sequence.height, duration_s: Math.round(duration * 1000) / 1000, atlases: atlases.length, alpha },
      presentation,
      outer_dimensions: outerDimensions(dimensions, presentation),
    };
  },
};

async function posterOf(rgba: Buffer, width: number, height: number, alpha: boolean): Promise<Poster> {
  const img = sharp(rgba, { raw: { width, height, channels: 4 } });
  const image = alpha ? await img.png().toBuffer() : await img.removeAlpha().jpeg({ quality: 88, mozjpeg: true }).toBuffer();
  return { image, mime: alpha ? 'image/png' : 'image/jpeg', ext: alpha ? 'png' : 'jpg', width, height };
}
