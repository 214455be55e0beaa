import type { NewApiKey } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { KEY_SCOPES, type KeyScope, normaliseOrigin } from '../http/api-keys/key-scope';

/** At most this many origins per widget key: a handful of shop domains, not a wildcard by enumeration. */
export const MAX_ALLOWED_ORIGINS = 20;
const KNOWN = new Set(['name', 'scope', 'allowed_origins']);

export type KeyRequest = Required<Pick<NewApiKey, 'name' | 'scope' | 'allowedOrigins'>>;

/**
 * A key creation body `{name?, scope?, allowed_origins?}` (all optional: an empty body makes a `full` key,
 * as before scopes). `allowed_origins` is required for a `widget` key and refused for the others, where it
 * would suggest a protection that is not applied. Throws a 400 naming the parameter.
 */
export function parseKeyRequest(body: unknown): KeyRequest {
  const b = body ?? {};
  if (typeof b !== 'object' || Array.isArray(b))
    throw new ApiError(400, 'invalid_request_error', 'invalid_body', 'the body must be a JSON object {name, scope, allowed_origins}');
  const o = b as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !KNOWN.has(k));
  if (unknown) throw ApiError.invalid(unknown.slice(0, 60), `${unknown.slice(0, 60)}: unknown parameter`, 'parameter_unknown');
  if (o.name !== undefined && o.name !== null && (typeof o.name !== 'string' || o.name.length > 100))
    throw ApiError.invalid('name', 'name: a string of at most 100 characters');
  const scope = o.scope ?? 'full';
  if (typeof scope !== 'string' || !(KEY_SCOPES as readonly string[]).includes(scope))
    throw ApiError.invalid('scope', `scope: one of ${KEY_SCOPES.join(', ')}`);
  const origins = o.allowed_origins ?? [];
  if (!Array.isArray(origins))
    throw ApiError.invalid('allowed_origins', 'allowed_origins: an array of origins like https://shop.example.com');
  if (scope !== 'widget' && origins.length)
    throw ApiError.invalid('allowed_origins', 'allowed_origins: only for widget keys (the other scopes are not limited by origin)');
  if (scope === 'widget' && !origins.length)
    throw ApiError.invalid(
      'allowed_origins',
      'allowed_origins: a widget key needs at least one origin (the pages it is used from, e.g. https://shop.example.com)',
      'parameter_missing',
    );
  if (origins.length > MAX_ALLOWED_ORIGINS) throw ApiError.invalid('allowed_origins', `allowed_origins: at most ${MAX_ALLOWED_ORIGINS}`);
  const allowedOrigins = origins.map((v, i) => {
    const n = typeof v === 'string' && v.length <= 300 ? normaliseOrigin(v) : null;
    if (!n)
      throw ApiError.invalid(
        `allowed_origins[${i}]`,
        `allowed_origins[${i}]: an origin, scheme://host[:port] with http or https and no path, e.g. https://shop.example.com`,
      );
    return n;
  });
  const name = typeof o.name === 'string' && o.name.trim() ? o.name.trim() : null;
  return { name, scope: scope as KeyScope, allowedOrigins: [...new Set(allowedOrigins)] };
}
