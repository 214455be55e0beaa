import sharp from 'sharp';
import type { RawFrame } from '../../flipbook/pack-atlases';
import { classifyAlpha, type FrameSequence } from '../../frames/frame-sequence';
import { applyMotionHints, promptHints, type CameraPath, type MotionPreset } from './motion-presets';

export interface ProceduralMotionOptions {
  preset: MotionPreset;
  /** The user's motion text: only a few keywords adjust the camera (see `promptHints`). */
  customMotion?: string;
  /** Loop length, seconds: default 4, at most 10. */
  durationS?: number;
  /** Frames per second: default 12, 1..30. */
  fps?: number;
  /** Output frame size, px. */
  width: number;
  height: number;
  signal?: AbortSignal;
  /** Fraction done, 0..1, after each frame. */
  onProgress?: (f: number) => void;
}

/** An RGBA still, width x height x 4 bytes. */
export interface RgbaStill {
  rgba: Buffer;
  width: number;
  height: number;
}

/**
 * Where the camera looks in one frame, in source pixels (continuous: the picture spans [0, width] x [0, height]).
 * The output frame shows the window of `width` x `height` centred on (cx, cy), turned by `angle` radians.
 */
export interface CameraPose {
  cx: number;
  cy: number;
  width: number;
  height: number;
  angle: number;
}

export const DEFAULT_MOTION_DURATION_S = 4;
export const MAX_MOTION_DURATION_S = 10;
export const DEFAULT_MOTION_FPS = 12;

const TURN = 2 * Math.PI;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** A `-cos` wave at frame i of n: one period per loop, so frame n would equal frame 0 (seamless). */
const wave = (i: number, n: number, phase: number) => -Math.cos(TURN * (i / n + phase));

/** Half-extents of the axis-aligned box around a w x h window turned by `angle`. */
function extents(w: number, h: number, angle: number): { ex: number; ey: number } {
  const c = Math.abs(Math.cos(angle));
  const s = Math.abs(Math.sin(angle));
  return { ex: (w * c + h * s) / 2, ey: (w * s + h * c) / 2 };
}

/** The largest window of the output's aspect ratio that fits the picture (the frame at zoom 1). */
function coverWindow(src: { width: number; height: number }, out: { width: number; height: number }): { bw: number; bh: number } {
  const aspect = out.width / out.height;
  return src.width / src.height > aspect ? { bw: src.height * aspect, bh: src.height } : { bw: src.width, bh: src.width / aspect };
}

/**
 * The zoom held for the whole loop so that the widest, most turned, most panned window still fits the
 * picture: the window's turned bounding box plus the pan must stay within the picture on both axes.
 * One zoom for the loop (rather than per frame) so a rotation does not also pump the zoom.
 */
function floorZoom(src: { width: number; height: number }, bw: number, bh: number, path: CameraPath): number {
  const { ex, ey } = extents(bw, bh, rad(Math.abs(path.rotateDeg)));
  const roomX = src.width - 2 * Math.abs(path.panX) * bw;
  const roomY = src.height - 2 * Math.abs(path.panY) * bh;
  return Math.max(1, (2 * ex) / roomX, (2 * ey) / roomY);
}

/**
 * The camera of every frame of the loop: a zoom >= 1 (the window is the cover window scaled by 1/zoom), a pan
 * and a small rotation, all periodic over `frameCount` frames. Every window, turned, stays inside the picture.
 *
 * @example
 * const poses = cameraPoses(resolveMotionStyle('sway').camera, { width: 800, height: 600 }, { width: 160, height: 120 }, 48);
 * poses[0].angle // -> -0.0349 (2 degrees one way; poses[24] is 2 degrees the other way)
 */
export function cameraPoses(
  path: CameraPath,
  src: { width: number; height: number },
  out: { width: number; height: number },
  frameCount: number,
): CameraPose[] {
  const { bw, bh } = coverWindow(src, out);
  const z0 = floorZoom(src, bw, bh, path);
  return Array.from({ length: frameCount }, (_, i) => {
    const push = (1 + wave(i, frameCount, path.zoomPhase)) / 2;
    const zoom = z0 * (1 + path.zoom * (path.zoomOut ? 1 - push : push));
    const angle = rad(path.rotateDeg) * wave(i, frameCount, path.rotatePhase);
    const width = bw / zoom;
    const height = bh / zoom;
    const { ex, ey } = extents(width, height, angle);
    // The floor zoom already keeps the window inside; the clamp only guards against rounding.
    const cx = clampCentre(src.width / 2 + path.panX * bw * wave(i, frameCount, path.panXPhase), ex, src.width);
    const cy = clampCentre(src.height / 2 + path.panY * bh * wave(i, frameCount, path.panYPhase), ey, src.height);
    return { cx, cy, width, height, angle };
  });
}

