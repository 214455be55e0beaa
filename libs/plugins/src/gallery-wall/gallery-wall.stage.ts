import { type StageProvider, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { inputOf } from '../job-inputs/job-input-fields';
import type { WallBuildInput, WallJobInput } from '../job-inputs/wall-job-input';
import { storeModelFiles, type StillImageResult } from '../publish/publish.stage';
import type { ArrangeWallOptions, WallAlign, WallArrangement } from './arrange-wall';
import { buildGalleryWall, type WallTextures } from './wall-model';
import { loadWallPictures } from './wall-sources';

/** Where each picture hangs in the built wall: its outer centre and outer size (inches). */
export interface WallPicturePlace {
  item_id: number | null;
  variant_sku: string | null;
  x_inches: number;
  y_inches: number;
  width_inches: number;
  height_inches: number;
}

/** A wall build's result: a still image's shape (files, dimensions, texture), so job views and embed pages work, plus the wall. */
export interface GalleryWallResult extends StillImageResult {
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  wall: {
    arrangement: WallArrangement;
    gap_inches: number;
    align: WallAlign;
    columns?: number;
    pictures: WallPicturePlace[];
    textures: WallTextures;
    materials: number;
    decoded_texture_bytes: number;
  };
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/** The files of a visitor's wall (built on request, no job), under {@link visitorWallBase}. */
export const VISITOR_WALL_FILES = ['model.glb', 'model.usdz', 'poster.jpg'] as const;

/** Where a visitor's wall of showcase `showcasePublicId` keeps its files: `walls/visitor/<showcase>/<key>`. */
export const visitorWallBase = (showcasePublicId: string, key: string): string => `walls/visitor/${showcasePublicId}/${key}`;

/** The arrangement options of a wall build's input (its values checked by {@link WallJobInput}). */
export function wallArrangeOptions(w: WallBuildInput): ArrangeWallOptions {
  return {
    arrangement: w.arrangement,
    ...(w.gap_inches !== undefined ? { gapInches: w.gap_inches } : {}),
    ...(w.align ? { align: w.align } : {}),
    ...(w.columns !== undefined ? { columns: w.columns } : {}),
    ...(w.custom ? { custom: w.custom } : {}),
  };
}

/**
 * The `gallery-wall` stage: the job input's `wall` ({@link WallJobInput}) built into one GLB, USDZ and poster
 * ({@link buildGalleryWall}) from the pictures' textures in their stored models ({@link loadWallPictures}),
 * stored under `models/<job id>/` like a picture's files.
 *
 * @example
 * // input: { showcase_id: 7, wall: { pictures: [{ glb_key, spec: { width_inches: 24, height_inches: 30, frame } }, …], arrangement: 'row' } }
 * // output: { files: { glb, usdz, poster }, dimensions, outer_dimensions, texture, wall: { pictures: [{ x_inches, … }], textures } }
 */
export function createGalleryWallStage(storage: StoragePort): StageProvider<GalleryWallResult> {
  return {
    id: 'gallery-wall',
    resource: 'cpu',
    async run(ctx) {
      const w = inputOf<WallJobInput>(ctx.job).wall;
      // A pipeline routed to a kind whose input has no wall (a configuration mistake): said plainly.
      if (!w) throw new UserError('parameter_invalid', 'wall: the job input has no wall');
      const arrange = wallArrangeOptions(w);
      const pictures = await loadWallPictures(storage, w.pictures);
      ctx.progress(0.2);
      ctx.signal.throwIfAborted();
      const built = await buildGalleryWall(pictures, arrange);
      ctx.progress(0.7);
      const files = await storeModelFiles(storage, 'gallery-wall', ctx.job.id, built.bodies, (f) => ctx.progress(0.7 + 0.3 * f));
      const { model, layout } = built;
      const first = model.scene.textures[0];
      return {
        dimensions: { width_inches: model.outer_dimensions.width_inches, height_inches: model.outer_dimensions.height_inches },
        outer_dimensions: model.outer_dimensions,
        files,
        texture: { width: first?.width ?? 0, height: first?.height ?? 0, mime: first?.mime ?? 'image/jpeg', alpha: 'opaque' },
        wall: {
          arrangement: layout.arrangement,
          gap_inches: layout.gap_inches,
          align: layout.align,
          ...(layout.columns ? { columns: layout.columns } : {}),
          pictures: model.pictures.map((p, i) => ({
            item_id: w.pictures[i].item_id ?? null,
            variant_sku: w.pictures[i].variant_sku ?? null,
            x_inches: r3(p.position.x_inches),
            y_inches: r3(p.position.y_inches),
            width_inches: p.outer_dimensions.width_inches,
            height_inches: p.outer_dimensions.height_inches,
          })),
          textures: model.textures,
          materials: model.budget.materials,
          decoded_texture_bytes: model.budget.decodedTextureBytes,
        },
      };
    },
  };
}
