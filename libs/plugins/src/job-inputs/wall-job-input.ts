import { z } from '@app/schema';
import { WALL_ALIGNS, WALL_ARRANGEMENTS } from '../gallery-wall/arrange-wall';
import { expected, int, defineJobInput, nonEmpty, num, oneOf, record, str } from './job-input-fields';

/**
 * One picture of a wall as a job or a visitor request names it: the stored GLB holding its texture (a
 * `models/<job>/model.glb`, or a variant's), its size and presentation (width_inches, height_inches, fit,
 * frame, mat, finish: a variant spec's fields), the texture's alpha mode as normalise chose it (default from
 * its type), and the item it shows.
 */
export const WallPictureRef = z.looseObject(
  {
    glb_key: nonEmpty(),
    spec: record(),
    alpha: oneOf(['opaque', 'mask', 'blend'] as const).optional(),
    item_id: int().optional(),
    variant_sku: str().nullish(),
  },
  { error: expected('must be an object {glb_key, spec}') },
);
export type WallPictureRef = z.output<typeof WallPictureRef>;

/** The `wall` of a wall build's input: its pictures and their arrangement (laid out and checked by the API). */
export const WallBuildInput = z.looseObject(
  {
    pictures: z.array(WallPictureRef, { error: expected('must be an array of pictures') }).min(1, { error: () => 'must list a picture' }),
    arrangement: oneOf(WALL_ARRANGEMENTS),
    gap_inches: num().optional(),
    align: oneOf(WALL_ALIGNS).optional(),
    columns: int().optional(),
    /** `custom`: each picture's outer centre (inches, y up, relative to the wall's centre). */
    custom: z
      .array(z.looseObject({ x_inches: num(), y_inches: num() }), { error: expected('must be an array of {x_inches, y_inches}') })
      .optional(),
  },
  { error: expected('must be an object {pictures, arrangement}') },
);
export type WallBuildInput = z.output<typeof WallBuildInput>;

/**
 * A saved gallery wall's build (`gallery-wall` pipeline, a `v2.picture` job), written by the API's walls:
 * the showcase and the `wall` to build into one GLB, USDZ and poster.
 *
 * @example
 * WallJobInput.parse({ showcase_id: 7, wall: { pictures: [{ glb_key: 'models/v2_a/model.glb', spec: { width_inches: 24, height_inches: 30 } }, …], arrangement: 'row', gap_inches: 3, align: 'center' } })
 */
export const WallJobInput = defineJobInput({ showcase_id: int().optional(), wall: WallBuildInput });
export type WallJobInput = z.output<typeof WallJobInput>;
