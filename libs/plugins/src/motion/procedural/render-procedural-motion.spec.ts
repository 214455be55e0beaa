import {
  applyMotionHints,
  blendMotionPrompt,
  CAMERA_LIMITS,
  DEFAULT_MOTION_STYLE,
  MAX_MOTION_PROMPT,
  MOTION_PRESETS,
  promptHints,
  resolveMotionStyle,
} from './motion-presets';
import { cameraPoses, poseCorners, renderProceduralMotion, type RgbaStill } from './render-procedural-motion';

const OUT = { width: 160, height: 120 };
const FAST = { fps: 8, durationS: 2, ...OUT };

/**
 * A gradient with a grid on it, so any zoom, pan or turn changes many pixels (without the grid, the difference
 * between frames grows with the motion). `alpha` makes a transparent disc in the middle.
 */
function gridPicture(width: number, height: number, alpha = false, grid = true): RgbaStill {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const line = grid && (x % 16 < 2 || y % 16 < 2);
      rgba[i] = line ? 255 : Math.round((255 * x) / width);
      rgba[i + 1] = line ? 255 : Math.round((255 * y) / height);
      rgba[i + 2] = line ? 255 : 90;
      const inDisc = Math.hypot(x - width / 2, y - height / 2) < Math.min(width, height) / 4;
      rgba[i + 3] = alpha && inDisc ? 0 : 255;
    }
  }
  return { rgba, width, height };
}

// Aliased: a global `Math.*` lookup per pixel is slow inside jest's vm sandbox.
const abs = Math.abs;

/** Mean absolute RGB difference per pixel, 0..255. */
function diff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) sum += abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) + abs(a[i + 2] - b[i + 2]);
  return sum / (a.length / 4) / 3;
}

function allOpaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

describe('motion presets', () => {
  it('has the eight styles, each with a label and a description, and breathe as the default', () => {
    expect(MOTION_PRESETS.map((p) => p.id).sort()).toEqual([
      'breathe',
      'drift',
      'float',
      'orbit',
      'parallax',
      'pull-out',
      'push-in',
      'sway',
    ]);
    for (const p of MOTION_PRESETS) {
      expect(p.label).toBeTruthy();
      expect(p.description).toMatch(/\.$/);
    }
    expect(DEFAULT_MOTION_STYLE).toBe('breathe');
  });

  it('resolves a style by name, forgiving case and spaces; unknown or empty gives the default', () => {
    expect(resolveMotionStyle('orbit').id).toBe('orbit');
    expect(resolveMotionStyle(' Push In ').id).toBe('push-in');
    expect(resolveMotionStyle('pull_out').id).toBe('pull-out');
    for (const s of ['spin', '', '   ', undefined]) expect(resolveMotionStyle(s).id).toBe(DEFAULT_MOTION_STYLE);
  });

  it('blends the preset description and the custom text into a prompt of at most 400 characters', () => {
    const breathe = resolveMotionStyle('breathe');
    expect(blendMotionPrompt(breathe, '  leaves rustle\n\tin the   wind ')).toBe(
      'Gentle breathing zoom, the camera stays centred. Custom direction: leaves rustle in the wind',
    );
    expect(blendMotionPrompt(breathe)).toBe(breathe.description);
    expect(blendMotionPrompt(breathe, '   ')).toBe(breathe.description);
    const long = blendMotionPrompt(breathe, 'the river flows '.repeat(60));
    expect(long.length).toBeLessThanOrEqual(MAX_MOTION_PROMPT);
    expect(long.startsWith(`${breathe.description} Custom direction: the river flows`)).toBe(true);
  });

  it('reads only speed, direction and zoom keywords from the custom text', () => {
    expect(promptHints('slow zoom out to the left')).toEqual({ amplitude: 0.6, zoom: 'out', panX: -1, panY: 0 });
    expect(promptHints('Dramatic push in, drifting upwards')).toEqual({ amplitude: 1.5, zoom: 'in', panX: 0, panY: -1 });
    expect(promptHints('leaves rustle in the wind')).toEqual({ amplitude: 1, panX: 0, panY: 0 });
    // Opposites cancel; 'close-up' and 'slow down' are not directions.
    expect(promptHints('left then right, fast and gentle')).toEqual({ amplitude: 1, panX: 0, panY: 0 });
    expect(promptHints('a close-up, the water slows down')).toMatchObject({ panY: 0 });
  });

  it('adjusts a camera path by the hints, within the limits', () => {
    const drift = resolveMotionStyle('drift').camera;
    expect(applyMotionHints(drift, promptHints('fast, to the left')).panX).toBeCloseTo(-0.06);
    const up = applyMotionHints(drift, promptHints('drift up'));
    expect([up.panX, up.panY]).toEqual([0, -drift.panX]);
    expect(applyMotionHints(resolveMotionStyle('push-in').camera, promptHints('zoom out')).zoomOut).toBe(true);
    expect(applyMotionHints(resolveMotionStyle('pull-out').camera, promptHints('zoom in')).zoomOut).toBe(false);
    const wild = applyMotionHints({ ...resolveMotionStyle('sway').camera, rotateDeg: 10, panX: 1, zoom: 2 }, promptHints('dramatic'));
    expect([wild.rotateDeg, wild.panX, wild.zoom]).toEqual([CAMERA_LIMITS.maxRotateDeg, CAMERA_LIMITS.maxPan, CAMERA_LIMITS.maxZoom]);
  });
});

