import type { components } from './generated/openapi';
import { WebhookVerificationError } from './errors';

/** The body of a v1 callback (POST /api/v1/convert with callback_url). */
export type V1Callback = components['schemas']['V1CallbackDto'];
/** The body of an animated AR callback: the final job, as GET /api/v2/jobs/{id} shows it. */
export type V2JobCallback = components['schemas']['V2JobDto'];
export type WebhookPayload = V1Callback | V2JobCallback;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest accepted difference between webhook-timestamp and now, seconds (default 300). */
  toleranceS?: number;
  /** Now, in ms (tests). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v[0] : v;
}

function fromBase64(s: string): Uint8Array {
  if (typeof atob === 'function') return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  throw new WebhookVerificationError('no base64 decoder in this runtime');
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function bodyText(body: string | Uint8Array | ArrayBuffer): string {
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

/** Constant time for equal lengths. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a callback the service sent (Standard Webhooks, as the service signs it): `webhook-signature` holds
 * one or more space-separated `v1,<base64 HMAC-SHA256>` of `"{webhook-id}.{webhook-timestamp}.{raw body}"`, keyed
 * with the base64-decoded part of the secret after `whsec_` (GET /api/v1/webhook-secret). Pass the raw body as
 * received (not re-serialised JSON). Returns the parsed payload; throws {@link WebhookVerificationError} when
 * a header is missing, the timestamp is more than `toleranceS` off, or no signature matches.
 * Works in Node 20+ and browsers (Web Crypto). Dedupe deliveries on `webhook-id`: it is the same on every retry.
 */
export async function verifyWebhook<T extends WebhookPayload = WebhookPayload>(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  opts: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !ts || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  const seconds = Number(ts);
  if (!/^\d+$/.test(ts) || Math.abs((opts.now ?? Date.now()) / 1000 - seconds) > (opts.toleranceS ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is missing or too far from now');
  }
  const text = bodyText(body);
  const keyBytes = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    keyBytes as unknown as ArrayBuffer,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${ts}.${text}`)));
  const expected = toBase64(mac);
  const ok = signatures.split(' ').some((s) => {
    const [version, sig] = s.split(',', 2);
    return version === 'v1' && sig !== undefined && same(sig, expected);
  });
  if (!ok) throw new WebhookVerificationError('no webhook-signature matches');
  return JSON.parse(text) as T;
}
