import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort, StorageSettings } from '@app/storage';
import type { ModelFileBodies } from '../publish/model-files';
import type { WallPictureRef } from '../job-inputs/wall-job-input';
import type { ArrangeWallOptions } from './arrange-wall';
import type { WallPictureInput } from './wall-model';
import { readWallModels, type StoredWallModel } from './wall-sources';

/**
 * One build as it crosses to a thread, with the arrangement: the pictures as loaded (textures as bytes), the
 * pictures' stored models as read ({@link StoredWallModel}: the thread takes the textures out itself), or only
 * where the models are stored (the thread reads them with its own storage, {@link WallBuildThreadData}).
 */
export type WallBuildRequest = { id: number; arrange: ArrangeWallOptions } & (
  | { pictures: (Omit<WallPictureInput, 'texture'> & { texture: Omit<WallPictureInput['texture'], 'image'> & { image: Uint8Array } })[] }
  | { models: { glb: Uint8Array; ref: WallPictureRef; at: string }[] }
  | { refs: WallPictureRef[]; itemsParam: string }
);

/** What a build thread is started with besides its entry's own data: the storage settings it reads models with. */
export interface WallBuildThreadData {
  storage?: StorageSettings;
}

/** A thread's answer: the three file bodies, or the error as data. */
export type WallBuildReply =
  | {
      id: number;
      ok: true;
      threadId: number;
      bodies: { glb: Uint8Array; usdz: Uint8Array; poster: { image: Uint8Array; ext: string; mime: string } };
    }
  | { id: number; ok: false; error: { kind: 'user' | 'operational' | 'bug'; code: string; message: string; param?: string } };

/** Where a thread starts: the compiled thread entry, or (tests on the sources) a bootstrap given its path in workerData. */
export interface WallBuildThread {
  filename: string;
  workerData?: unknown;
}

/** The compiled thread entry beside this file (dist/…/wall-build.thread.js). */
export const WALL_BUILD_THREAD: WallBuildThread = { filename: join(__dirname, 'wall-build.thread.js') };

interface Slot {
  worker: Worker;
  pending?: { id: number; resolve: (r: WallBuildReply) => void; reject: (e: Error) => void };
}

/**
 * Builds gallery walls ({@link buildGalleryWall}) in worker threads, so the seconds of CPU a 12-picture wall
 * takes (texture packing, GLB and USDZ writing) never hold the caller's event loop: the API serves its other
 * requests meanwhile. The caller reads the pictures from storage ({@link loadWallPictures}) and stores the
 * bodies; the thread only computes. One build per thread at a time; at most `size()` threads, started on
 * demand and kept (idle ones do not keep the process alive); a caller bounds how many builds it asks at once
 * (BuildSlots in the API), more wait here for a thread. A thread that dies fails its build and is replaced.
 *
 * @example
 * const pool = new WallBuildPool(() => 2);
 * const { bodies } = await pool.build(await loadWallPictures(storage, refs), { arrangement: 'grid' });
 */
export class WallBuildPool {
  private readonly idle: Slot[] = [];
  private readonly busy = new Set<Slot>();
  private readonly waiting: ((s: Slot) => void)[] = [];
  private nextId = 1;
  private closed = false;

  /**
   * @param storage where the threads read the pictures' models themselves ({@link buildFromStorage}): the
   *   built-in backends (local, S3), made again in each thread from the same settings. A custom storage module is
   *   not made again in a thread (its instance may hold what only the caller's has): its models are read by the
   *   caller and moved.
   */
  constructor(
    private readonly size: () => number,
    private readonly thread: WallBuildThread = WALL_BUILD_THREAD,
    storage?: StorageSettings,
  ) {
    // Only what making the storage reads crosses to the threads (not the rest of a whole configuration given).
    this.threadStorage =
      storage && storage.storage.driver !== 'module'
        ? { storage: storage.storage, publicBaseUrl: storage.publicBaseUrl, dataDir: storage.dataDir }
        : undefined;
  }

  private readonly threadStorage: StorageSettings | undefined;

  /** Threads started now (idle and busy). */
  get threads(): number {
    return this.idle.length + this.busy.size;
  }

  /** Builds the wall in a thread; the errors buildGalleryWall throws (UserError, OperationalError) as it throws them. */
  async build(pictures: readonly WallPictureInput[], arrange: ArrangeWallOptions): Promise<{ bodies: ModelFileBodies; threadId: number }> {
    // Each texture in an ArrayBuffer of its own (a picture's texture is a slice of its GLB): moved, not cloned whole.
    const images = pictures.map((p) => new Uint8Array(p.texture.image));
    return this.send(
      (id) => ({ id, arrange, pictures: pictures.map((p, i) => ({ ...p, texture: { ...p.texture, image: images[i] } })) }),
      images.map((u) => u.buffer as ArrayBuffer),
    );
  }

