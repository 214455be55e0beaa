import type { Readable } from 'node:stream';
import { OperationalError, UserError } from '@app/pipeline';
import { guardedGet } from '../../fetch/fetch-source';
import type { ResolveAll } from '../../fetch/ssrf-guard';

/**
 * How a request to a hosted provider went wrong, which decides what the motion stage does next:
 * - `rate_limited`: 429 — wait `retryAfterMs` and ask again;
 * - `unavailable`: network error, timeout, 5xx — transient, ask again later;
 * - `auth`: 401 / 403 — the configured key is wrong or lacks access; retrying will not help;
 * - `rejected`: any other 4xx — the provider refused the request (bad input, moderation, unknown model).
 */
export type ProviderErrorKind = 'rate_limited' | 'unavailable' | 'auth' | 'rejected';

export class ProviderHttpError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** From Retry-After (or the provider's own retry hint), when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderHttpError';
  }
}

export interface ProviderHttpOptions {
  /** Provider id, used in messages. */
  provider: string;
  /**
   * The configured API base URL. Only its origin gets {@link headers}: a result link or a redirect on
   * any other origin (a CDN, a storage bucket) is requested without them.
   */
  baseUrl: string;
  /** Headers on requests to the API origin (auth, API version). Never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** ALLOW_PRIVATE_NETWORKS: result downloads off the API origin may reach private addresses. */
  allowPrivateNetworks?: boolean;
  /** DNS for the download guard (tests). */
  resolve?: ResolveAll;
}

/** Redirects followed on a result download (CDN hops), each re-checked by the SSRF guard. */
const MAX_DOWNLOAD_REDIRECTS = 5;
/** Redirects followed on an API call, all on the API origin. */
const MAX_API_REDIRECTS = 3;

export interface ProviderResponse<T> {
  status: number;
  body: T;
}

/**
 * Parses Retry-After: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds, or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Google APIs put the hint in the body: `error.details[] { @type: …RetryInfo, retryDelay: "30s" }`. */
function googleRetryDelay(body: unknown): number | undefined {
  const details = (body as { error?: { details?: { '@type'?: string; retryDelay?: string }[] } })?.error?.details;
  const info = details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'));
  const m = info?.retryDelay?.match(/^(\d+(?:\.\d+)?)s$/);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** The provider's own words from an error body (the shapes of the five providers, then raw text). */
export function providerMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const err = b.error as Record<string, unknown> | string | undefined;
  const candidates = [b.detail, b.title, typeof err === 'string' ? err : err?.message, b.message, b.failure, b.failure_reason];
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim()) return c.trim().slice(0, 300);
    // fal's validation errors: detail: [{ loc, msg, type }]
    if (Array.isArray(c) && c.length) {
      return c
        .map((d) => {
          const e = d as { msg?: string; type?: string };
          return e.msg ? `${e.msg}${e.type ? ` (${e.type})` : ''}` : JSON.stringify(d);
        })
        .join('; ')
        .slice(0, 300);
    }
  }
  return undefined;
}

/**
 * A small JSON-over-HTTPS client for one provider: auth headers, a timeout per request, and every
 * failure turned into a {@link ProviderHttpError} of the right kind.
 */
export class ProviderHttp {
  private readonly apiOrigin: string;

  constructor(private readonly opts: ProviderHttpOptions) {
    this.apiOrigin = new URL(opts.baseUrl).origin;
  }

  /** The provider's headers (plus `extra`) for a URL on the API origin; nothing for any other origin. */
  private headersFor(url: URL, extra: Record<string, string> = {}): Record<string, string> {
    return url.origin === this.apiOrigin ? { ...this.opts.headers, ...extra } : {};
  }

