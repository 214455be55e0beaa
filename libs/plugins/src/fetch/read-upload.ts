import { buffer } from 'node:stream/consumers';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { FetchedSource } from './fetch-source';
import { sniffType } from './sniff';

/**
 * Reads an uploaded source (multipart upload already streamed to storage) back for conversion, with the
 * same byte cap and magic-byte check as a URL fetch.
 */
export async function readUpload(storage: StoragePort, key: string, maxBytes: number): Promise<FetchedSource> {
  const stat = await storage.stat(key).catch((e: Error) => {
    throw new OperationalError('storage_unavailable', `fetch: cannot read the upload: ${e.message}`);
  });
  if (!stat) throw new UserError('upload_missing', 'fetch: the uploaded file is no longer stored');
  if (stat.size > maxBytes) throw new UserError('source_too_large', `fetch: the upload is larger than ${maxBytes} bytes`);
  const bytes = await buffer(await storage.read(key));
  const type = sniffType(bytes);
  if (!type || type.kind !== 'image') throw new UserError('unsupported_type', 'fetch: the upload is not a supported image');
  return { bytes, type, url: `upload:${key}` };
}
