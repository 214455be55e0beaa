import sharp from 'sharp';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { glbPictureTexture } from '../fetch/glb-texture';
import type { WallPictureRef } from '../job-inputs/wall-job-input';
import type { WallPictureInput } from './wall-model';

const mimeOf = (b: Buffer): 'image/jpeg' | 'image/png' | null =>
  b[0] === 0xff && b[1] === 0xd8 ? 'image/jpeg' : b.subarray(1, 4).toString('latin1') === 'PNG' ? 'image/png' : null;

/**
 * A stored model's bytes in one buffer of exactly its size, with an ArrayBuffer of its own (so it can be moved
 * to a thread whole): each chunk copied once, no concatenation.
 */
async function readSized(stream: AsyncIterable<Buffer | string>, size: number): Promise<Buffer> {
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  const rest: Buffer[] = [];
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : c;
    if (at + b.length <= size) at += b.copy(out, at);
    else rest.push(b);
  }
  // The file changed size between stat and read: what was read, whole.
  if (rest.length || at !== size) return Buffer.concat([out.subarray(0, at), ...rest]);
  return out;
}

/** A picture's stored model, read whole, for {@link wallPictureFromModel} (here, or in a build thread). */
export interface StoredWallModel {
  glb: Buffer;
  ref: WallPictureRef;
  /** How the picture is named in errors (`items[2]`). */
  at: string;
}

/**
 * Reads each picture's stored GLB (one buffer each, of its size). A model that is gone (the item was deleted) is
 * a UserError naming `items[i]`; storage that cannot be read is operational (retried).
 */
export async function readWallModels(
  storage: StoragePort,
  refs: readonly WallPictureRef[],
  itemsParam = 'items',
): Promise<StoredWallModel[]> {
  return Promise.all(
    refs.map(async (ref, i) => {
      const at = `${itemsParam}[${i}]`;
      const stat = await storage.stat(ref.glb_key).catch((e: Error) => {
        throw new OperationalError('storage_unavailable', `wall: cannot read ${at}'s model: ${e.message}`);
      });
      if (!stat) throw new UserError('item_missing', `wall: ${at}: the picture's files are gone (was it deleted?)`, { param: at });
      const glb = await storage
        .read(ref.glb_key)
        .then((s) => readSized(s, stat.size))
        .catch((e: Error) => {
          throw new OperationalError('storage_unavailable', `wall: cannot read ${at}'s model: ${e.message}`);
        });
      return { glb, ref, at };
    }),
  );
}

/**
 * The picture in a stored model: its texture as the item was encoded (never decoded and encoded again here)
 * with its pixel size. The texture of an item with variants is the whole picture, so its size is the source's;
 * an older item's is its crop, which its spec's size matches. A model without a picture texture is a UserError.
 */
export async function wallPictureFromModel({ glb, ref, at }: StoredWallModel): Promise<WallPictureInput> {
  const image = glbPictureTexture(glb);
  const mime = image ? mimeOf(image) : null;
  if (!image || !mime) throw new UserError('unsupported_type', `wall: ${at}: its model holds no picture texture`, { param: at });
  const meta = await sharp(image).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return {
    texture: { image, mime, width, height, ...(ref.alpha ? { alpha: ref.alpha } : {}) },
    sourceWidth: width,
    sourceHeight: height,
    spec: ref.spec,
  };
}

/**
 * Each picture's texture out of its stored GLB, with its pixel size ({@link readWallModels}, then
 * {@link wallPictureFromModel} for each).
 *
 * @example
 * const pictures = await loadWallPictures(storage, [{ glb_key: 'models/v2_a/model.glb', spec: { width_inches: 24, height_inches: 18 } }, …]);
 * await buildGalleryWall(pictures, { arrangement: 'row' });
 */
export async function loadWallPictures(
  storage: StoragePort,
  refs: readonly WallPictureRef[],
  itemsParam = 'items',
): Promise<WallPictureInput[]> {
  return Promise.all((await readWallModels(storage, refs, itemsParam)).map(wallPictureFromModel));
}
