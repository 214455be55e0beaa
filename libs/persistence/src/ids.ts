import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Unguessable id: prefix + `_` + 24 base32 characters (120 bits), e.g. `api_…`, `emb_…`, `usr_…`. */
export function randomId(prefix: string): string {
  let s = '';
  for (const b of randomBytes(24)) s += BASE32[b & 31];
  return `${prefix}_${s}`;
}
