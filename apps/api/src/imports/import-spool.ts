import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CheckedRow } from './import-rows';

/**
 * The checked rows of an import between the upload and the background work, one JSON line each, in a file
 * under DATA_DIR/tmp/imports: the upload is read once, row by row, and the rows are read back the same
 * way, so neither the file nor its parsed rows are ever held in memory whole. Deleted when the import ends;
 * the ones a stopped process left behind are deleted at the next start (see ImportRunner).
 */
export class ImportSpool {
  private constructor(
    readonly path: string,
    private readonly out: WriteStream,
  ) {}

  static dir(dataDir: string): string {
    return join(dataDir, 'tmp', 'imports');
  }

  static async create(dataDir: string, importId: string): Promise<ImportSpool> {
    const dir = ImportSpool.dir(dataDir);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${importId}.ndjson`);
    const out = createWriteStream(path, { mode: 0o600 });
    await once(out, 'open');
    return new ImportSpool(path, out);
  }

  /** Appends one row, waiting while the file's buffer is full. */
  async write(row: CheckedRow): Promise<void> {
    if (!this.out.write(`${JSON.stringify(row)}\n`)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    if (this.out.closed) return;
    await new Promise<void>((ok, no) => this.out.end((e?: Error | null) => (e ? no(e) : ok())));
  }

  /** Closes and deletes the file (a refused upload). */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }

  /** The rows of a spool file, in order, one line at a time. */
  static async *read(path: string): AsyncGenerator<CheckedRow, void, undefined> {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    try {
      for await (const line of lines) if (line) yield JSON.parse(line) as CheckedRow;
    } finally {
      lines.close();
    }
  }

  /** The imports that have a spool file. */
  static async ids(dataDir: string): Promise<string[]> {
    const names = await readdir(ImportSpool.dir(dataDir)).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.ndjson')).map((n) => n.slice(0, -'.ndjson'.length));
  }

  static async remove(dataDir: string, importId: string): Promise<void> {
    await rm(join(ImportSpool.dir(dataDir), `${importId}.ndjson`), { force: true });
  }
}
