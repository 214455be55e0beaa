import type { LoopMode } from '../frames/loop-seam';

/** The job input of an animated AR job, as the API validated and stored it. */
export interface AnimatedArInput {
  image_url?: string;
  video_url?: string;
  remove_background?: boolean;
  motion_style?: string;
  custom_motion?: string;
  video_model?: string;
  width_inches?: number;
  height_inches?: number;
  callback_url?: string;
  /** How the end joins the start (default `auto`): see frames/loop-seam.ts. */
  loop?: LoopMode;
}

/** What the source turned out to be, told by its bytes. */
export type SourceKind = 'image' | 'animated-image' | 'video';

export const animatedInput = (input: Readonly<Record<string, unknown>>): AnimatedArInput => input as AnimatedArInput;