  async json<T>(
    method: string,
    url: string,
    init: { body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<ProviderResponse<T>> {
    const res = await this.send(method, url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Keep the text: an HTML error page from a proxy still explains something.
    }
    if (!res.ok) throw this.failure(method, url, res.status, res.headers.get('retry-after'), body);
    return { status: res.status, body: body as T };
  }

  /**
   * GETs a result as a stream. The provider's link is untrusted: it goes through the SSRF guard of
   * user-given URLs (hops off the API origin are checked, redirects followed by hand) and credentials
   * (`headers` of the options, plus `init.headers`) go only to the API origin, hop by hop — so Veo's
   * keyed download from its own API works, and a CDN never sees a token.
   */
  async stream(
    url: string,
    init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<{ stream: Readable; length?: number; contentType?: string }> {
    const deadline = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([deadline, ...(init.signal ? [init.signal] : [])]);
    const guard = {
      timeoutMs: this.opts.timeoutMs,
      connectTimeoutMs: this.opts.timeoutMs,
      maxRedirects: MAX_DOWNLOAD_REDIRECTS,
      allowPrivateNetworks: this.opts.allowPrivateNetworks ?? false,
      trustedOrigin: this.apiOrigin,
      resolve: this.opts.resolve,
      headers: (u: URL) => ({ accept: '*/*', ...this.headersFor(u, init.headers) }),
    };
    let res: Awaited<ReturnType<typeof guardedGet>>['res'];
    try {
      ({ res } = await guardedGet(url, guard, signal, deadline));
    } catch (err) {
      throw this.downloadFailure(url, err);
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = await readText(res);
      throw this.failure('GET', url, status, headerOf(res.headers['retry-after']), text);
    }
    // The body outlives guardedGet: the deadline and the caller's signal still end it.
    const onAbort = () => res.destroy(new Error(deadline.aborted ? `no complete answer within ${this.opts.timeoutMs} ms` : 'interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
    res.once('close', () => signal.removeEventListener('abort', onAbort));
    const length = Number(res.headers['content-length']);
    return {
      stream: res,
      length: Number.isFinite(length) && length > 0 ? length : undefined,
      contentType: headerOf(res.headers['content-type']),
    };
  }

  /** A failed guarded download as the motion stage handles it: a refused address is final, the rest is retried. */
  private downloadFailure(url: string, err: unknown): Error {
    const why = (err as Error).message.replace(/^fetch: /, '');
    if (err instanceof UserError && err.code === 'private_address') {
      return new UserError('motion_result_blocked', `motion: ${this.opts.provider}: the result link leads to a refused address: ${why}`);
    }
    const kind =
      err instanceof OperationalError || (err instanceof UserError && /timeout|unreachable|dns/.test(err.code))
        ? 'unavailable'
        : 'rejected';
    return new ProviderHttpError(this.opts.provider, kind, `${this.opts.provider}: GET ${pathOf(url)} failed: ${why}`);
  }

  /**
   * `body` is sent as JSON, or as multipart when it is a FormData (fetch sets the boundary). Redirects
   * are followed by hand and only on the API origin: fetch would carry a key header (`x-goog-api-key`,
   * `x-runway-version`) to any origin a redirect names, and an API call has no business leaving its host.
   * A redirect elsewhere comes back as the answer, which {@link json} reports as a refusal.
   */
  private async send(
    method: string,
    url: string,
    init: { body?: unknown; signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<Response> {
    const signal = AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs), ...(init.signal ? [init.signal] : [])]);
    let hopMethod = method;
    let body = init.body;
    try {
      let target = new URL(url);
      for (let hop = 0; ; hop++) {
        const json = body !== undefined && !(body instanceof FormData);
        const res = await fetch(target, {
          method: hopMethod,
          headers: {
            accept: 'application/json',
            ...(json ? { 'content-type': 'application/json' } : {}),
            ...this.headersFor(target, init.headers),
          },
          body: json ? JSON.stringify(body) : (body as FormData | undefined),
          signal,
          redirect: 'manual',
        });
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        const next = location ? new URL(location, target) : undefined;
        if (!next || next.origin !== this.apiOrigin || hop >= MAX_API_REDIRECTS) return res;
        await res.body?.cancel();
        // As fetch does: 303, and 301 / 302 after a POST, continue as a GET without the body.
        if (res.status === 303 || (hopMethod === 'POST' && (res.status === 301 || res.status === 302))) {
          hopMethod = 'GET';
          body = undefined;
        }
        target = next;
      }
    } catch (err) {
      const e = err as Error;
      const why =
        e.name === 'TimeoutError'
          ? `no answer within ${this.opts.timeoutMs} ms`
          : e.name === 'AbortError'
            ? 'interrupted'
            : ((e.cause as Error)?.message ?? e.message);
      throw new ProviderHttpError(this.opts.provider, 'unavailable', `${this.opts.provider}: ${method} ${pathOf(url)} failed: ${why}`);
    }
  }

  private failure(
    method: string,
    url: string,
    status: number,
    retryAfterHeader: string | null | undefined,
    body: unknown,
  ): ProviderHttpError {
    const said = providerMessage(body);
    const redirect = status >= 300 && status < 400 ? ' (redirect not followed: API calls stay on the API origin)' : '';
    const what = `${this.opts.provider}: ${method} ${pathOf(url)} answered ${status}${redirect}${said ? `: ${said}` : ''}`;
    if (status === 429) {
      const retryAfter = parseRetryAfter(retryAfterHeader) ?? googleRetryDelay(body);
      return new ProviderHttpError(this.opts.provider, 'rate_limited', what, 429, retryAfter);
    }
    if (status === 401 || status === 403) return new ProviderHttpError(this.opts.provider, 'auth', what, status);
    if (status >= 500 || status === 408)
      return new ProviderHttpError(this.opts.provider, 'unavailable', what, status, parseRetryAfter(retryAfterHeader));
    return new ProviderHttpError(this.opts.provider, 'rejected', what, status);
  }
}

/** Path of a URL without its query (queries may carry signed tokens). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** An error answer's text, at most 64 KB of it (it only feeds a message). */
async function readText(res: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const c of res) {
      chunks.push(c as Buffer);
      if ((size += (c as Buffer).length) > 64 * 1024) break;
    }
  } catch {
    // A broken error body: the status alone still explains.
  }
  res.destroy();
  return Buffer.concat(chunks).toString('utf8');
}
