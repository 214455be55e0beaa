import { LOOP_MODES, parseDimensionRequest, PRESENTATION_FIELDS, type AnimatedArInput, type LoopMode } from '@app/plugins';
import { ApiError } from '../http/api-error';
import { requestUrl } from '../http/request-url';
import { acceptPresentation, type PresentationInput } from '../presentation/presentation-request';

/** Spec §8. */
export const ANIMATED_AR_LIMITS = { customMotion: 400, motionStyle: 64, url: 4096 } as const;

const KNOWN = new Set<string>([
  'image_url',
  'video_url',
  'remove_background',
  'motion_style',
  'custom_motion',
  'video_model',
  'width_inches',
  'height_inches',
  'aspect_ratio',
  'callback_url',
  'loop',
  // placement, allow_scaling, finish, frame, mat and the banner: kept as sent, resolved by the pipeline.
  ...PRESENTATION_FIELDS,
]);
/** Fields that only steer the motion model, so they mean nothing for a video source. */
const IMAGE_ONLY = ['motion_style', 'custom_motion', 'video_model'] as const;

export interface AnimatedArRequest {
  input: AnimatedArInput & { aspect_ratio?: string } & PresentationInput;
  source: 'image' | 'video';
  /** Request fields accepted but without effect (e.g. motion_style on a video), reported back. */
  ignored: string[];
}

const present = (v: unknown) => v !== undefined && v !== null;

/**
 * Validates a POST /api/v2/animated-ar body (spec §4.1 item 7, §8). Throws a 400 {@link ApiError}
 * naming the parameter. `enabledModels` are the video_model ids the motion catalog offers.
 *
 * @example
 * parseAnimatedArRequest({ image_url: 'https://cdn.example/cat.jpg', motion_style: 'drift' }, ['procedural'], { blockPrivate: true })
 */
export function parseAnimatedArRequest(
  body: unknown,
  enabledModels: readonly string[],
  opts: { blockPrivate: boolean },
): AnimatedArRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'invalid_request_error', 'invalid_body', 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !KNOWN.has(k));
  if (unknown) throw ApiError.invalid(unknown, `${unknown}: unknown parameter`, 'parameter_unknown');
  if (present(b.image_url) === present(b.video_url)) {
    throw ApiError.invalid(
      present(b.image_url) ? 'video_url' : 'image_url',
      'exactly one of image_url and video_url is required',
      present(b.image_url) ? 'parameter_conflict' : 'parameter_missing',
    );
  }
  const source = present(b.video_url) ? 'video' : 'image';
  const rules = { https: true, max: ANIMATED_AR_LIMITS.url, blockPrivate: opts.blockPrivate };
  const input: AnimatedArRequest['input'] =
    source === 'video'
      ? { video_url: requestUrl('video_url', b.video_url, rules) }
      : { image_url: requestUrl('image_url', b.image_url, rules) };

  if (present(b.remove_background)) {
    if (typeof b.remove_background !== 'boolean') throw ApiError.invalid('remove_background', 'remove_background: must be true or false');
    input.remove_background = b.remove_background;
  }
  if (present(b.motion_style)) {
    if (typeof b.motion_style !== 'string' || b.motion_style.length > ANIMATED_AR_LIMITS.motionStyle) {
      throw ApiError.invalid(
        'motion_style',
        `motion_style: must be a string of at most ${ANIMATED_AR_LIMITS.motionStyle} characters (unknown presets fall back to the default)`,
      );
    }
    input.motion_style = b.motion_style;
  }
  if (present(b.custom_motion)) {
    if (typeof b.custom_motion !== 'string') throw ApiError.invalid('custom_motion', 'custom_motion: must be a string');
    if (b.custom_motion.length > ANIMATED_AR_LIMITS.customMotion) {
      throw ApiError.invalid(
        'custom_motion',
        `custom_motion: at most ${ANIMATED_AR_LIMITS.customMotion} characters (got ${b.custom_motion.length})`,
        'custom_motion_too_long',
      );
    }
    input.custom_motion = b.custom_motion;
  }
  if (present(b.video_model)) {
    if (typeof b.video_model !== 'string' || !enabledModels.includes(b.video_model)) {
      throw ApiError.invalid('video_model', `video_model: must be an enabled model: ${enabledModels.join(', ')}`, 'invalid_video_model');
    }
    input.video_model = b.video_model;
  }
  if (present(b.loop)) {
    if (typeof b.loop !== 'string' || !LOOP_MODES.includes(b.loop as LoopMode))
      throw ApiError.invalid('loop', `loop: must be one of ${LOOP_MODES.join(', ')}`);
    input.loop = b.loop as LoopMode;
  }
  if (present(b.callback_url))
    input.callback_url = requestUrl('callback_url', b.callback_url, { https: true, blockPrivate: opts.blockPrivate });
  // A bad size is a UserError naming its param: the error filter answers 400.
  const dims = parseDimensionRequest(b);
  if (dims.mode === 'explicit') Object.assign(input, { width_inches: dims.width, height_inches: dims.height });
  if (dims.mode === 'aspect') input.aspect_ratio = b.aspect_ratio as string;
  // A bad value is a UserError naming its param (400) before anything is charged.
  Object.assign(input, acceptPresentation(b));
  const ignored = source === 'video' ? IMAGE_ONLY.filter((k) => present(b[k])) : [];
  for (const k of ignored) delete input[k];
  return { input, source, ignored };
}
