import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository's root folder. */
export const ROOT = resolve(__dirname, '../../..');

/** A fresh folder under the system's temporary directory. */
export function tempDir(prefix = 'ar-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * V8 flags for the Node processes the tests start (apps, the migrate command, the tinyusdz probe): WebAssembly on
 * V8's baseline compiler only (Liftoff), no optimising tier-up. PGlite is Postgres compiled to WebAssembly, and each
 * process that opens it tiered its hot functions up with TurboFan in background threads: on this 2-core machine 35 %
 * of an embedded API start's CPU (perf) and ~150,000 page faults for the compiler's memory, in a process that then
 * lives seconds. Measured, whole files on 2 cores: an embedded API start 5.9 -> 4.1 CPU-s; foundation e2e 57 -> 43
 * CPU-s, cancel 24 -> 17; the tinyusdz probe 0.55 -> 0.28. Only the engine's compiler tier changes, never what the
 * code computes; the service itself runs with V8's defaults. The Jest processes keep the defaults: they live the
 * whole run, and there it made no difference (persistence specs + two embedded e2e files in one process: 73-83
 * CPU-s either way).
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
