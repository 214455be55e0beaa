import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../http/static-asset';

/**
 * Where `npm run build` writes the room view's script: room-client/room.ts and the homography it imports,
 * bundled by esbuild into one minified IIFE (scripts/build.js). The page inlines it, allowed by its hash.
 */
export const BUILT_ROOM_SCRIPT = 'dist/room/room.js';

export interface RoomScript {
  source: string;
  /** The CSP source expression allowing exactly this script. */
  hash: string;
}

let cached: RoomScript | undefined;

/** The built script and its hash, read once; without a build the first room page says what is missing. */
export function roomScript(): RoomScript {
  if (cached) return cached;
  const path = join(repoRoot(), BUILT_ROOM_SCRIPT);
  let source: string;
  try {
    source = readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new Error(`The room view's ${BUILT_ROOM_SCRIPT} is missing: run \`npm run build\` (${(e as Error).message})`);
  }
  // Inlined in <script>: a closing tag inside would end it early.
  if (/<\/script/i.test(source)) throw new Error(`${BUILT_ROOM_SCRIPT} contains "</script": it cannot be inlined`);
  cached = { source, hash: `'sha256-${createHash('sha256').update(source).digest('base64')}'` };
  return cached;
}
