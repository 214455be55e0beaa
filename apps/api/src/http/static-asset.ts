import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (the nearest folder up with a package.json), from src/ and from dist/ alike. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/** A file the service serves itself (widget, viewer, console client files): read once, with an ETag of its bytes. */
export interface StaticAsset {
  body: Buffer;
  etag: string;
}

export function loadStaticAsset(path: string): StaticAsset {
  const body = readFileSync(path);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 24)}"` };
}
