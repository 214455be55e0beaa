import type { z } from '@app/schema';
import { LOOP_MODES } from '../frames/loop-seam';
import { bool, checkPictureFields, exactlyOne, defineJobInput, nonEmpty, oneOf, pictureFieldsShape, str } from './job-input-fields';

/**
 * An animated AR job (`v2.animated-ar`), as the API validated and stored it: its source (`image_url`, a
 * still or an animated image, or `video_url`), exactly one; for an image, the motion (preset, free text,
 * hosted model); the cut-out, the loop, a callback; the size and presentation as sent.
 *
 * @example
 * AnimatedArJobInput.parse({ image_url: 'https://cdn.example/cat.jpg', motion_style: 'drift', loop: 'crossfade', width_inches: 16, height_inches: 20 })
 */
export const AnimatedArJobInput = defineJobInput(
  {
    ...pictureFieldsShape,
    image_url: nonEmpty().optional(),
    video_url: nonEmpty().optional(),
    remove_background: bool().optional(),
    motion_style: str().optional(),
    custom_motion: str().optional(),
    video_model: str().optional(),
    /** How the end joins the start (default `auto`): see frames/loop-seam.ts. */
    loop: oneOf(LOOP_MODES).optional(),
    callback_url: nonEmpty().optional(),
  },
  [exactlyOne(['image_url', 'video_url']), checkPictureFields],
);
export type AnimatedArJobInput = z.output<typeof AnimatedArJobInput>;
