/**
 * Retry-After as delta-seconds ("1", "2.0": Shopify sends decimals) or an HTTP date (RFC 9110 §10.2.3), in
 * milliseconds; undefined when absent or unreadable. Both shop clients use it. (libs/plugins has
 * the same for hosted providers; libs/shops may not import it: it stays free of the engine.)
 */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,6}(\.\d{1,3})?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
