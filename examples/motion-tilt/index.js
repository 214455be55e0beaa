'use strict';
/**
 * Example motion model plugin: "tilt" — the picture rocks gently, as if held and turned in the hand.
 * Rendered locally with sharp (no network, no GPU). Loaded purely by configuration:
 *
 *   CONFIG_FILE: { "plugins": ["/path/to/examples/motion-tilt"],
 *                  "pluginOptions": { "motion-tilt": { "degrees": 4, "displayName": "Tilt" } } }
 *
 * The service's plugin contract (docs/plugins.md): a module exporting { name, defaults, register }.
 * `register(container, options)` registers a MotionProvider under the token "motion.provider".
 * The provider's models appear in GET /api/v2/animated-ar/options and are accepted as `video_model`.
 */
const sharp = require('sharp');

/** @typedef {{ degrees: number, displayName: string, modelId: string }} TiltOptions */

/** One frame: rotate by `angle` degrees around the centre, zoomed so no corner shows. */
async function tiltFrame(image, width, height, angle) {
  const rad = (Math.abs(angle) * Math.PI) / 180;
  // Zoom that keeps a rotated width x height box inside the picture.
  const zoom = Math.cos(rad) + Math.sin(rad) * Math.max(width / height, height / width);
  // +2 px: the rotated edge is antialiased, so the window must stay clear of its last pixel (else the
  // corners of an opaque picture turn slightly transparent; found by the SDK's motion contract kit).
  const w = Math.ceil(width * zoom) + 2;
  const h = Math.ceil(height * zoom) + 2;
  // Two pipelines: sharp rotates before it resizes within one pipeline.
  const resized = await sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(w, h, { fit: 'cover' })
    .raw()
    .toBuffer();
  const rotated = await sharp(resized, { raw: { width: w, height: h, channels: 4 } })
    .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.floor((rotated.info.width - width) / 2));
  const top = Math.max(0, Math.floor((rotated.info.height - height) / 2));
  return sharp(rotated.data, { raw: { width: rotated.info.width, height: rotated.info.height, channels: 4 } })
    .extract({ left, top, width, height })
    .raw()
    .toBuffer();
}

/** @type {{ name: string, defaults: TiltOptions, register: (container: any, options: TiltOptions) => void }} */
module.exports = {
  name: 'motion-tilt',
  defaults: { degrees: 3, displayName: 'Tilt (example plugin)', modelId: 'tilt:gentle' },
  register(container, options) {
    if (!(options.degrees > 0 && options.degrees <= 15)) throw new Error('motion-tilt: degrees must be in (0, 15]');
    if (!/^[a-z][a-z0-9-]*:\S+$/.test(options.modelId)) throw new Error('motion-tilt: modelId must look like "<provider>:<model>"');
    const provider = {
      id: 'tilt',
      // Output keeps the still's alpha: a cut-out stays cut out, background removal runs once.
      acceptsTransparency: true,
      models: () => [
        {
          id: options.modelId,
          display_name: options.displayName,
          provider: 'tilt',
          description: `Rocks the picture by ±${options.degrees}°`,
        },
      ],
      // Local models do their work in poll(); start() only records what to do, and must be JSON.
      async start() {
        return { degrees: options.degrees };
      },
      async poll(handle, req, ctx) {
        const n = Math.max(2, Math.round(req.durationS * req.fps));
        const frames = [];
        for (let i = 0; i < n; i++) {
          if (ctx.signal.aborted) throw new Error('motion-tilt: interrupted');
          const angle = handle.degrees * Math.sin((2 * Math.PI * i) / n); // one seamless period
          frames.push({ rgba: await tiltFrame(req.image, req.width, req.height, angle), duration: 1 / req.fps });
          ctx.progress((i + 1) / n);
        }
        const alpha = req.image.mime === 'image/png' ? 'blend' : 'opaque';
        return { state: 'succeeded', output: { kind: 'frames', sequence: { width: req.width, height: req.height, frames, alpha } } };
      },
      async cancel() {
        // Nothing runs between polls.
      },
    };
    container.register('motion.provider', { useValue: provider });
  },
};
