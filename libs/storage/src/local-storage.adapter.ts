import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey, contentTypeFor, type ObjectStat, spoolToFile, type StoragePort, type StoredObject } from './storage.port';

/**
 * Files under a root folder, served by the API at `<publicBaseUrl>/files/<key>`.
 * The ETag is kept in a sidecar file so serving never re-hashes.
 */
export class LocalStorageAdapter implements StoragePort {
  readonly driver = 'local';

  constructor(private readonly root: string, private readonly publicBaseUrl: string) {}

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    // Write-then-rename: readers never see a half-written file, and a replay just replaces it.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, file);
    await writeFile(`${file}.meta`, JSON.stringify({ etag, contentType }));
    return { key, size: body.length, contentType, etag };
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      const { size, digest } = await spoolToFile(body, tmp);
      const etag = `"${digest.toString('base64url').slice(0, 32)}"`;
      await rename(tmp, file);
      await writeFile(`${file}.meta`, JSON.stringify({ etag, contentType }));
      return { key, size, contentType, etag };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectStat | null> {
    const file = this.path(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return null;
      let meta = { etag: `"${s.size.toString(16)}-${s.mtimeMs.toString(16)}"`, contentType: contentTypeFor(key) };
      try {
        meta = JSON.parse(await readFile(`${file}.meta`, 'utf8'));
      } catch {
        // Older object without a sidecar: size+mtime is still a fine validator.
      }
      return { key, size: s.size, lastModified: s.mtime, ...meta };
    } catch {
      return null;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : undefined);
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.publicBaseUrl}/files/${key}`;
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.meta`, { force: true });
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }
}
