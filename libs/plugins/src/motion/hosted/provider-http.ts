import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

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
  /** Headers on every request (auth, API version). Never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
}

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
      return c.map((d) => { const e = d as { msg?: string; type?: string }; return e.msg ? `${e.msg}${e.type ? ` (${e.type})` : ''}` : JSON.stringify(d); }).join('; ').slice(0, 300);
    }
  }
  return undefined;
}

/**
 * A small JSON-over-HTTPS client for one provider: auth headers, a timeout per request, and every
 * failure turned into a {@link ProviderHttpError} of the right kind.
 */
export class ProviderHttp {
  constructor(private readonly opts: ProviderHttpOptions) {}

  async json<T>(method: string, url: string, init: { body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<ProviderResponse<T>> {
    const res = await this.send(method, url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Keep the text: an HTML error page from a proxy still explains something.
    }
    if (!res.ok) throw this.failure(method, url, res, body);
    return { status: res.status, body: body as T };
  }

  /** GETs a binary body as a stream (result downloads). Redirects are followed (CDN links). */
  async stream(url: string, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<{ stream: Readable; length?: number; contentType?: string }> {
    const res = await this.send('GET', url, init);
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      throw this.failure('GET', url, res, text);
    }
    const length = Number(res.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      length: Number.isFinite(length) && length > 0 ? length : undefined,
      contentType: res.headers.get('content-type') ?? undefined,
    };
  }

  /** `body` is sent as JSON, or as multipart when it is a FormData (fetch sets the boundary). */
  private async send(method: string, url: string, init: { body?: unknown; signal?: AbortSignal; headers?: Record<string, string> }): Promise<Response> {
    const signals = [AbortSignal.timeout(this.opts.timeoutMs), ...(init.signal ? [init.signal] : [])];
    const json = init.body !== undefined && !(init.body instanceof FormData);
    try {
      return await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...this.opts.headers,
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        body: json ? JSON.stringify(init.body) : (init.body as FormData | undefined),
        signal: AbortSignal.any(signals),
        redirect: 'follow',
      });
    } catch (err) {
      const e = err as Error;
      const why = e.name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : e.name === 'AbortError' ? 'interrupted' : (e.cause as Error)?.message ?? e.message;
      throw new ProviderHttpError(this.opts.provider, 'unavailable', `${this.opts.provider}: ${method} ${pathOf(url)} failed: ${why}`);
    }
  }

  private failure(method: string, url: string, res: Response, body: unknown): ProviderHttpError {
    const said = providerMessage(body);
    const what = `${this.opts.provider}: ${method} ${pathOf(url)} answered ${res.status}${said ? `: ${said}` : ''}`;
    if (res.status === 429) {
      const retryAfter = parseRetryAfter(res.headers.get('retry-after')) ?? googleRetryDelay(body);
      return new ProviderHttpError(this.opts.provider, 'rate_limited', what, 429, retryAfter);
    }
    if (res.status === 401 || res.status === 403) return new ProviderHttpError(this.opts.provider, 'auth', what, res.status);
    if (res.status >= 500 || res.status === 408) return new ProviderHttpError(this.opts.provider, 'unavailable', what, res.status, parseRetryAfter(res.headers.get('retry-after')));
    return new ProviderHttpError(this.opts.provider, 'rejected', what, res.status);
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
