import { ShopApiError, ShopUnauthorizedError, ShopUnavailableError } from '../shop-errors';
import { retryAfterMs } from '../retry-after';
import { ShopifyCostBucket } from './shopify-throttle';

/** The oldest Admin API version whose shapes this adapter is written against (`uri` on webhook subscriptions). */
export const SHOPIFY_API_VERSION = '2025-10';

export interface ShopifyGraphqlOptions {
  /** `<name>.myshopify.com` (or just `<name>`): the only hosts the token is ever sent to. */
  shopDomain: string;
  accessToken: string;
  /** `YYYY-MM`, 2025-10 or later. */
  apiVersion?: string;
  /** Replaces `https://<shop>` (tests and proxies only; never taken from a merchant's input). */
  endpoint?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Tries for 5xx and network failures, the first included (default 5). */
  maxAttempts?: number;
  /** First backoff after a 5xx or network failure, doubled each time up to `maxBackoffMs` (default 500 ms, 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Throttled answers (THROTTLED, 429) waited out before giving up (default 30: waiting is the normal case). */
  maxThrottleWaits?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
}

interface GraphqlError {
  message?: string;
  extensions?: { code?: string };
}

/** Shopify's `<name>.myshopify.com`: anything else would send the token to a host the merchant typed. */
export function normaliseShopDomain(input: string): string {
  const host = input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
  const domain = host.includes('.') ? host : `${host}.myshopify.com`;
  if (!/^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/.test(domain))
    throw new ShopApiError('shopify', 'shop domain must be <name>.myshopify.com');
  return domain;
}

/**
 * One Admin GraphQL endpoint with Shopify's limits honoured: waits for the cost bucket before sending, waits out
 * `THROTTLED` answers and 429s (their Retry-After), retries 5xx and network failures with exponential backoff
 * (bounded), and turns 401/403 into ShopUnauthorizedError (never retried: a revoked token stays revoked).
 * Error messages carry Shopify's words, never the token.
 */
export class ShopifyGraphql {
  readonly shopDomain: string;
  private readonly url: string;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly bucket: ShopifyCostBucket;
  /** Counters for reports and tests: how often and how long this client waited. */
  readonly stats = { requests: 0, throttled: 0, retried: 0, waitedMs: 0 };

  constructor(private readonly opts: ShopifyGraphqlOptions) {
    this.shopDomain = normaliseShopDomain(opts.shopDomain);
    const version = opts.apiVersion ?? SHOPIFY_API_VERSION;
    if (!/^\d{4}-\d{2}$/.test(version) || version < SHOPIFY_API_VERSION)
      throw new ShopApiError('shopify', `API version ${version} is older than ${SHOPIFY_API_VERSION}`);
    if (!opts.accessToken) throw new ShopApiError('shopify', 'an access token is required');
    const base = (opts.endpoint ?? `https://${this.shopDomain}`).replace(/\/+$/, '');
    this.url = `${base}/admin/api/${version}/graphql.json`;
    this.fetch = opts.fetch ?? fetch;
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = opts.now ?? Date.now;
    this.bucket = new ShopifyCostBucket(this.now);
  }

  /** What the bucket should hold now (null before the first answer). */
  available(): number | null {
    return this.bucket.available();
  }

