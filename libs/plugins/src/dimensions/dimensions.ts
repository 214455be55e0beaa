import { UserError } from '@app/pipeline';

/** Default length of the shorter side of the AR plane, in inches (spec §2.1). */
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

function invalid(param: string, message: string): UserError {
  return new UserError('parameter_invalid', `${param}: ${message}`, { param });
}

function inches(param: string, v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(param, 'must be a number');
  if (n < MIN_INCHES || n > MAX_INCHES) throw invalid(param, `must be between ${MIN_INCHES} and ${MAX_INCHES} inches`);
  return n;
}

/**
 * Validates the size parameters of a request (spec §2.1). Errors name the parameter.
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
  const hasW = input.width_inches !== undefined && input.width_inches !== null;
  const hasH = input.height_inches !== undefined && input.height_inches !== null;
  if (hasW !== hasH) {
    const missing = hasW ? 'height_inches' : 'width_inches';
    throw new UserError('parameter_missing', `${missing}: width_inches and height_inches must be given together`, { param: missing });
  }
  if (hasW && hasH) {
    return { mode: 'explicit', width: inches('width_inches', input.width_inches), height: inches('height_inches', input.height_inches) };
  }
  if (input.aspect_ratio !== undefined && input.aspect_ratio !== null) {
    if (typeof input.aspect_ratio !== 'string') throw invalid('aspect_ratio', 'must be a string "W:H"');
    const m = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(input.aspect_ratio);
    if (!m) throw invalid('aspect_ratio', 'must look like "W:H", e.g. "16:9"');
    const w = Number(m[1]);
    const h = Number(m[2]);
    if (!(w > 0 && h > 0)) throw invalid('aspect_ratio', 'both sides must be greater than zero');
    if (Math.max(w, h) / Math.min(w, h) > MAX_INCHES / MIN_INCHES) throw invalid('aspect_ratio', 'is too extreme');
    return { mode: 'aspect', w, h };
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
