import sharp from 'sharp';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { glbPictureTexture } from '../fetch/glb-texture';
import type { WallPictureRef } from '../job-inputs/wall-job-input';
import type { WallPictureInput } from './wall-model';

/**
 * A stream's bytes in one buffer, copied once (stream/consumers' `buffer` goes through a Blob and copies twice:
 * for the API building visitors' walls that is megabytes per picture its event loop allocates and collects).
 */
async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

const mimeOf = (b: Buffer): 'image/jpeg' | 'image/png' | null =>
  b[0] === 0xff && b[1] === 0xd8 ? 'image/jpeg' : b.subarray(1, 4).toString('latin1') === 'PNG' ? 'image/png' : null;

/**
 * Reads each picture's texture out of its stored GLB (as the item was encoded: never decoded and encoded
 * again here) with its pixel size. The texture of an item with variants is the whole picture, so its size
 * is the source's; an older item's is its crop, which its spec's size matches. A model that is gone (the
 * item was deleted) is a UserError naming `items[i]`; storage that cannot be read is operational (retried).
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
  return Promise.all(
    refs.map(async (ref, i) => {
      const at = `${itemsParam}[${i}]`;
      const stat = await storage.stat(ref.glb_key).catch((e: Error) => {
        throw new OperationalError('storage_unavailable', `wall: cannot read ${at}'s model: ${e.message}`);
      });
      if (!stat) throw new UserError('item_missing', `wall: ${at}: the picture's files are gone (was it deleted?)`, { param: at });
      const glb = await readAll(await storage.read(ref.glb_key)).catch((e: Error) => {
        throw new OperationalError('storage_unavailable', `wall: cannot read ${at}'s model: ${e.message}`);
      });
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
    }),
  );
}
