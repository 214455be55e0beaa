import { inchesField, MAX_INCHES, MIN_INCHES, type PictureFields } from '@app/plugins';
import type { Availability, ItemCatalogue, ItemLabel } from '@app/persistence';
import { z } from '@app/schema';
import type { PresentationInput } from './presentation-request';

/** The catalogue fields of an item (its real size, label, availability and order), shared by items and their variants. */
const CM_PER_INCH = 2.54;
const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;
const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
/** A length in centimetres within `minIn`..`maxIn` inches; numeric text is read as a number (multipart). */
const cmField = (minIn: number, maxIn: number) => {
  const [min, max] = [round(minIn * CM_PER_INCH, 3), round(maxIn * CM_PER_INCH, 3)];
  const range = `must be between ${min} and ${max} cm`;
  return z.preprocess(
    numeric,
    z
      .number({ error: () => 'must be a number' })
      .refine(Number.isFinite, { error: () => 'must be a number' })
      .min(min, { error: () => range })
      .max(max, { error: () => range }),
  );
};
const depthInches = z.preprocess(
  numeric,
  z
    .number({ error: () => 'must be a number of inches' })
    .min(0.04, { error: () => 'must be between 0.04 and 6 inches' })
    .max(6, { error: () => 'must be between 0.04 and 6 inches' }),
);

/**
 * A picture's real size: width and height in inches or in centimetres (a pair, the spec's 0.1-120 in), an
 * optional depth (the canvas's or frame's depth from the wall), and what to do when the picture's aspect
 * differs from the size by more than 1 %: `crop` (centred, the default) or `stretch`.
 */
export const itemSizeShape = {
  width_inches: inchesField.nullish().meta({
    description: `The picture's real width, ${MIN_INCHES} to ${MAX_INCHES} in; with height_inches. Default: 24 in on the shorter side.`,
    example: 40,
  }),
  height_inches: inchesField.nullish().meta({ description: 'With width_inches.', example: 30 }),
  width_cm: cmField(MIN_INCHES, MAX_INCHES)
    .nullish()
    .meta({ description: 'The real width in centimetres (0.254 to 304.8), with height_cm; instead of the inches.', example: 101.6 }),
  height_cm: cmField(MIN_INCHES, MAX_INCHES).nullish().meta({ description: 'With width_cm.', example: 76.2 }),
  depth_inches: depthInches
    .nullish()
    .meta({ description: "Depth from the wall (a canvas's or frame's depth), 0.04 to 6 in.", example: 1.5 }),
  depth_cm: cmField(0.04, 6).nullish().meta({ description: 'The depth in centimetres, instead of depth_inches.', example: 3.8 }),
  fit: z
    .enum(['crop', 'stretch'], { error: () => 'must be one of "crop", "stretch"' })
    .nullish()
    .meta({
      default: 'crop',
      description:
        "When the picture's aspect differs from the given size by more than 1 %: crop it (centred) to the size's aspect, or stretch it. The item's `fit` reports what was done.",
    }),
};

/** Sizes come as one pair, in one unit; `fit` needs a size. */
export function checkItemSize(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const { inches, cm } = checkSizePairs(v, ctx);
  if (v.fit != null && !inches && !cm)
    ctx.addIssue({
      code: 'custom',
      path: ['fit'],
      message: 'needs a size (width and height) to fit to',
      params: { code: 'parameter_missing' },
    });
}

/** The rules of {@link checkItemSize} a body checks on its own: a pair, in one unit (an edit's `fit` may use the stored size). */
export function checkSizePairs(v: Record<string, unknown>, ctx: z.RefinementCtx): { inches: boolean; cm: boolean } {
  const pair = (w: string, h: string) => {
    if ((v[w] != null) === (v[h] != null)) return v[w] != null;
    const missing = v[w] != null ? h : w;
    ctx.addIssue({
      code: 'custom',
      path: [missing],
      message: `${w} and ${h} must be given together`,
      params: { code: 'parameter_missing' },
    });
    return false;
  };
  const inches = pair('width_inches', 'height_inches');
  const cm = pair('width_cm', 'height_cm');
  if (inches && cm) ctx.addIssue({ code: 'custom', path: ['width_cm'], message: 'give the size in inches or in centimetres, not both' });
  if (v.depth_inches != null && v.depth_cm != null)
    ctx.addIssue({ code: 'custom', path: ['depth_cm'], message: 'give the depth in inches or in centimetres, not both' });
  return { inches, cm };
}

