import { createHmac, timingSafeEqual } from 'node:crypto';

/** Secret bytes of a `whsec_<base64>` secret. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 *
 * @example
 * const headers = signWebhook('whsec_…', 'msg_api_x_completed', Math.floor(Date.now() / 1000), body);
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const sig = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${sig}` };
}

/** Receiver side: true when one of the signatures matches and the timestamp is within `toleranceS`. */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  toleranceS = 300,
  now = Date.now(),
): boolean {
  const id = headers['webhook-id'];
  const ts = Number(headers['webhook-timestamp']);
  const given = headers['webhook-signature'];
  if (!id || !Number.isFinite(ts) || !given || Math.abs(now / 1000 - ts) > toleranceS) return false;
  const expected = Buffer.from(signWebhook(secret, id, ts, body)['webhook-signature']);
  return given.split(' ').some((s) => {
    const b = Buffer.from(s);
    return b.length === expected.length && timingSafeEqual(b, expected);
  });
}