describe('camera poses', () => {
  it.each([
    ['same aspect', 800, 600],
    ['panorama', 1200, 200],
    ['tall', 200, 900],
    ['smaller than the output', 40, 30],
  ])('every window stays inside the picture, with zoom >= 1 and at most 3 degrees (%s)', (_name, width, height) => {
    for (const preset of MOTION_PRESETS) {
      for (const text of ['', 'dramatic zoom out to the left', 'fast up']) {
        const path = applyMotionHints(preset.camera, promptHints(text));
        const poses = cameraPoses(path, { width, height }, OUT, 24);
        const corners = poses.flatMap(poseCorners);
        const seen = {
          left: Math.min(...corners.map((c) => c[0])),
          top: Math.min(...corners.map((c) => c[1])),
          right: Math.max(...corners.map((c) => c[0])),
          bottom: Math.max(...corners.map((c) => c[1])),
        };
        expect(seen.left).toBeGreaterThanOrEqual(-1e-9);
        expect(seen.top).toBeGreaterThanOrEqual(-1e-9);
        expect(seen.right).toBeLessThanOrEqual(width + 1e-9);
        expect(seen.bottom).toBeLessThanOrEqual(height + 1e-9);
        expect(Math.max(...poses.map((p) => Math.abs(p.angle)))).toBeLessThanOrEqual((3 * Math.PI) / 180 + 1e-12);
        // zoom >= 1: no window is larger than the biggest one of the output's aspect ratio that fits.
        expect(Math.max(...poses.map((p) => p.width))).toBeLessThanOrEqual(Math.min(width, (height * OUT.width) / OUT.height) + 1e-9);
        // The window keeps the output's aspect ratio: nothing is stretched.
        for (const p of poses) expect(p.width / p.height).toBeCloseTo(OUT.width / OUT.height, 9);
      }
    }
  });

  it('moves by fractions of a pixel, not whole source pixels', () => {
    const poses = cameraPoses(resolveMotionStyle('drift').camera, { width: 40, height: 30 }, OUT, 48);
    expect(poses.some((p) => !Number.isInteger(p.cx))).toBe(true);
    const steps = poses.slice(1).map((p, i) => Math.abs(p.cx - poses[i].cx));
    expect(Math.max(...steps)).toBeLessThan(0.5);
  });
});

