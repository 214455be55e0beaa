import { randomBytes, webcrypto } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey, contentTypeFor, type ObjectStat, spoolToFile, type StoragePort, type StoredObject } from './storage.port';

/** A write in progress: `<final name>.<pid>.<ms>[-<hex>].tmp` (the older form had no random part). */
const TMP_FILE = /\.\d+\.\d+(?:-[0-9a-f]+)?\.tmp$/;

/** Next to `file`, unique: the random part keeps two writes of one key in the same millisecond apart. */
const tmpName = (file: string) => `${file}.${process.pid}.${Date.now()}-${randomBytes(4).toString('hex')}.tmp`;

/** Cleanup after a failed write; its own failure must not hide the write's error. */
const removeQuietly = (file: string) => rm(file, { force: true }).catch(() => undefined);

/**
 * Write-then-rename: readers never see a half-written file, and a replay just replaces it. On failure the
 * temporary file goes too, so a full disk does not also collect one partial file per retry.
 */
async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const tmp = tmpName(file);
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (err) {
    await removeQuietly(tmp);
    throw err;
  }
}

/**
 * Files under a root folder, served by the API at `<publicBaseUrl>/files/<key>`.
 * The ETag is kept in a sidecar file so serving never re-hashes.
 */
export class LocalStorageAdapter implements StoragePort {
  readonly driver = 'local';

  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string,
  ) {}

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    // Hashed on the thread pool (WebCrypto), not the event loop, while the bytes are written: a model's
    // megabytes would otherwise hold every other request and job of the process for milliseconds.
    const write = () =>
      writeAtomic(file, body).catch(async (err: NodeJS.ErrnoException) => {
        // A delete of the folder's last other file removed it between the mkdir and the write: once more.
        if (err.code !== 'ENOENT') throw err;
        await mkdir(dirname(file), { recursive: true });
        await writeAtomic(file, body);
      });
    const [digest] = await Promise.all([webcrypto.subtle.digest('SHA-256', body), write()]);
    const etag = `"${Buffer.from(digest).toString('base64url').slice(0, 32)}"`;
    await this.writeMeta(file, etag, contentType);
    return { key, size: body.length, contentType, etag };
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = tmpName(file);
    let spooled: { size: number; digest: Buffer };
    try {
      spooled = await spoolToFile(body, tmp);
      await rename(tmp, file);
    } catch (err) {
      // The source's own error (e.g. a size cap's UserError) propagates unchanged: callers classify it.
      await removeQuietly(tmp);
      throw err;
    }
    const etag = `"${spooled.digest.toString('base64url').slice(0, 32)}"`;
    await this.writeMeta(file, etag, contentType);
    return { key, size: spooled.size, contentType, etag };
  }

  private async writeMeta(file: string, etag: string, contentType: string): Promise<void> {
    try {
      await writeAtomic(`${file}.meta`, JSON.stringify({ etag, contentType }));
    } catch (err) {
      // A previous version's sidecar would give the new bytes its ETag; without one, stat() falls back to size+mtime.
      await removeQuietly(`${file}.meta`);
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
    await this.removeEmptyFolders(dirname(file));
  }

  /**
   * Removes `dir` and then each parent while it is empty, never the root: a deleted or replaced job leaves no
   * `models/<id>/` behind (a key's folders exist only for its files). `rmdir` refuses a folder that is not
   * empty, so a file written meanwhile stops the walk; one already removed by a concurrent delete too.
   */
  private async removeEmptyFolders(dir: string): Promise<void> {
    const root = resolve(this.root);
    for (let d = resolve(dir); d.startsWith(root + sep); d = dirname(d)) {
      try {
        await rmdir(d);
      } catch {
        return;
      }
    }
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // mkdir passes on a full or read-only disk; only a real write shows that models and uploads can be stored.
    // The name starts with a dot, so it can never be a key; a probe left by a crash is swept like a stale tmp.
    const probe = tmpName(join(this.root, '.ready-probe'));
    try {
      await writeFile(probe, 'ok');
    } catch (err) {
      await removeQuietly(probe);
      throw err;
    }
    await rm(probe, { force: true });
  }

  /**
   * Removes temporary files older than `maxAgeMs` that a crashed or killed process left behind (a failed write
   * removes its own). Younger ones may belong to a write still running in another process on the same root.
   * Returns how many were removed.
   */
  async removeStaleTemps(maxAgeMs = 3_600_000): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.root, { recursive: true });
    } catch {
      return 0; // no root yet: nothing was ever written
    }
    const before = Date.now() - maxAgeMs;
    let removed = 0;
    for (const name of names.filter((n) => TMP_FILE.test(n))) {
      const file = join(this.root, name);
      const s = await stat(file).catch(() => null);
      if (
        s?.isFile() &&
        s.mtimeMs < before &&
        (await rm(file, { force: true }).then(
          () => true,
          () => false,
        ))
      )
        removed++;
    }
    return removed;
  }
}
