import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sniffType, type SniffedType } from '@app/plugins';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';

export interface StoredUpload {
  key: string;
  filename: string;
  size: number;
  sha256: string;
  type: SniffedType;
}

/**
 * Streams one uploaded file into storage: the type is sniffed from the first bytes (the filename and
 * the part's Content-Type are not trusted), the bytes are hashed on the way (for Idempotency-Key), and
 * the whole file is never held in memory. The per-file cap is enforced by the multipart parser, which
 * errors the stream (-> 413); nothing is left in storage then.
 */
export async function storeUpload(storage: StoragePort, file: Readable, filename: string, keyBase: string): Promise<StoredUpload> {
  const it = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  while (head.length < 32) {
    const r = await it.next();
    if (r.done) break;
    head = Buffer.concat([head, r.value]);
  }
  const type = sniffType(head);
  if (!type || type.kind !== 'image') {
    file.resume();
    throw new ApiError(
      415,
      'unsupported_media_type',
      'unsupported_file_type',
      `files: "${filename.slice(0, 100)}" is not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIF)`,
      'files',
    );
  }
  const hash = createHash('sha256');
  // Hashed as it is read, in the generator itself: a Transform piped in between could error (a truncated
  // upload) before the storage attached its listeners, which crashed the process or left the request hanging.
  const rest = Readable.from(
    (async function* () {
      hash.update(head);
      yield head;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        hash.update(r.value);
        yield r.value;
      }
    })(),
  );
  const key = `${keyBase}.${type.ext}`;
  const stored = await storage.putStream(key, rest, type.mime);
  return { key, filename, size: stored.size, sha256: hash.digest('hex'), type };
}
