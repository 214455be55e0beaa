/**
 * Calls to the public API from the console's pages: the session cookie and the page's CSRF token
 * (X-CSRF-Token); a 401 sends the browser to the sign-in page.
 */
import type { ErrorBody } from './api-types';

const csrfMeta = document.querySelector('meta[name=csrf-token]');
/** The page's CSRF token (rendered by the server in a <meta>): every state-changing request sends it. */
export const CSRF: string = (csrfMeta && csrfMeta.getAttribute('content')) || '';

/**
 * What a call rejects with on a non-2xx answer: the status and the API's error object (or the answer's text
 * as its message). `param` is rewritten by some forms to name their own field.
 */
export interface ApiError {
  status: number;
  error: Partial<ErrorBody> & { message: string; param?: string };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the public API; resolves with the answer as `T` (null for a 204), rejects with an ApiError on a
 * non-2xx answer. `type`: send `data` as is, with that content type; else a FormData as multipart and
 * anything else as JSON.
 */
export function api<T = unknown>(method: Method, path: string, data?: unknown, type?: string): Promise<T> {
  const headers: Record<string, string> = { 'X-CSRF-Token': CSRF };
  let bodyOut: BodyInit | undefined;
  if (type) {
    headers['Content-Type'] = type;
    bodyOut = data as BodyInit;
  } else if (data instanceof FormData) bodyOut = data;
  else if (data !== undefined) {
    headers['Content-Type'] = 'application/json';
    bodyOut = JSON.stringify(data);
  }
  return fetch(path, { method: method, headers: headers, body: bodyOut, credentials: 'same-origin' }).then(function (res) {
    if (res.status === 401) {
      location.href = '/console/login';
    }
    const ct = res.headers.get('content-type') || '';
    const parsed: Promise<unknown> = res.status === 204 ? Promise.resolve(null) : ct.indexOf('json') >= 0 ? res.json() : res.text();
    return parsed.then(function (b) {
      if (!res.ok) {
        const body = b as { error?: ApiError['error'] } | null;
        const failure: ApiError = { status: res.status, error: (body && body.error) || { message: String(b) } };
        throw failure;
      }
      return b as T;
    });
  });
}

/** An error as the pages show it: an ApiError, or one built for a field ({error: {param, message}}). */
export type ErrorLike = { error?: { message?: string; param?: string } | null } | null | undefined;
