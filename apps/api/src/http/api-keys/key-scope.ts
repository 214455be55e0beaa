import { SetMetadata } from '@nestjs/common';
import { KEY_SCOPES, type KeyScope } from '@app/persistence';

export { KEY_SCOPES, type KeyScope };

/**
 * What each scope may do, narrowest first: a wider scope may do everything a narrower one may.
 * `read_only` reads the account's own jobs, showcases and identity (the widget's attach-to-job mode);
 * `widget` adds free v1 conversions, from its allowed origins only (its key sits in public HTML);
 * `full` is everything (every key made before scopes existed).
 */
const RANK: Record<KeyScope, number> = { read_only: 0, widget: 1, full: 2 };

export const MIN_SCOPE = 'apiKeyMinScope';

/**
 * The narrowest key scope that may call a route (wider scopes may too). Read by {@link ApiKeyGuard}:
 * a route without it needs a `full` key, so a new route is closed to narrower keys unless marked.
 */
export const AllowScope = (scope: Exclude<KeyScope, 'full'>) => SetMetadata(MIN_SCOPE, scope);

export function scopeAllows(keyScope: KeyScope, needed: KeyScope): boolean {
  return RANK[keyScope] >= RANK[needed];
}

/**
 * An allowed origin as browsers send it in `Origin`: `scheme://host[:port]`, lower case, default port
 * dropped; null when the value is not an http(s) origin (a path, query, credentials or a wildcard).
 */
export function normaliseOrigin(value: string): string | null {
  if (!/^https?:\/\/[^/?#@*\s]+\/?$/i.test(value)) return null;
  try {
    const u = new URL(value);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

/** Whether a request's Origin header is one of the key's allowed origins (compared normalised). */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  const o = origin ? normaliseOrigin(origin) : null;
  return o !== null && allowed.includes(o);
}
