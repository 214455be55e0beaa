import { parseInput, z } from '@app/schema';

/** Default length of the shorter side of the AR plane, in inches (docs/api.md, Picture size). */
export const DEFAULT_SHORT_SIDE_IN = 24;
export const MIN_INCHES = 0.1;
export const MAX_INCHES = 120;
export const METERS_PER_INCH = 0.0254;

export interface Dimensions {
  width_inches: number;
  height_inches: number;
}

/** What the client asked for, validated. */
export type DimensionRequest =
  { mode: 'auto' } | { mode: 'aspect'; w: number; h: number } | { mode: 'explicit'; width: number; height: number };

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A size in inches; numeric text is read as a number (multipart form fields are text). */
export const inchesField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: () => 'must be a number' })
    .refine(Number.isFinite, { error: () => 'must be a number' })
    .min(MIN_INCHES, { error: () => `must be between ${MIN_INCHES} and ${MAX_INCHES} inches` })
    .max(MAX_INCHES, { error: () => `must be between ${MIN_INCHES} and ${MAX_INCHES} inches` }),
);

const ASPECT = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/;

/** The size fields of a picture request (docs/api.md, Picture size), declared once for every request that takes them. */
export const dimensionShape = {
  aspect_ratio: z
    .string({ error: () => 'must be a string "W:H"' })
    .superRefine((v, ctx) => {
      const m = ASPECT.exec(v);
      if (!m) return void ctx.addIssue({ code: 'custom', message: 'must look like "W:H", e.g. "16:9"' });
      const [w, h] = [Number(m[1]), Number(m[2])];
      if (!(w > 0 && h > 0)) return void ctx.addIssue({ code: 'custom', message: 'both sides must be greater than zero' });
      if (Math.max(w, h) / Math.min(w, h) > MAX_INCHES / MIN_INCHES) ctx.addIssue({ code: 'custom', message: 'is too extreme' });
    })
    .nullish()
    .meta({
      description: '"W:H" shorthand: the shorter side is 24 inches. Ignored when width_inches and height_inches are given.',
      example: '16:9',
    }),
  width_inches: inchesField.nullish().meta({
    description: `${MIN_INCHES} to ${MAX_INCHES}; with height_inches. Default: 24 inches on the shorter side, the other from the picture.`,
    example: 24,
  }),
  height_inches: inchesField.nullish().meta({ description: `${MIN_INCHES} to ${MAX_INCHES}; with width_inches.`, example: 36 }),
};

/** width_inches and height_inches come as a pair. */
export function requireSizePair(v: { width_inches?: unknown; height_inches?: unknown }, ctx: z.RefinementCtx): void {
  const hasW = v.width_inches != null;
  if (hasW === (v.height_inches != null)) return;
  const missing = hasW ? 'height_inches' : 'width_inches';
  ctx.addIssue({
    code: 'custom',
    path: [missing],
    message: `${missing}: width_inches and height_inches must be given together`,
    params: { code: 'parameter_missing', verbatim: true },
  });
}

const DimensionFields = z.object(dimensionShape).superRefine(requireSizePair);

/**
 * Validates the size parameters of a request (docs/api.md, Picture size) against {@link dimensionShape}. Errors name the parameter.
 *
 * @example
 * parseDimensionRequest({ aspect_ratio: '16:9' }) // { mode: 'aspect', w: 16, h: 9 }
 * parseDimensionRequest({ width_inches: 10, height_inches: 20, aspect_ratio: '1:1' }) // explicit wins
 */
export function parseDimensionRequest(input: {
  aspect_ratio?: unknown;
  width_inches?: unknown;
  height_inches?: unknown;
}): DimensionRequest {
  const { aspect_ratio, width_inches, height_inches } = input;
  // Explicit sizes win: a bad aspect_ratio beside them is ignored (docs/api.md, Picture size).
  const d = parseInput(
    DimensionFields,
    width_inches != null && height_inches != null ? { width_inches, height_inches } : { aspect_ratio, width_inches, height_inches },
  );
  if (d.width_inches != null && d.height_inches != null) return { mode: 'explicit', width: d.width_inches, height: d.height_inches };
  if (d.aspect_ratio != null) {
    const m = ASPECT.exec(d.aspect_ratio)!;
    return { mode: 'aspect', w: Number(m[1]), h: Number(m[2]) };
  }
  return { mode: 'auto' };
}

/** Shorter side 24 in, the other scaled, rounded to 0.01 in. */
function fromRatio(w: number, h: number): Dimensions {
  if (w >= h) return { width_inches: round2((DEFAULT_SHORT_SIDE_IN * w) / h), height_inches: DEFAULT_SHORT_SIDE_IN };
  return { width_inches: DEFAULT_SHORT_SIDE_IN, height_inches: round2((DEFAULT_SHORT_SIDE_IN * h) / w) };
}

/**
 * The plane size for a request and the displayed pixel size of the picture.
 *
 * @example
 * resolveDimensions({ mode: 'aspect', w: 16, h: 9 }, 100, 100) // { width_inches: 42.67, height_inches: 24 }
 * resolveDimensions({ mode: 'auto' }, 600, 900)               // { width_inches: 24, height_inches: 36 }
 */
export function resolveDimensions(req: DimensionRequest, pixelWidth: number, pixelHeight: number): Dimensions {
  switch (req.mode) {
    case 'explicit':
      return { width_inches: req.width, height_inches: req.height };
    case 'aspect':
      return fromRatio(req.w, req.h);
    default:
      if (!(pixelWidth > 0 && pixelHeight > 0)) throw new Error('dimensions: pixel size must be positive');
      return fromRatio(pixelWidth, pixelHeight);
  }
}

/** Inches to metres, for the model files. */
export function toMeters(d: Dimensions): { width: number; height: number } {
  return { width: d.width_inches * METERS_PER_INCH, height: d.height_inches * METERS_PER_INCH };
}
