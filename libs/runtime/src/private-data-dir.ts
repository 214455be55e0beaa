import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes what this process writes private to its user: umask 077 (new files 0600, folders 0700),
 * DATA_DIR itself 0700, and the embedded database's files tightened once (earlier versions left them
 * 0666 and the WAL holds webhook secrets). Call once at start, before anything is written.
 *
 * @example
 * restrictDataDir(config.dataDir);
 */
export function restrictDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const db = join(dataDir, 'pglite');
  if (existsSync(db)) {
    if ((statSync(db).mode & 0o077) !== 0) chmodSync(db, 0o700);
    tighten(db);
  }
}

function tighten(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) {
      if ((st.mode & 0o077) !== 0) chmodSync(path, 0o700);
      tighten(path);
    } else if ((st.mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
    }
  }
}
