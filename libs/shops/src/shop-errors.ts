/**
 * Errors both shop adapters throw, so the connections module maps them once: a revoked key marks the connection
 * `unauthorized`, an unavailable shop fails the sync for a later retry, anything else is reported as is.
 * Messages never contain credentials (tokens, consumer keys, Basic headers): they end up in reports and logs.
 */
export type ShopPlatform = 'shopify' | 'woocommerce';

/** The shop refused the credentials (401/403): the key was revoked or lacks a scope. Never retried. */
export class ShopUnauthorizedError extends Error {
  constructor(
    readonly platform: ShopPlatform,
    readonly status: number,
    detail?: string,
  ) {
    super(`${platform}: credentials refused (HTTP ${status})${detail ? `: ${detail}` : ''}`);
    this.name = 'ShopUnauthorizedError';
  }
}

/** The shop answered, but not with what was asked (4xx other than auth, a malformed body, a GraphQL error). */
export class ShopApiError extends Error {
  constructor(
    readonly platform: ShopPlatform,
    message: string,
    readonly status?: number,
  ) {
    super(`${platform}: ${message}`);
    this.name = 'ShopApiError';
  }
}

/** The shop stayed down, throttled or failing (5xx, 429, network) after every retry. */
export class ShopUnavailableError extends Error {
  constructor(
    readonly platform: ShopPlatform,
    readonly attempts: number,
    readonly lastReason: string,
  ) {
    super(`${platform}: shop unavailable after ${attempts} attempts (${lastReason})`);
    this.name = 'ShopUnavailableError';
  }
}