function clampCentre(c: number, half: number, size: number): number {
  return half >= size / 2 ? size / 2 : Math.min(size - half, Math.max(half, c));
}

/** The four corners of a pose's window, in source pixels. */
export function poseCorners(p: CameraPose): [number, number][] {
  const c = Math.cos(p.angle);
  const s = Math.sin(p.angle);
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([u, v]) => [p.cx + (c * u * p.width - s * v * p.height) / 2, p.cy + (s * u * p.width + c * v * p.height) / 2]);
}

/** The integer rectangle of the source every pose looks into, plus a pixel for the bilinear taps. */
function visibleRect(poses: readonly CameraPose[], src: { width: number; height: number }) {
  const pts = poses.flatMap(poseCorners);
  const left = Math.max(0, Math.floor(Math.min(...pts.map((p) => p[0]))) - 1);
  const top = Math.max(0, Math.floor(Math.min(...pts.map((p) => p[1]))) - 1);
  const right = Math.min(src.width, Math.ceil(Math.max(...pts.map((p) => p[0]))) + 1);
  const bottom = Math.min(src.height, Math.ceil(Math.max(...pts.map((p) => p[1]))) + 1);
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** A source region, resampled and premultiplied, ready for bilinear sampling. */
interface SourcePlane {
  px: Float32Array;
  /** Every pixel has alpha 255: frames need no alpha taps nor un-premultiplying. */
  opaque: boolean;
  width: number;
  height: number;
  /** Source px -> plane px, per axis; and the source position of the plane's origin. */
  sx: number;
  sy: number;
  left: number;
  top: number;
}

/**
 * Crops the source to what the camera ever sees and, when it is larger than needed, shrinks it (lanczos,
 * with sharp) so that at the closest zoom one plane pixel is one output pixel: per-frame bilinear sampling
 * then does not alias. A small source is not enlarged here: libvips upsizes with a half-pixel shift (centre
 * convention, libvips#4841), which would misplace the picture; the bilinear sampler enlarges it exactly.
 * Premultiplied so transparent pixels do not bleed their colour into their neighbours.
 */
async function preparePlane(still: RgbaStill, poses: readonly CameraPose[], out: { width: number; height: number }): Promise<SourcePlane> {
  const rect = visibleRect(poses, still);
  const scale = Math.min(1, Math.max(...poses.map((p) => out.width / p.width)));
  const width = Math.max(1, Math.round(rect.width * scale));
  const height = Math.max(1, Math.round(rect.height * scale));
  let img = sharp(still.rgba, { raw: { width: still.width, height: still.height, channels: 4 } }).extract(rect);
  if (width !== rect.width || height !== rect.height) img = img.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  const raw = await img.ensureAlpha().raw().toBuffer();
  const px = new Float32Array(raw.length);
  let opaque = true;
  for (let i = 0; i < raw.length; i += 4) {
    const a = raw[i + 3];
    if (a !== 255) opaque = false;
    const k = a / 255;
    px[i] = raw[i] * k;
    px[i + 1] = raw[i + 1] * k;
    px[i + 2] = raw[i + 2] * k;
    px[i + 3] = a;
  }
  return { px, opaque, width, height, sx: width / rect.width, sy: height / rect.height, left: rect.left, top: rect.top };
}

// Aliased once: a global `Math.*` lookup per pixel is ~100x slower where the global object is a sandbox (jest's vm).
const floor = Math.floor;
const clampIndex = (i: number, n: number) => (i < 0 ? 0 : i >= n ? n - 1 : i);

/**
 * Renders one frame: each output pixel centre is mapped through the pose (fractional, so slow moves do not
 * step from pixel to pixel) and sampled bilinearly. Points outside the plane come out transparent, so a
 * window leaving the picture would show, never be hidden by smeared edges.
 */
function renderFrame(plane: SourcePlane, pose: CameraPose, out: { width: number; height: number }): Buffer {
  const { px, opaque, width: pw, height: ph } = plane;
  const c = Math.cos(pose.angle);
  const s = Math.sin(pose.angle);
  // Plane position of output pixel (X, Y)'s centre = o + X * u + Y * v.
  const kx = pose.width / out.width;
  const ky = pose.height / out.height;
  const ux = c * kx * plane.sx;
  const uy = s * kx * plane.sy;
  const vx = -s * ky * plane.sx;
  const vy = c * ky * plane.sy;
  const hx = (0.5 - out.width / 2) * kx;
  const hy = (0.5 - out.height / 2) * ky;
  const ox = (pose.cx + c * hx - s * hy - plane.left) * plane.sx;
  const oy = (pose.cy + s * hx + c * hy - plane.top) * plane.sy;
  const buf = Buffer.alloc(out.width * out.height * 4);
  const dst = new Uint8ClampedArray(buf.buffer, buf.byteOffset, buf.length);
  const eps = 1e-6;
  let d = 0;
  for (let Y = 0; Y < out.height; Y++) {
    for (let X = 0; X < out.width; X++, d += 4) {
      const x = ox + X * ux + Y * vx;
      const y = oy + X * uy + Y * vy;
      if (x < -eps || y < -eps || x > pw + eps || y > ph + eps) continue;
      // Pixel centres sit at i + 0.5; taps past the edge repeat the edge pixel.
      const fx = x - 0.5;
      const fy = y - 0.5;
      const x0 = floor(fx);
      const y0 = floor(fy);
      const tx = fx - x0;
      const ty = fy - y0;
      const xa = clampIndex(x0, pw) * 4;
      const xb = clampIndex(x0 + 1, pw) * 4;
      const ra = clampIndex(y0, ph) * pw * 4;
      const rb = clampIndex(y0 + 1, ph) * pw * 4;
      const w00 = (1 - tx) * (1 - ty);
      const w10 = tx * (1 - ty);
      const w01 = (1 - tx) * ty;
      const w11 = tx * ty;
      const p00 = ra + xa;
      const p10 = ra + xb;
      const p01 = rb + xa;
      const p11 = rb + xb;
      if (opaque) {
        // All taps opaque: the weights sum to 1 and the colour needs no un-premultiplying.
        dst[d] = w00 * px[p00] + w10 * px[p10] + w01 * px[p01] + w11 * px[p11];
        dst[d + 1] = w00 * px[p00 + 1] + w10 * px[p10 + 1] + w01 * px[p01 + 1] + w11 * px[p11 + 1];
        dst[d + 2] = w00 * px[p00 + 2] + w10 * px[p10 + 2] + w01 * px[p01 + 2] + w11 * px[p11 + 2];
        dst[d + 3] = 255;
        continue;
      }
      const a = w00 * px[ra + xa + 3] + w10 * px[ra + xb + 3] + w01 * px[rb + xa + 3] + w11 * px[rb + xb + 3];
      if (a <= 0) continue;
      const un = 255 / a;
      for (let ch = 0; ch < 3; ch++) {
        dst[d + ch] = (w00 * px[ra + xa + ch] + w10 * px[ra + xb + ch] + w01 * px[rb + xa + ch] + w11 * px[rb + xb + ch]) * un;
      }
      dst[d + 3] = a;
    }
  }
  return buf;
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('motion: cancelled');
}

/** Loop timing: frame count, fps, and the options clamped to their limits. */
function loopTiming(opts: ProceduralMotionOptions): { frameCount: number; fps: number } {
  const or = (v: number | undefined, fallback: number) => (v !== undefined && Number.isFinite(v) ? v : fallback);
  const fps = Math.min(30, Math.max(1, or(opts.fps, DEFAULT_MOTION_FPS)));
  const duration = Math.min(MAX_MOTION_DURATION_S, Math.max(1 / fps, or(opts.durationS, DEFAULT_MOTION_DURATION_S)));
  return { frameCount: Math.max(1, Math.round(duration * fps)), fps };
}

/**
 * Renders camera-style motion from ONE still picture (any size; its alpha is kept) as a seamless loop of
 * `width` x `height` frames: frame i at t = i / fps, each shown 1 / fps s. The camera path (preset, adjusted by
 * the keywords of `customMotion`) is periodic over the loop, which is exactly round(duration * fps) frames
 * long, so the last frame flows into the first. The window never leaves the picture: no border appears.
 *
 * @example
 * const seq = await renderProceduralMotion(still, { preset: resolveMotionStyle('drift'), customMotion: 'slowly to the left', width: 480, height: 360 });
 * seq.frames.length // -> 48 (4 s at 12 fps)
 */
export async function renderProceduralMotion(still: RgbaStill, opts: ProceduralMotionOptions): Promise<FrameSequence> {
  checkAborted(opts.signal);
  if (still.rgba.length !== still.width * still.height * 4) throw new Error(`motion: the still is not ${still.width}x${still.height} RGBA`);
  const out = { width: Math.round(opts.width), height: Math.round(opts.height) };
  if (!(out.width >= 1 && out.height >= 1)) throw new Error(`motion: invalid frame size ${opts.width}x${opts.height}`);
  const { frameCount, fps } = loopTiming(opts);
  const path = applyMotionHints(opts.preset.camera, promptHints(opts.customMotion ?? ''));
  const poses = cameraPoses(path, still, out, frameCount);
  const plane = await preparePlane(still, poses, out);
  const frames: RawFrame[] = [];
  for (const pose of poses) {
    checkAborted(opts.signal);
    frames.push({ rgba: renderFrame(plane, pose, out), duration: 1 / fps });
    opts.onProgress?.(frames.length / frameCount);
    // Let other work (and an abort) in between frames: a long loop is seconds of CPU.
    await new Promise((resolve) => setImmediate(resolve));
  }
  checkAborted(opts.signal);
  return { ...out, frames, alpha: classifyAlpha(frames) };
}
