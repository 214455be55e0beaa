import { setPriority } from 'node:os';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { PipelineError } from '@app/pipeline';
import { createStorage, type StoragePort } from '@app/storage';
import { buildGalleryWall } from './wall-model';
import { loadWallPictures, wallPictureFromModel } from './wall-sources';
import type { WallBuildReply, WallBuildRequest, WallBuildThreadData } from './wall-build-pool';

/**
 * A wall is background work for the process that asked for it (the API: a visitor's wall): on Linux this thread
 * runs at a lower priority (nice 10), so on a busy machine the scheduler gives the API's event loop its core first.
 * On a quiet machine it made no measurable difference (docs/benchmarks.md, "Visitors' walls under strangers"); it
 * matters when the cores are short, where the build otherwise competes with the event loop at equal priority.
 * Linux's nice is per thread (pid 0 is the calling thread); elsewhere it would lower the whole process, so it is
 * left alone there.
 */
const WALL_THREAD_NICE = 10;
if (process.platform === 'linux') {
  try {
    setPriority(0, WALL_THREAD_NICE);
  } catch {
    // Not allowed here (a sandbox without setpriority): the build still runs, at the process's priority.
  }
}

/**
 * The thread side of {@link WallBuildPool}: builds one wall at a time from the pictures (or the pictures' stored
 * models: their textures are taken out here) the main thread read from storage, or from the models it reads
 * itself with a storage of its own, and answers the three file bodies (moved, not copied). No database.
 * Errors go back as data (a PipelineError keeps its kind, code and param) so the main thread can throw the same.
 */
const bytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** This thread's own storage for requests that name stored models (made on the first; the process's instance sweeps temps). */
let storage: StoragePort | undefined;
function threadStorage(): StoragePort {
  const settings = (workerData as WallBuildThreadData | undefined)?.storage;
  if (!settings) throw new Error('wall build thread: started without storage settings, asked to read stored models');
  return (storage ??= createStorage(settings, { sweepTemps: false }));
}
/** A body in an ArrayBuffer of its own, so it can be transferred whole. */
const own = (b: Buffer) => new Uint8Array(b);

parentPort!.on('message', (req: WallBuildRequest) => {
  void (async () => {
    try {
      const pictures =
        'refs' in req
          ? await loadWallPictures(threadStorage(), req.refs, req.itemsParam)
          : 'models' in req
            ? await Promise.all(req.models.map((m) => wallPictureFromModel({ ...m, glb: bytes(m.glb) })))
            : req.pictures.map((p) => ({ ...p, texture: { ...p.texture, image: bytes(p.texture.image) } }));
      const wall = await buildGalleryWall(pictures, req.arrange);
      const glb = own(wall.bodies.glb);
      const usdz = own(wall.bodies.usdz);
      const image = own(wall.bodies.poster.image);
      const reply: WallBuildReply = {
        id: req.id,
        ok: true,
        threadId,
        bodies: { glb, usdz, poster: { image, ext: wall.bodies.poster.ext, mime: wall.bodies.poster.mime } },
      };
      parentPort!.postMessage(reply, [glb.buffer, usdz.buffer, image.buffer]);
    } catch (e) {
      const err = e as Error;
      const reply: WallBuildReply = {
        id: req.id,
        ok: false,
        error:
          e instanceof PipelineError
            ? { kind: e.kind, code: e.code, message: e.message, ...(e.param ? { param: e.param } : {}) }
            : { kind: 'bug', code: 'internal_error', message: err?.stack ?? String(e) },
      };
      parentPort!.postMessage(reply);
    }
  })();
});
