import { createHash, timingSafeEqual } from 'node:crypto';

/** Per-user keys: fixed live prefix + at least 32 random base62 characters (DESIGN §3). */
export const USER_KEY_PREFIX = 'sk_live_';

/** SHA-256 of a key, hex. Only this is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Short display form, safe to show and log: the prefix and the first 4 random characters. */
export function displayPrefix(key: string): string {
  return key.startsWith(USER_KEY_PREFIX) ? key.slice(0, USER_KEY_PREFIX.length + 4) : `${key.slice(0, 4)}…`;
}

/** Constant-time comparison of two keys (by their digests, so lengths leak nothing). */
export function keysEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
