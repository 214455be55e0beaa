import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ShopProduct } from '../shop-product';
import { toShopProduct } from './woocommerce-mapping';
import type { WooProduct } from './woocommerce.types';

/**
 * WooCommerce signs a delivery with `X-WC-Webhook-Signature: base64(HMAC-SHA256(raw body, secret))`. Checked
 * over the exact bytes received (a re-serialised JSON body would differ) and compared in constant time.
 * (WooCommerce HTML-decodes its stored secret before signing (`wp_specialchars_decode`); the secret is used
 * here as typed, so one containing entities such as `&amp;` would not match.)
 */
export function verifyWooCommerceSignature(rawBody: Buffer | string, signature: string | undefined | null, secret: string): boolean {
  if (!signature || !secret) return false;
  // Compared as the base64 text: Node's base64 decoder skips stray characters, so decoding first would accept
  // variants of a signature that WooCommerce never sends.
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('base64'));
  const given = Buffer.from(signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type WooCommerceWebhookEvent =
  /** Sent unsigned when the merchant saves the webhook (form-encoded `webhook_id=N`): answer 200, sync nothing. */
  | { kind: 'ping' }
  /**
   * product.created / updated / restored. `product` is null for a variable product, whose payload lists only
   * variation ids: fetch it with `WooCommerceClient.product(productId)`.
   */
  | { kind: 'product'; topic: string; deliveryId: string | null; productId: string; product: ShopProduct | null }
  | { kind: 'deleted'; topic: string; deliveryId: string | null; productId: string }
  | { kind: 'rejected'; reason: 'bad_signature' | 'bad_payload' | 'unsupported_topic' };

/** Request headers as Node gives them (lower-case names). */
type Headers = Record<string, string | string[] | undefined>;
const header = (h: Headers, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Verifies and reads one delivery. A bad or missing signature is `rejected` before the body is parsed (the
 * route answers 401 and changes nothing); the caller applies a `deliveryId` (`X-WC-Webhook-Delivery-ID`) once.
 */
export function readWooCommerceWebhook(input: {
  rawBody: Buffer;
  headers: Headers;
  secret: string;
  currency: string | null;
}): WooCommerceWebhookEvent {
  const { rawBody, headers } = input;
  // WooCommerce's ping (WC_Webhook::deliver_ping) is unsigned and must get a 200, or saving the webhook fails;
  // it changes nothing here, so answering it unauthenticated is safe.
  if (rawBody.length <= 40 && /^webhook_id=\d{1,20}$/.test(rawBody.toString('latin1'))) return { kind: 'ping' };
  if (!verifyWooCommerceSignature(rawBody, header(headers, 'x-wc-webhook-signature'), input.secret)) {
    return { kind: 'rejected', reason: 'bad_signature' };
  }
  const topic = header(headers, 'x-wc-webhook-topic') ?? '';
  if (!/^product\.(created|updated|deleted|restored)$/.test(topic)) return { kind: 'rejected', reason: 'unsupported_topic' };
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { kind: 'rejected', reason: 'bad_payload' };
  }
  const p = body as Partial<WooProduct> | null;
  if (!p || typeof p !== 'object' || !Number.isSafeInteger(p.id) || (p.id as number) <= 0) {
    return { kind: 'rejected', reason: 'bad_payload' };
  }
  const deliveryId = header(headers, 'x-wc-webhook-delivery-id') ?? null;
  const productId = String(p.id);
  // A deletion carries only `{id}`; a product moved to the bin arrives as an update with status "trash".
  if (topic === 'product.deleted') return { kind: 'deleted', topic, deliveryId, productId };
  if (typeof p.name !== 'string' || typeof p.type !== 'string' || typeof p.status !== 'string') {
    return { kind: 'rejected', reason: 'bad_payload' };
  }
  const product = p.type === 'variable' ? null : toShopProduct(p as WooProduct, [], input.currency);
  return { kind: 'product', topic, deliveryId, productId, product };
}
