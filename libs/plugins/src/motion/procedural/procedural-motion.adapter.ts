import type { MotionProvider } from '../motion-provider.port';
import { resolveMotionStyle } from './motion-presets';
import { renderProceduralMotion } from './render-procedural-motion';

export const PROCEDURAL_MODEL_ID = 'procedural';

/**
 * The built-in offline motion model: camera-style moves rendered from the still (no AI, no network).
 * It keeps transparency, so a cut-out still stays cut out. Its work happens in `poll` (it is local and
 * deterministic: a resumed job simply renders again); `start` only records the request.
 */
export const proceduralMotionProvider: MotionProvider = {
  id: 'procedural',
  acceptsTransparency: true,
  models: () => [
    {
      id: PROCEDURAL_MODEL_ID,
      display_name: 'Procedural camera motion (built in, offline)',
      provider: 'procedural',
      description:
        'Seamless camera moves over the still picture (push-in, drift, sway, breathe…). custom_motion only steers speed, direction and zoom through a few keywords.',
    },
  ],
  async start(req) {
    return { style: req.style, custom: req.customMotion ?? null };
  },
  async poll(handle, req, ctx) {
    const sequence = await renderProceduralMotion(req.image, {
      preset: resolveMotionStyle(String(handle.style)),
      customMotion: typeof handle.custom === 'string' ? handle.custom : undefined,
      durationS: req.durationS,
      fps: req.fps,
      width: req.width,
      height: req.height,
      signal: ctx.signal,
      onProgress: ctx.progress,
    });
    return { state: 'succeeded', output: { kind: 'frames', sequence } };
  },
  async cancel() {
    // Nothing runs between polls.
  },
};
