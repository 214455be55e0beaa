import type { Readable } from 'node:stream';

/** Reads a stream to the end. */
export async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** Settles with the error a promise (or a function that throws synchronously) rejects with, or fails. */
export async function errorOf(run: () => unknown): Promise<Error | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

/** A short random id, for keys that do not collide between runs on a shared backend. */
export function runId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Deep-frozen copy of plain data. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
