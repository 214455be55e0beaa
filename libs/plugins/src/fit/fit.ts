import { UserError } from '@app/pipeline';

/**
 * How a picture meets an explicit real size (width_inches + height_inches) whose aspect is not its own:
 * `stretch` maps the whole picture onto the plane (the default, and the behaviour before `fit` existed);
 * `crop` keeps the centre of the picture at the size's aspect.
 */
export type FitMode = 'crop' | 'stretch';

/** What the job result reports under `fit` (explicit sizes only). */
export interface FitResult {
  requested: FitMode;
  /** 'none' when the aspects differ by at most {@link FIT_TOLERANCE}. */
  applied: 'none' | FitMode;
  /** Displayed pixel width / height of the source (after EXIF rotation), 4 decimals. */
  source_aspect: number;
  /** width_inches / height_inches, 4 decimals. */
  target_aspect: number;
}

/** Aspects within 1 % (larger / smaller <= 1.01) are taken as equal: nothing is cropped or stretched. */
export const FIT_TOLERANCE = 0.01;

export const FIT_MODES: readonly FitMode[] = ['crop', 'stretch'];

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The `fit` field of a job input: absent (or null) is `stretch`.
 *
 * @example
 * parseFit({ fit: 'crop' }) // 'crop'
 * parseFit({})              // 'stretch'
 */
export function parseFit(input: { fit?: unknown }): FitMode {
  const v = input.fit;
  if (v === undefined || v === null) return 'stretch';
  if (v === 'crop' || v === 'stretch') return v;
  throw new UserError('parameter_invalid', 'fit: must be one of "crop", "stretch"', { param: 'fit' });
}

/** Whether two aspects differ by more than {@link FIT_TOLERANCE}. */
export function aspectsDiffer(a: number, b: number): boolean {
  return Math.max(a, b) / Math.min(a, b) > 1 + FIT_TOLERANCE;
}

/**
 * What is done to a `sourceWidth` x `sourceHeight` picture placed on a plane of `targetAspect`.
 *
 * @example
 * planFit('crop', 400, 300, 1)      // { requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 }
 * planFit('crop', 1005, 1000, 1)    // applied: 'none'
 */
export function planFit(requested: FitMode, sourceWidth: number, sourceHeight: number, targetAspect: number): FitResult {
  const source = sourceWidth / sourceHeight;
  return {
    requested,
    applied: aspectsDiffer(source, targetAspect) ? requested : 'none',
    source_aspect: round4(source),
    target_aspect: round4(targetAspect),
  };
}

/** A region of a picture, in pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The largest region of `aspect` centred in a `width` x `height` picture (whole pixels, at least 1 x 1).
 *
 * @example
 * centredCrop(400, 300, 1) // { left: 50, top: 0, width: 300, height: 300 }
 */
export function centredCrop(width: number, height: number, aspect: number): Region {
  if (width / height > aspect) {
    const w = Math.max(1, Math.min(width, Math.round(height * aspect)));
    return { left: Math.floor((width - w) / 2), top: 0, width: w, height };
  }
  const h = Math.max(1, Math.min(height, Math.round(width / aspect)));
  return { left: 0, top: Math.floor((height - h) / 2), width, height: h };
}

/** What a picture shows on a plane: the fit decided, and with a crop applied the part kept. */
export interface FitPlan {
  fit: FitResult;
  /**
   * With `applied: 'crop'`: the centred region of the source kept ({@link centredCrop}), and the same
   * region as fractions of the picture, [u0, v0, u1, v1] from the top left (glTF's uv convention). It
   * holds for any downscaled copy of the source (its texture, its poster). Absent otherwise.
   */
  crop?: { region: Region; uv: [number, number, number, number] };
}

/**
 * {@link planFit}, and when it crops, where: the region of {@link centredCrop} on the source size and its uv
 * rectangle. A model built on the whole texture shows that rectangle on its picture quad instead of
 * cropping pixels, so one texture serves every size of an item.
 *
 * @example
 * planFitCrop('crop', 400, 300, 1)
 * // { fit: { requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 },
 * //   crop: { region: { left: 50, top: 0, width: 300, height: 300 }, uv: [0.125, 0, 0.875, 1] } }
 * planFitCrop('stretch', 400, 300, 1) // { fit: { ..., applied: 'stretch' } }: no crop
 */
export function planFitCrop(requested: FitMode, sourceWidth: number, sourceHeight: number, targetAspect: number): FitPlan {
  const fit = planFit(requested, sourceWidth, sourceHeight, targetAspect);
  if (fit.applied !== 'crop') return { fit };
  const region = centredCrop(sourceWidth, sourceHeight, targetAspect);
  const uv: [number, number, number, number] = [
    region.left / sourceWidth,
    region.top / sourceHeight,
    (region.left + region.width) / sourceWidth,
    (region.top + region.height) / sourceHeight,
  ];
  return { fit, crop: { region, uv } };
}