describe('renderProceduralMotion', () => {
  const still = gridPicture(240, 180);

  it.each(MOTION_PRESETS.map((p) => [p.id, p] as const))(
    '%s: moves, loops seamlessly and never leaves the picture',
    async (_id, preset) => {
      const seq = await renderProceduralMotion(still, { preset, ...FAST });
      expect(seq.frames).toHaveLength(16);
      expect([seq.width, seq.height]).toEqual([160, 120]);
      for (const f of seq.frames) {
        expect(f.rgba.length).toBe(160 * 120 * 4);
        expect(f.duration).toBeCloseTo(1 / 8);
        // An opaque picture stays opaque: no transparent border, even when the camera turns.
        expect(allOpaque(f.rgba)).toBe(true);
      }
      expect(seq.alpha).toBe('opaque');
      const steps = seq.frames.slice(1).map((f, i) => diff(seq.frames[i].rgba, f.rgba));
      expect(Math.min(...steps)).toBeGreaterThan(0.3);
      const wrap = diff(seq.frames[15].rgba, seq.frames[0].rgba);
      // Seamless: going from the last frame to the first is an ordinary step, not a jump.
      expect(wrap).toBeGreaterThan(0.3);
      expect(wrap).toBeLessThan(1.5 * Math.max(...steps));
      // Half-way round the loop the camera is elsewhere (a path that came back at mid-loop would look like a wobble).
      expect(diff(seq.frames[0].rgba, seq.frames[8].rgba)).toBeGreaterThan(1);
    },
  );

  it('keeps the transparency of the still', async () => {
    const seq = await renderProceduralMotion(gridPicture(240, 180, true), { preset: resolveMotionStyle('sway'), ...FAST });
    expect(seq.alpha).not.toBe('opaque');
    // The transparent disc is in the middle of every frame.
    for (const f of seq.frames) expect(f.rgba[(60 * 160 + 80) * 4 + 3]).toBe(0);
  });

  it('fills the frame from a still of another aspect ratio, or smaller than the output', async () => {
    for (const src of [gridPicture(300, 60), gridPicture(60, 200), gridPicture(40, 30)]) {
      const seq = await renderProceduralMotion(src, { preset: resolveMotionStyle('orbit'), ...FAST, customMotion: 'dramatic' });
      expect(seq.frames.every((f) => allOpaque(f.rgba))).toBe(true);
    }
  });

  it.each([
    ['small, enlarged 4x', 40, 30],
    ['large, shrunk', 400, 300],
  ])('moves smoothly from a %s still: a stripe follows the camera to within a third of a pixel', async (_name, width, height) => {
    // A light vertical stripe centred at x = width / 2 on grey. From the 40 px still an output pixel is a quarter
    // of a source pixel, so a window moving in whole source pixels would miss by up to 2 output pixels.
    const rgba = Buffer.alloc(width * height * 4);
    const half = width / 40;
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      rgba.fill(Math.abs(x + 0.5 - width / 2) < half ? 230 : 60, i * 4, i * 4 + 3);
      rgba[i * 4 + 3] = 255;
    }
    const preset = resolveMotionStyle('drift');
    const seq = await renderProceduralMotion({ rgba, width, height }, { preset, ...FAST });
    const poses = cameraPoses(preset.camera, { width, height }, OUT, 16);
    seq.frames.forEach((f, i) => {
      let sum = 0;
      let weight = 0;
      for (let X = 0; X < OUT.width; X++) {
        const w = f.rgba[(60 * OUT.width + X) * 4] - 60;
        sum += (X + 0.5) * w;
        weight += w;
      }
      const p = poses[i];
      const expected = ((width / 2 - (p.cx - p.width / 2)) * OUT.width) / p.width;
      expect(Math.abs(sum / weight - expected)).toBeLessThan(0.33);
    });
  });

  it('uses the custom text: "dramatic" moves more than "subtle"', async () => {
    const preset = resolveMotionStyle('push-in');
    const smooth = gridPicture(240, 180, false, false);
    const motion = async (customMotion: string) => {
      const seq = await renderProceduralMotion(smooth, { preset, customMotion, ...FAST });
      return diff(seq.frames[0].rgba, seq.frames[8].rgba);
    };
    expect(await motion('dramatic')).toBeGreaterThan(await motion('subtle'));
  });

  it('has round(duration x fps) frames, 4 s at 12 fps by default, and at most 10 s', async () => {
    const preset = resolveMotionStyle('breathe');
    const small = { width: 32, height: 24 };
    expect((await renderProceduralMotion(still, { preset, ...small })).frames).toHaveLength(48);
    expect((await renderProceduralMotion(still, { preset, ...small, fps: 2, durationS: 60 })).frames).toHaveLength(20);
    expect((await renderProceduralMotion(still, { preset, ...small, fps: 10, durationS: 1.26 })).frames).toHaveLength(13);
  });

  it('reports progress per frame and stops when aborted', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const run = renderProceduralMotion(still, {
      preset: resolveMotionStyle('orbit'),
      ...FAST,
      signal: controller.signal,
      onProgress: (f) => {
        progress.push(f);
        if (progress.length === 3) controller.abort(new Error('motion: cancelled'));
      },
    });
    await expect(run).rejects.toThrow('motion: cancelled');
    expect(progress).toEqual([1 / 16, 2 / 16, 3 / 16]);

    const done: number[] = [];
    await renderProceduralMotion(still, { preset: resolveMotionStyle('orbit'), ...FAST, onProgress: (f) => done.push(f) });
    expect(done).toHaveLength(16);
    expect(done[15]).toBe(1);
  });

  it('refuses to start with an aborted signal, and rejects a buffer of the wrong size', async () => {
    const preset = resolveMotionStyle('drift');
    await expect(renderProceduralMotion(still, { preset, ...FAST, signal: AbortSignal.abort() })).rejects.toThrow();
    await expect(renderProceduralMotion({ ...still, width: 100 }, { preset, ...FAST })).rejects.toThrow(/RGBA/);
  });
});
