import {
  DEFAULT_WALL_GAP_INCHES,
  MAX_WALL_GAP_INCHES,
  MAX_WALL_PICTURES,
  MIN_WALL_PICTURES,
  WALL_ALIGNS,
  WALL_ARRANGEMENTS,
} from '@app/plugins';
import { requestSchema, z } from '@app/schema';

/** Request shapes of the gallery wall routes (docs/gallery-walls.md). */

export const WALL_NAME_MAX = 80;
export const DEFAULT_WALL_NAME = 'Gallery wall';
/** Largest |x| or |y| of a custom centre: half of 40 ft plus room. */
const MAX_OFFSET = 480;

const inches = (what: string) =>
  z
    .number({ error: () => 'must be a number (inches)' })
    .refine((v) => Number.isFinite(v) && Math.abs(v) <= MAX_OFFSET, { error: () => `must be between -${MAX_OFFSET} and ${MAX_OFFSET}` })
    .optional()
    .meta({ description: what });

const WallItemBody = z.strictObject(
  {
    item_id: z
      .number({ error: () => 'must be an item id (a whole number)' })
      .int({ error: () => 'must be an item id (a whole number)' })
      .positive({ error: () => 'must be an item id (a whole number)' })
      .meta({ description: 'An item of this showcase.', example: 12 }),
    variant_sku: z
      .string({ error: () => 'must be a string' })
      .max(64, { error: () => 'at most 64 characters' })
      .nullish()
      .meta({ description: "For an item with variants, which one hangs (default: the item's default variant).", example: 'A2-OAK' }),
    x_inches: inches("custom: the picture's outer centre, inches right of the wall's centre."),
    y_inches: inches("custom: the picture's outer centre, inches above the wall's centre."),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be an object {item_id, variant_sku?, x_inches?, y_inches?}') },
);

const wallShape = {
  name: z
    .string({ error: () => 'must be a string' })
    .transform((v) => v.trim())
    .refine((t) => t.length > 0, { error: () => 'must not be empty' })
    .refine((t) => [...t].length <= WALL_NAME_MAX, { error: () => `at most ${WALL_NAME_MAX} characters` })
    .refine((t) => !/\p{Cc}/u.test(t), { error: () => 'must not contain control characters' })
    .nullish()
    .meta({
      maxLength: WALL_NAME_MAX,
      description: `The wall's name on its card (default "${DEFAULT_WALL_NAME}").`,
      example: 'Over the sofa',
    }),
  items: z
    .array(WallItemBody, { error: () => 'must be an array of {item_id, variant_sku?}' })
    .min(MIN_WALL_PICTURES, { error: () => `a gallery wall takes ${MIN_WALL_PICTURES} to ${MAX_WALL_PICTURES} pictures` })
    .max(MAX_WALL_PICTURES, { error: () => `a gallery wall takes ${MIN_WALL_PICTURES} to ${MAX_WALL_PICTURES} pictures` })
    .meta({
      description: `${MIN_WALL_PICTURES} to ${MAX_WALL_PICTURES} pictures of the showcase, each once, in the order they are laid out.`,
    }),
  arrangement: z
    .enum(WALL_ARRANGEMENTS as [string, ...string[]], { error: () => `must be one of ${WALL_ARRANGEMENTS.join(', ')}` })
    .optional()
    .meta({
      default: 'row',
      description:
        'row: one line, centres aligned; grid: columns; salon: a balanced cluster around a centre line, larger works near the middle; custom: each item at its x_inches, y_inches.',
    }),
  gap_inches: z
    .number({ error: () => 'must be a number (inches)' })
    .min(0, { error: () => `must be between 0 and ${MAX_WALL_GAP_INCHES}` })
    .max(MAX_WALL_GAP_INCHES, { error: () => `must be between 0 and ${MAX_WALL_GAP_INCHES}` })
    .optional()
    .meta({ default: DEFAULT_WALL_GAP_INCHES, description: 'Between neighbouring outer edges (frames included). Not used by custom.' }),
  align: z
    .enum(WALL_ALIGNS as [string, ...string[]], { error: () => `must be one of ${WALL_ALIGNS.join(', ')}` })
    .optional()
    .meta({ default: 'center', description: 'row and grid: where pictures of different heights line up.' }),
  columns: z
    .number({ error: () => 'must be a whole number' })
    .int({ error: () => 'must be a whole number' })
    .min(1, { error: () => 'must be a whole number from 1 to 12' })
    .max(MAX_WALL_PICTURES, { error: () => 'must be a whole number from 1 to 12' })
    .optional()
    .meta({ description: 'grid: columns (default: the square root of the count, rounded up).' }),
};

/** POST /api/v2/showcases/{id}/walls (and …/walls/layout). */
export const CreateWallBody = requestSchema(
  'CreateWallRequestDto',
  z.strictObject(wallShape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be a JSON object {items, arrangement, ...}'),
  }),
);

/** PATCH /api/v2/showcases/{id}/walls/{wall_id}: any create field; a field left out stays. */
export const UpdateWallBody = requestSchema(
  'UpdateWallRequestDto',
  z.strictObject(
    { ...wallShape, items: wallShape.items.optional() },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be a JSON object {name?, items?, arrangement?, ...}') },
  ),
);

/** A wall's request as validated and stored. */
export interface WallSpec {
  items: { item_id: number; variant_sku: string | null; x_inches?: number; y_inches?: number }[];
  arrangement: (typeof WALL_ARRANGEMENTS)[number];
  gap_inches: number;
  align: (typeof WALL_ALIGNS)[number];
  columns: number | null;
}