/**
 * The job input fields of a picture's real size, in inches (4 decimals, so a centimetre value reads back to
 * 0.01 cm), with its depth applied to the frame (no frame: an unframed picture that deep), over its
 * presentation. `sent`: the item's fields, validated by its request schema.
 */
export function itemSizeInput(sent: Record<string, unknown>, presentation: PresentationInput): PictureFields {
  const num = (k: string) => (sent[k] == null ? undefined : Number(sent[k]));
  const inches = (k: string) => num(`${k}_inches`) ?? (num(`${k}_cm`) !== undefined ? round(num(`${k}_cm`)! / CM_PER_INCH, 4) : undefined);
  const [w, h, depth] = [inches('width'), inches('height'), inches('depth')];
  const out: PictureFields = { ...presentation };
  if (w !== undefined && h !== undefined)
    Object.assign(out, { width_inches: w, height_inches: h, fit: (sent.fit as PictureFields['fit']) ?? 'crop' } satisfies PictureFields);
  if (depth !== undefined) {
    const f = out.frame;
    out.frame =
      typeof f === 'string'
        ? { style: f, depth_inches: depth }
        : f && typeof f === 'object'
          ? { ...f, depth_inches: depth }
          : { style: 'none', depth_inches: depth };
  }
  return out;
}

/** Availability of a work: what the pages show (a red dot and "Sold", no buy button) and the JSON-LD offer says. */
export const AVAILABILITIES = ['available', 'reserved', 'sold', 'not_for_sale'] as const;

/** Free label text: trimmed, at most `max` characters, no control characters but line breaks in a description. */
const labelText = (max: number, description: string, example: string, multiline = false) =>
  z
    .string({ error: () => 'must be a string' })
    .transform((v) => v.trim())
    .refine((t) => [...t].length <= max, { error: () => `at most ${max} characters` })
    .refine((t) => !(multiline ? t.replace(/[\n\r\t]/g, '') : t).match(/\p{Cc}/u), { error: () => 'must not contain control characters' })
    .nullish()
    .meta({ maxLength: max, description, example });

/**
 * How a gallery labels a work, and where it sits in the gallery's catalogue. All optional; `external_id`
 * is unique in the showcase (a re-import finds the item by it).
 */
export const itemLabelShape = {
  artist: labelText(120, 'The artist, as the label shows it.', 'Hilma af Klint'),
  year: labelText(20, 'Free text: "1907", "c. 1890", "1960s".', 'c. 1890'),
  medium: labelText(200, 'Medium and support.', 'Oil on canvas'),
  edition: labelText(60, 'Edition, e.g. "3/25" or "Edition of 50".', '3/25'),
  description: labelText(2000, 'A longer text for the item page.', 'Painted on the coast in the summer of 1907.', true),
  external_id: z
    .string({ error: () => 'must be a string' })
    .transform((v) => v.trim())
    .refine((t) => t.length > 0, { error: () => 'must not be empty' })
    .refine((t) => t.length <= 100, { error: () => 'at most 100 characters' })
    .refine((t) => !/\p{Cc}/u.test(t), { error: () => 'must not contain control characters' })
    .nullish()
    .meta({
      maxLength: 100,
      description: "The work's id in the gallery's own catalogue; unique in the showcase.",
      example: 'INV-2024-117',
    }),
  availability: z
    .enum(AVAILABILITIES, { error: () => `must be one of ${AVAILABILITIES.join(', ')}` })
    .nullish()
    .meta({ default: 'available', description: 'sold: the pages show a red dot and "Sold" and no buy button.' }),
  position: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: () => 'must be a whole number from 0 to 1000000' })
        .int({ error: () => 'must be a whole number from 0 to 1000000' })
        .min(0, { error: () => 'must be a whole number from 0 to 1000000' })
        .max(1_000_000, { error: () => 'must be a whole number from 0 to 1000000' }),
    )
    .nullish()
    .meta({ description: 'Order in the showcase (lower first; items without one follow, oldest first).', example: 10 }),
};

/** The catalogue fields of a validated item, as the repository stores them. */
export function itemCatalogue(v: Record<string, unknown>): Partial<ItemCatalogue> {
  const label: ItemLabel = {};
  for (const k of ['artist', 'year', 'medium', 'edition', 'description'] as const) {
    const t = typeof v[k] === 'string' ? (v[k] as string).trim() : '';
    if (t) label[k] = t;
  }
  return {
    label,
    externalId: typeof v.external_id === 'string' ? v.external_id.trim() : null,
    availability: (v.availability as Availability | null | undefined) ?? 'available',
    position: typeof v.position === 'number' ? v.position : typeof v.position === 'string' ? Number(v.position) : null,
  };
}