  /**
   * Builds the wall from the pictures' stored models as read ({@link readWallModels}): each model's bytes are
   * moved to the thread, which takes the texture out and reads its size there. The caller's event loop then holds
   * no picture bytes at all: a visitor's 12-picture wall is ~20 MB the API's heap no longer allocates, copies and
   * collects (its major garbage collections were the tail of unrelated requests while strangers built walls).
   * The models are unusable here afterwards (their memory has moved).
   */
  async buildFromModels(
    models: readonly StoredWallModel[],
    arrange: ArrangeWallOptions,
  ): Promise<{ bodies: ModelFileBodies; threadId: number }> {
    // A buffer that does not own its whole ArrayBuffer (a slice of Node's pool) is copied: moving it would take its neighbours.
    const bytes = models.map(({ glb }) =>
      glb.byteOffset === 0 && glb.byteLength === glb.buffer.byteLength
        ? new Uint8Array(glb.buffer, 0, glb.byteLength)
        : new Uint8Array(glb),
    );
    return this.send(
      (id) => ({ id, arrange, models: models.map((m, i) => ({ glb: bytes[i], ref: m.ref, at: m.at })) }),
      bytes.map((u) => u.buffer as ArrayBuffer),
    );
  }

  /**
   * Builds the wall from the pictures' stored models ({@link WallPictureRef}), read in the build thread with its
   * own storage where the pool has built-in storage settings, else read here from `storage` and moved
   * ({@link buildFromModels}). Read in the thread, a visitor's 12-picture wall allocates none of its ~20 MB of
   * models in the caller's heap: in the API those reads (a read stream's chunks, then the whole model) were most of
   * the memory that made its main thread collect garbage (a full collection every ~0.5 s, 5-25 ms each, while
   * strangers built walls). The errors are readWallModels' (`item_missing` naming `itemsParam[i]`, storage
   * unavailable) and the build's.
   */
  async buildFromStorage(
    storage: StoragePort,
    refs: readonly WallPictureRef[],
    arrange: ArrangeWallOptions,
    itemsParam = 'items',
  ): Promise<{ bodies: ModelFileBodies; threadId: number }> {
    if (!this.threadStorage) return this.buildFromModels(await readWallModels(storage, refs, itemsParam), arrange);
    return this.send((id) => ({ id, arrange, refs: [...refs], itemsParam }), []);
  }

  private async send(
    request: (id: number) => WallBuildRequest,
    transfer: ArrayBuffer[],
  ): Promise<{ bodies: ModelFileBodies; threadId: number }> {
    const slot = await this.take();
    const id = this.nextId++;
    let reply: WallBuildReply;
    try {
      reply = await new Promise<WallBuildReply>((resolve, reject) => {
        slot.pending = { id, resolve, reject };
        slot.worker.postMessage(request(id), transfer);
      });
    } finally {
      slot.pending = undefined;
      this.give(slot);
    }
    if (!reply.ok) {
      const { kind, code, message, param } = reply.error;
      if (kind === 'user') throw new UserError(code, message, param ? { param } : undefined);
      if (kind === 'operational') throw new OperationalError(code, message, param ? { param } : undefined);
      throw new Error(`wall build thread: ${message}`);
    }
    const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    const b = reply.bodies;
    return {
      threadId: reply.threadId,
      bodies: { glb: buf(b.glb), usdz: buf(b.usdz), poster: { ...b.poster, image: buf(b.poster.image) } },
    };
  }

  /** Stops every thread (a build in flight fails). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  private async take(): Promise<Slot> {
    if (this.closed) throw new Error('wall build pool: closed');
    const ready = this.idle.pop() ?? (this.threads < Math.max(1, this.size()) ? this.start() : undefined);
    const slot = ready ?? (await new Promise<Slot>((resolve) => this.waiting.push(resolve)));
    this.busy.add(slot);
    slot.worker.ref();
    return slot;
  }

  private give(slot: Slot): void {
    this.busy.delete(slot);
    if (!this.alive(slot)) {
      // Its replacement, for whoever waits.
      const next = this.waiting.shift();
      if (next && !this.closed) next(this.start());
      return;
    }
    const next = this.waiting.shift();
    if (next) return next(slot);
    slot.worker.unref();
    this.idle.push(slot);
  }

  private readonly dead = new WeakSet<Slot>();
  private alive(slot: Slot): boolean {
    return !this.dead.has(slot) && !this.closed;
  }

  private start(): Slot {
    const data: WallBuildThreadData = { storage: this.threadStorage };
    const worker = new Worker(this.thread.filename, {
      workerData: { ...(this.thread.workerData as object | undefined), ...data },
    });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (r: WallBuildReply) => {
      if (slot.pending?.id === r.id) slot.pending.resolve(r);
    });
    const fail = (e: Error) => {
      this.dead.add(slot);
      const i = this.idle.indexOf(slot);
      if (i >= 0) this.idle.splice(i, 1);
      slot.pending?.reject(new OperationalError('wall_build_failed', `wall: the build thread stopped: ${e.message}`));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return slot;
  }
}
