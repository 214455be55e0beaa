import { isBlockedHostname } from '@app/plugins';
import { ApiError } from './api-error';

export interface UrlRules {
  /** Schemes accepted (default http and https). */
  https?: boolean;
  /** Longest URL accepted (default 2048). */
  max?: number;
  /** Refuse private / reserved host literals early (the fetch re-checks at connect time). */
  blockPrivate?: boolean;
}

/**
 * A URL request parameter: parsable, http(s) (or https only), no credentials, not too long, and
 * optionally not a private address literal. Throws a 400 {@link ApiError} naming the parameter.
 *
 * @example
 * requestUrl('video_url', body.video_url, { https: true, blockPrivate: true })
 */
export function requestUrl(param: string, v: unknown, rules: UrlRules = {}): string {
  const max = rules.max ?? 2048;
  const schemes = rules.https ? 'an https URL' : 'an http or https URL';
  if (typeof v !== 'string' || v.length > max || !URL.canParse(v))
    throw ApiError.invalid(param, `${param}: must be ${schemes} of at most ${max} characters`);
  const u = new URL(v);
  const ok = rules.https ? u.protocol === 'https:' : u.protocol === 'http:' || u.protocol === 'https:';
  if (!ok) throw ApiError.invalid(param, `${param}: must be ${schemes}`, rules.https ? 'https_required' : 'parameter_invalid');
  if (u.username || u.password) throw ApiError.invalid(param, `${param}: must not carry credentials`);
  if (rules.blockPrivate && isBlockedHostname(u.hostname.replace(/^\[|\]$/g, ''))) {
    throw ApiError.invalid(param, `${param}: ${u.hostname} is a private or reserved address`, `${param}_blocked`);
  }
  return u.toString();
}

/**
 * A callback URL as delivery views show it (GET /api/v2/webhooks/deliveries, a v1 job's `callback`): without
 * its query string and fragment, where receivers often carry a token. Shown to every key, since read-only
 * keys and console screens should not hand out a way to post to the receiver.
 */
export function callbackUrlView(url: string): string {
  if (!URL.canParse(url)) return url.replace(/[?#][\s\S]*$/, '');
  const u = new URL(url);
  u.search = '';
  u.hash = '';
  return u.toString();
}