  async request<T>(operationName: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const maxAttempts = this.opts.maxAttempts ?? 5;
    const maxThrottleWaits = this.opts.maxThrottleWaits ?? 30;
    let failures = 0;
    let throttles = 0;
    const body = JSON.stringify({ query, variables, operationName });
    for (;;) {
      await this.wait(this.bucket.waitBefore(operationName));
      this.stats.requests++;
      let res: Response;
      try {
        res = await this.fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-shopify-access-token': this.opts.accessToken },
          body,
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
        });
      } catch (err) {
        failures = await this.failed(failures, maxAttempts, this.reason(err));
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        const detail = this.scrub(this.messageOf(await this.readJson(res)));
        throw new ShopUnauthorizedError('shopify', res.status, detail);
      }
      if (res.status === 429) {
        await res.arrayBuffer().catch(() => undefined);
        throttles = await this.throttled(
          throttles,
          maxThrottleWaits,
          retryAfterMs(res.headers.get('retry-after'), this.now()) ?? 1000,
          'HTTP 429',
        );
        continue;
      }
      if (res.status >= 500) {
        await res.arrayBuffer().catch(() => undefined);
        failures = await this.failed(failures, maxAttempts, `HTTP ${res.status}`, retryAfterMs(res.headers.get('retry-after'), this.now()));
        continue;
      }
      const json = (await this.readJson(res)) as
        { data?: T; errors?: GraphqlError[] | string; extensions?: { cost?: unknown } } | undefined;
      if (!res.ok) throw new ShopApiError('shopify', `HTTP ${res.status}${this.detail(json)}`, res.status);
      if (!json || typeof json !== 'object') throw new ShopApiError('shopify', 'the answer was not JSON', res.status);
      this.bucket.record(operationName, json.extensions?.cost);
      const errors = typeof json.errors === 'string' ? [{ message: json.errors }] : (json.errors ?? []);
      if (errors.length > 0) {
        if (errors.some((e) => e.extensions?.code === 'THROTTLED')) {
          throttles = await this.throttled(throttles, maxThrottleWaits, this.bucket.waitAfterThrottle(json.extensions?.cost), 'THROTTLED');
          continue;
        }
        const message = this.scrub(errors.map((e) => e.message ?? e.extensions?.code ?? 'error').join('; '));
        // A token without the scope an operation needs is answered 200 with ACCESS_DENIED: the same remedy as a 403.
        if (errors.some((e) => e.extensions?.code === 'ACCESS_DENIED')) throw new ShopUnauthorizedError('shopify', 403, message);
        throw new ShopApiError('shopify', `${operationName}: ${message}`, res.status);
      }
      if (json.data === undefined || json.data === null)
        throw new ShopApiError('shopify', `${operationName}: no data in the answer`, res.status);
      return json.data;
    }
  }

  private async throttled(count: number, max: number, waitMs: number, reason: string): Promise<number> {
    this.stats.throttled++;
    if (count + 1 > max) throw new ShopUnavailableError('shopify', count + 1, `still throttled (${reason})`);
    await this.wait(waitMs);
    return count + 1;
  }

  private async failed(count: number, max: number, reason: string, hintMs?: number): Promise<number> {
    const attempts = count + 1;
    if (attempts >= max) throw new ShopUnavailableError('shopify', attempts, this.scrub(reason));
    this.stats.retried++;
    const backoff = Math.min((this.opts.backoffMs ?? 500) * 2 ** (attempts - 1), this.opts.maxBackoffMs ?? 30_000);
    await this.wait(Math.max(backoff, hintMs ?? 0));
    return attempts;
  }

  private async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    // A shop cannot make us sleep for an hour: a Retry-After or a bucket status beyond this is capped.
    const capped = Math.min(ms, 120_000);
    this.stats.waitedMs += capped;
    await this.sleep(capped);
  }

  private async readJson(res: Response): Promise<unknown> {
    const text = await res.text().catch(() => '');
    try {
      return JSON.parse(text);
    } catch {
      return text ? { errors: text.slice(0, 200) } : undefined;
    }
  }

  private messageOf(json: unknown): string | undefined {
    const errors = (json as { errors?: unknown })?.errors;
    if (typeof errors === 'string') return errors.slice(0, 200);
    if (Array.isArray(errors))
      return (
        errors
          .map((e: GraphqlError) => e?.message ?? '')
          .join('; ')
          .slice(0, 200) || undefined
      );
    return undefined;
  }

  private detail(json: unknown): string {
    const m = this.messageOf(json);
    return m ? `: ${this.scrub(m)}` : '';
  }

  private reason(err: unknown): string {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
    return e?.cause?.code ?? e?.message ?? 'network error';
  }

  /** Shopify does not echo tokens, but a proxy might: nothing that reaches a report may hold it. */
  private scrub(text: string | undefined): string {
    if (!text) return '';
    return text.split(this.opts.accessToken).join('[redacted]');
  }
}
