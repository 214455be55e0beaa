import { buffer } from 'node:stream/consumers';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { FetchedSource } from './fetch-source';
import { glbPictureTexture, isGlb } from './glb-texture';
import { sniffType } from './sniff';

/**
 * Reads an uploaded source (multipart upload already streamed to storage) back for conversion, with the
 * same byte cap and magic-byte check as a URL fetch. A model we stored (`models/<job>/model.glb`, what a
 * showcase item's rebuild names) gives the picture's texture inside it, as it was encoded: the rebuild
 * starts from the item's texture, never from its source again.
 */
export async function readUpload(storage: StoragePort, key: string, maxBytes: number): Promise<FetchedSource> {
  const stat = await storage.stat(key).catch((e: Error) => {
    throw new OperationalError('storage_unavailable', `fetch: cannot read the upload: ${e.message}`);
  });
  if (!stat) throw new UserError('upload_missing', 'fetch: the uploaded file is no longer stored');
  const model = key.startsWith('models/');
  // A model holds the texture and a little geometry: its cap is the texture's.
  if (stat.size > maxBytes * (model ? 2 : 1)) throw new UserError('source_too_large', `fetch: the upload is larger than ${maxBytes} bytes`);
  let bytes: Buffer = await buffer(await storage.read(key));
  if (model && isGlb(bytes)) {
    const texture = glbPictureTexture(bytes);
    if (!texture) throw new UserError('unsupported_type', 'fetch: the stored model holds no picture texture to rebuild from');
    bytes = texture;
  }
  const type = sniffType(bytes);
  if (!type || type.kind !== 'image') throw new UserError('unsupported_type', 'fetch: the upload is not a supported image');
  return { bytes, type, url: `upload:${key}` };
}
