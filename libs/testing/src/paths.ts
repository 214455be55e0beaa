import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository's root folder. */
export const ROOT = resolve(__dirname, '../../..');

/** A fresh folder under the system's temporary directory. */
export function tempDir(prefix = 'ar-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
