import {
  type AnimatedArJobInput,
  dimensionShape,
  LOOP_MODES,
  parseDimensionRequest,
  presentationShape,
  requireLinkForCallToAction,
  requireSizePair,
} from '@app/plugins';
import { httpUrl, notAnObject, parseInput, requestSchema, z } from '@app/schema';
import { ApiError } from '../http/api-error';
import { requestUrl } from '../http/request-url';
import { acceptPresentation } from '../showcases/item/presentation-request';

/** Spec §8. */
export const ANIMATED_AR_LIMITS = { customMotion: 400, motionStyle: 64, url: 4096 } as const;

const sourceUrl = httpUrl({ https: true, max: ANIMATED_AR_LIMITS.url });

/** POST /api/v2/animated-ar (docs/api.md, v2 Animated AR): one source, the motion, the size and the presentation fields. */
export const AnimatedArBody = requestSchema(
  'AnimatedArRequestDto',
  z
    .strictObject(
      {
        image_url: sourceUrl.nullish().meta({
          description:
            'Still image to animate, or an animated GIF / APNG / WebP baked from its own frames. https, publicly reachable, no redirects. Exactly one of image_url and video_url.',
        }),
        video_url: sourceUrl
          .nullish()
          .meta({ description: 'Short clip (mp4, mov, webm; at most VIDEO_MAX_BYTES), baked directly. https, no redirects.' }),
        remove_background: z
          .boolean({ error: () => 'must be true or false' })
          .nullish()
          .meta({ description: 'Cut out the subject per frame for a transparent card.' }),
        motion_style: z
          .string({
            error: () =>
              `must be a string of at most ${ANIMATED_AR_LIMITS.motionStyle} characters (unknown presets fall back to the default)`,
          })
          .max(ANIMATED_AR_LIMITS.motionStyle, {
            error: () =>
              `must be a string of at most ${ANIMATED_AR_LIMITS.motionStyle} characters (unknown presets fall back to the default)`,
          })
          .nullish()
          .meta({
            description:
              'Motion preset, image sources only (unknown values fall back to the default; see GET /api/v2/animated-ar/options).',
          }),
        custom_motion: z
          .string({ error: () => 'must be a string' })
          .superRefine((v, ctx) => {
            if (v.length > ANIMATED_AR_LIMITS.customMotion)
              ctx.addIssue({
                code: 'custom',
                message: `at most ${ANIMATED_AR_LIMITS.customMotion} characters (got ${v.length})`,
                params: { code: 'custom_motion_too_long' },
              });
          })
          .nullish()
          .meta({ maxLength: ANIMATED_AR_LIMITS.customMotion, description: 'Free-form motion description, image sources only.' }),
        // Which models are enabled is the deployment's: checked by parseAnimatedArRequest.
        video_model: z.unknown().nullish().meta({ type: 'string', description: 'An enabled image-to-video model id, image sources only.' }),
        loop: z
          .enum(LOOP_MODES as unknown as [string, ...string[]], { error: () => `must be one of ${LOOP_MODES.join(', ')}` })
          .nullish()
          .meta({
            default: 'auto',
            description:
              'How the last frame joins the first. auto: a clip that already loops is kept; otherwise it is cut at the frame most like the first ' +
              '(within the last third) and the frames after it are blended into the start. crossfade: every frame kept, the last frames dissolve into the first. ' +
              'pingpong: forward then backward (frames dropped evenly to stay within ANIMATION_MAX_FRAMES and 10 s). cut: as decoded. ' +
              'Procedural motion is an exact loop and is never blended. The result reports animation.seam_score (1 = the wrap is like one ordinary frame step).',
          }),
        callback_url: httpUrl({ https: true })
          .nullish()
          .meta({ description: 'https URL POSTed the final job payload (GET /api/v2/jobs/{id}) when the job completes or fails.' }),
        ...dimensionShape,
        ...presentationShape,
      },
      { error: notAnObject() },
    )
    .superRefine((b, ctx) => {
      const image = b.image_url != null;
      if (image === (b.video_url != null))
        ctx.addIssue({
          code: 'custom',
          path: [image ? 'video_url' : 'image_url'],
          message: 'exactly one of image_url and video_url is required',
          params: { code: image ? 'parameter_conflict' : 'parameter_missing', verbatim: true },
        });
    })
    .superRefine(requireSizePair)
    .superRefine(requireLinkForCallToAction),
);

/** Fields that only steer the motion model, so they mean nothing for a video source. */
const IMAGE_ONLY = ['motion_style', 'custom_motion', 'video_model'] as const;

export interface AnimatedArRequest {
  input: AnimatedArJobInput;
  source: 'image' | 'video';
  /** Request fields accepted but without effect (e.g. motion_style on a video), reported back. */
  ignored: string[];
}

/**
 * Validates a POST /api/v2/animated-ar body against {@link AnimatedArBody}, then what only the deployment
 * knows: the enabled `video_model` ids and, with `blockPrivate`, private hosts. Throws a 400 naming the parameter.
 *
 * @example
 * parseAnimatedArRequest({ image_url: 'https://cdn.example/cat.jpg', motion_style: 'drift' }, ['procedural'], { blockPrivate: true })
 */
export function parseAnimatedArRequest(
  body: unknown,
  enabledModels: readonly string[],
  opts: { blockPrivate: boolean },
): AnimatedArRequest {
  const b = parseInput(AnimatedArBody, body);
  const source = b.video_url != null ? 'video' : 'image';
  const rules = { https: true, max: ANIMATED_AR_LIMITS.url, blockPrivate: opts.blockPrivate };
  const input: AnimatedArRequest['input'] =
    source === 'video'
      ? { video_url: requestUrl('video_url', b.video_url, rules) }
      : { image_url: requestUrl('image_url', b.image_url, rules) };
  if (b.remove_background != null) input.remove_background = b.remove_background;
  if (b.motion_style != null) input.motion_style = b.motion_style;
  if (b.custom_motion != null) input.custom_motion = b.custom_motion;
  if (b.video_model != null) {
    if (typeof b.video_model !== 'string' || !enabledModels.includes(b.video_model))
      throw ApiError.invalid('video_model', `video_model: must be an enabled model: ${enabledModels.join(', ')}`, 'invalid_video_model');
    input.video_model = b.video_model;
  }
  if (b.loop != null) input.loop = b.loop as AnimatedArJobInput['loop'];
  if (b.callback_url != null)
    input.callback_url = requestUrl('callback_url', b.callback_url, { https: true, blockPrivate: opts.blockPrivate });
  const dims = parseDimensionRequest(b);
  if (dims.mode === 'explicit') Object.assign(input, { width_inches: dims.width, height_inches: dims.height });
  if (dims.mode === 'aspect') input.aspect_ratio = b.aspect_ratio!;
  // The presentation fields as sent (the pipeline resolves them); a mat without a frame is refused here.
  Object.assign(input, acceptPresentation(body as Record<string, unknown>));
  const ignored = source === 'video' ? IMAGE_ONLY.filter((k) => b[k] != null) : [];
  for (const k of ignored) delete input[k];
  return { input, source, ignored };
}
