import type { Readable } from 'node:stream';

/** What a write stored. */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  /** Strong validator (content hash) for HTTP caching, quoted: `"…"`. */
  etag: string;
}

export interface ObjectStat extends StoredObject {
  lastModified: Date;
}

/**
 * Where models and posters live. Keys are `/`-separated, without a leading slash.
 * Writes are idempotent (same key + same bytes = same object), so a replayed job is safe.
 *
 * Rules the service relies on (checked by `describeStorageContract`):
 * - keys are `/`-separated, no leading slash, no `..`, no empty segment: refuse anything else (`invalid key`);
 * - the same key written again replaces the object;
 * - `putStream` stores without buffering, and when the stream fails leaves nothing under the key and
 *   rejects with the stream's error;
 * - `read` honours byte ranges (inclusive end);
 * - `url(key)` is your CDN, or `${context.publicBaseUrl}/files/${key}` (the service then serves the object
 *   itself by calling `stat` and `read`).
 */
export interface StoragePort {
  readonly driver: string;
  put(key: string, body: Buffer, contentType: string): Promise<StoredObject>;
  /**
   * Stores a stream without holding it in memory (uploads). If the stream errors (e.g. a size cap),
   * nothing is left under the key.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  /** null when there is no object under the key. */
  stat(key: string): Promise<ObjectStat | null>;
  /** A readable stream of the object, optionally a byte range (inclusive end). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Public absolute URL of the object (the URL phones load). */
  url(key: string): string;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Readiness (/readyz): rejects when the backend cannot serve writes now. Local storage proves it by
   * writing and removing a probe file (a full disk or read-only mount fails it); remote backends check
   * reachability.
   */
  ping(): Promise<void>;
}

/** What a storage module's factory gets besides its own options. */
export interface StorageModuleContext {
  /** PUBLIC_BASE_URL: the API serves `/files/<key>` by reading the backend when `url()` points there. */
  publicBaseUrl: string;
  /** DATA_DIR, for backends that keep local state. */
  dataDir: string;
}

/**
 * What a storage module (CONFIG_FILE `storage.module`) exports as `createStorage` (or `default`).
 * Throw on bad options: the start stops with your message.
 */
export type CreateStorage<TOptions extends object = Record<string, unknown>> = (
  options: TOptions,
  context: StorageModuleContext,
) => StoragePort;
