import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { BackgroundRemover, type BackgroundRemoverOptions } from './background-remover';

/**
 * What the animated-AR stages call to cut a frame out: the inline {@link BackgroundRemover} or the
 * {@link BackgroundRemoverPool} of worker threads.
 */
export interface BackgroundRemoverPort {
  /** The RGBA frame with its alpha multiplied by the subject mask (a new buffer). */
  cutOut(rgba: Buffer, width: number, height: number): Promise<Buffer>;
  /** The subject mask of an RGBA frame: one byte per pixel, 255 = subject. */
  mask(rgba: Buffer, width: number, height: number): Promise<Buffer>;
  /** Starts what the first frame of `width` x `height` would wait for (worker, model, session); see {@link BackgroundRemover.warm}. */
  warm?(width?: number, height?: number): Promise<void>;
  /** Waits for queued calls, then frees the sessions (and workers). */
  close(): Promise<void>;
}

export interface BackgroundRemoverPoolOptions extends BackgroundRemoverOptions {
  /** Worker processes, each with its own remover (and ONNX session, `threads` intra-op threads each). Default 1. */
  workers?: number;
}

/** Messages between the pool and a worker (see background-remover.worker.ts). */
export type WorkerRequest =
  { id: number; op: 'cutOut' | 'mask' | 'warm'; rgba: Uint8Array; width: number; height: number } | { id: number; op: 'close' };
export type WorkerReply = { id: number; rgba?: Uint8Array; error?: string };

interface Task {
  op: 'cutOut' | 'mask' | 'warm';
  rgba: Uint8Array;
  width: number;
  height: number;
  resolve: (b: Buffer) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: ChildProcess;
  task?: Task;
}

/**
 * Loads the worker script (argv[1]): the compiled .js next to this file, or, from ts sources (jest, the
 * bench run from sources), the .ts compiled on the fly by @swc/core, a dev dependency. The worker imports
 * only relative modules and packages, so no path aliases are needed there.
 */
const BOOTSTRAP = `
const file = process.argv[1];
if (file.endsWith('.ts')) {
  const fs = require('node:fs');
  const swc = require('@swc/core');
  require.extensions['.ts'] = (m, filename) => m._compile(swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename, swcrc: false, module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
  }).code, filename);
}
require(file);
`;

/**
 * Runs the cut-out (resize, ONNX inference, mask resize and apply) in worker processes, so the event loop
 * stays free while frames are processed: onnxruntime-node runs a session synchronously on its calling
 * thread. Processes, not worker threads: onnxruntime-node 1.17 (used until 1.30) registered once per
 * process (a second thread loading it failed with "Module did not self-register"), and a process still keeps
 * a crashed run and the model's memory apart from the service, and hands that memory back when it exits.
 * Workers start on the first call and live until {@link close}; a worker that dies fails its frame and is
 * replaced by the next call. Frames are queued and handed to the first free worker.
 *
 * @example
 * const pool = new BackgroundRemoverPool({ workers: 1, inferShortSide: 512, threads: 2 });
 * const cut = await pool.cutOut(rgba, 800, 600);
 * await pool.close();
 */
export class BackgroundRemoverPool implements BackgroundRemoverPort {
  private readonly size: number;
  private readonly options: BackgroundRemoverOptions;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private idle?: () => void;

  constructor(opts: BackgroundRemoverPoolOptions = {}) {
    const { workers = 1, ...options } = opts;
    if (!Number.isInteger(workers) || workers < 1)
      throw new RangeError(`background-removal: workers must be a positive integer, got ${workers}`);
    // Validates the options here, in the caller's thread, rather than in the first worker.
    new BackgroundRemover(options);
    this.size = workers;
    this.options = options;
  }

  /** Workers started so far. */
  get workerCount(): number {
    return this.slots.length;
  }

  cutOut(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    return this.submit('cutOut', rgba, width, height);
  }

  mask(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    return this.submit('mask', rgba, width, height);
  }

  /**
   * Starts a worker (when none is) and has it create the session for `width` x `height` frames, queued like
   * a frame: a cut-out requested while the source downloads finds the model loaded.
   *
   * @example
   * void pool.warm(); // the first frame's run no longer pays the worker start and the session creation
   */
  async warm(width = 1920, height = 1080): Promise<void> {
    await this.submit('warm', Buffer.alloc(0), width, height);
  }

  private submit(op: Task['op'], rgba: Buffer, width: number, height: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('background-removal: the remover is closed'));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ op, rgba, width, height, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Waits for queued and running frames, then lets each worker free its sessions and exit.
   *
   * @example
   * await pool.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.queue.length || this.slots.some((s) => s.task)) await new Promise<void>((r) => (this.idle = r));
    await Promise.all(this.slots.splice(0).map((s) => stopWorker(s.worker)));
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.task);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      ref(slot.worker, true);
      const msg: WorkerRequest = { id: this.nextId++, op: task.op, rgba: task.rgba, width: task.width, height: task.height };
      slot.worker.send(msg);
    }
    if (this.idle && !this.slots.some((s) => s.task)) this.idle();
  }

  private spawn(): Slot {
    const file = path.join(__dirname, `background-remover.worker${path.extname(__filename)}`);
    // Advanced serialization: frames travel as binary, not JSON. The options are argv[2], as JSON.
    const worker = spawn(process.execPath, ['-e', BOOTSTRAP, file, JSON.stringify(this.options)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const slot: Slot = { worker };
    this.slots.push(slot);
    worker.on('message', (reply: WorkerReply) => {
      const task = slot.task;
      slot.task = undefined;
      // Idle workers do not keep the process alive (a forgotten close() does not hang the exit).
      ref(worker, false);
      if (task) {
        if (reply.rgba) task.resolve(Buffer.from(reply.rgba.buffer, reply.rgba.byteOffset, reply.rgba.byteLength));
        else task.reject(new Error(reply.error ?? 'background-removal: the worker gave no frame'));
      }
      this.dispatch();
    });
    const lost = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      slot.task?.reject(new Error(`background-removal: the worker stopped (${err.message})`));
      slot.task = undefined;
      worker.kill();
      this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code, signal) => lost(new Error(`exit ${signal ?? code}`)));
    return slot;
  }
}

function ref(worker: ChildProcess, on: boolean): void {
  const channel = worker.channel as { ref(): void; unref(): void } | null | undefined;
  if (on) {
    worker.ref();
    channel?.ref();
  } else {
    worker.unref();
    channel?.unref();
  }
}

/** Asks a worker to free its sessions and exit; killed if it has not within 10 s. */
function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => worker.kill('SIGKILL'), 10_000);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    ref(worker, true);
    const msg: WorkerRequest = { id: 0, op: 'close' };
    if (worker.connected) worker.send(msg);
    else worker.kill();
  });
}
