import { SetMetadata } from '@nestjs/common';
import { KEY_SCOPES, type KeyScope } from '@app/persistence';

export { KEY_SCOPES, type KeyScope };

/**
 * What each scope may do. Scopes are not nested:
 * `full` is everything (every key made before scopes existed);
 * `read_only` reads the account's own jobs, showcases, identity and usage (the widget's attach-to-job mode);
 * `widget` sits in public HTML, so it may only convert (free v1 conversions, from its allowed origins) and
 * read the jobs it created itself: nothing else of the account (no lists, identity, usage or deliveries).
 */
export const ALLOWED_SCOPES = 'apiKeyAllowedScopes';

type NarrowScope = Exclude<KeyScope, 'full'>;

/**
 * The key scopes besides `full` that may call a route. Read by {@link ApiKeyGuard}: a route without it
 * needs a `full` key, so a new route is closed to narrower keys unless marked.
 */
export const AllowScope = (...scopes: [NarrowScope, ...NarrowScope[]]) => SetMetadata(ALLOWED_SCOPES, scopes);

/** Whether a key of `keyScope` may call a route open to `allowed` (a `full` key may call every route). */
export function scopeAllows(keyScope: KeyScope, allowed: readonly KeyScope[]): boolean {
  return keyScope === 'full' || allowed.includes(keyScope);
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
