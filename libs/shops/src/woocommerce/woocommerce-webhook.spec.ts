import { fakeWooProduct, signWooWebhook } from '@app/testing';
import { readWooCommerceWebhook, verifyWooCommerceSignature } from './index';

const SECRET = 'whsec-9f3a1c';

/** A delivery as WC_Webhook::deliver sends it: JSON body, signature over those bytes, the X-WC-Webhook-* headers. */
function delivery(topic: string, payload: unknown, over: Record<string, string | undefined> = {}) {
  const rawBody = Buffer.from(JSON.stringify(payload));
  const headers: Record<string, string | undefined> = {
    'x-wc-webhook-source': 'https://shop.example/',
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': topic.split('.')[0],
    'x-wc-webhook-event': topic.split('.')[1],
    'x-wc-webhook-signature': signWooWebhook(rawBody, SECRET),
    'x-wc-webhook-id': '12',
    'x-wc-webhook-delivery-id': 'a1b2c3',
    ...over,
  };
  return { rawBody, headers, secret: SECRET, currency: 'EUR' };
}

describe('verifyWooCommerceSignature', () => {
  const body = Buffer.from('{"id":5}');
  const good = signWooWebhook(body, SECRET);

  it.each([
    ['the right signature', good, true],
    ['the right signature with surrounding spaces', ` ${good} `, true],
    ['a missing signature', undefined, false],
    ['an empty signature', '', false],
    ['a signature with another secret', signWooWebhook(body, 'other'), false],
    ['a hex signature of the same HMAC', Buffer.from(good, 'base64').toString('hex'), false],
    ['a truncated signature', good.slice(0, -2), false],
    ['the signature with a stray character', `${good}!`, false],
  ])('%s → %p', (_, signature, ok) => {
    expect(verifyWooCommerceSignature(body, signature, SECRET)).toBe(ok);
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifyWooCommerceSignature(body, signWooWebhook(body, ''), '')).toBe(false);
  });
});

describe('readWooCommerceWebhook', () => {
  it('reads a signed product.updated delivery of a simple product as a ShopProduct', () => {
    const { product } = fakeWooProduct(42);
    const event = readWooCommerceWebhook(delivery('product.updated', product));
    expect(event).toMatchObject({ kind: 'product', topic: 'product.updated', deliveryId: 'a1b2c3', productId: '42' });
    expect(event.kind === 'product' && event.product).toMatchObject({
      id: '42',
      title: 'Print 42',
      artist: 'Artist 0',
      status: 'published',
      variants: [{ id: '42', currency: 'EUR', options: [{ name: 'Size', value: '50 x 70 cm' }] }],
    });
  });

  it('leaves a variable product to be fetched (its payload lists only variation ids)', () => {
    const { product } = fakeWooProduct(10, { variations: 6 });
    expect(readWooCommerceWebhook(delivery('product.created', product))).toEqual({
      kind: 'product',
      topic: 'product.created',
      deliveryId: 'a1b2c3',
      productId: '10',
      product: null,
    });
  });

  it('reads product.deleted, whose payload is only the id', () => {
    expect(readWooCommerceWebhook(delivery('product.deleted', { id: 7 }))).toEqual({
      kind: 'deleted',
      topic: 'product.deleted',
      deliveryId: 'a1b2c3',
      productId: '7',
    });
  });

  it('rejects a bad or missing signature before reading the body', () => {
    const { product } = fakeWooProduct(1);
    expect(readWooCommerceWebhook(delivery('product.updated', product, { 'x-wc-webhook-signature': undefined }))).toEqual({
      kind: 'rejected',
      reason: 'bad_signature',
    });
    const tampered = delivery('product.updated', product);
    tampered.rawBody = Buffer.from(tampered.rawBody.toString().replace('Print 1', 'Print 2'));
    expect(readWooCommerceWebhook(tampered)).toEqual({ kind: 'rejected', reason: 'bad_signature' });
    expect(readWooCommerceWebhook({ ...delivery('product.updated', product), secret: 'rotated' })).toMatchObject({
      reason: 'bad_signature',
    });
  });

  it("answers WooCommerce's unsigned ping as a ping, and nothing else unsigned", () => {
    const ping = { rawBody: Buffer.from('webhook_id=12'), headers: {}, secret: SECRET, currency: null };
    expect(readWooCommerceWebhook(ping)).toEqual({ kind: 'ping' });
    expect(readWooCommerceWebhook({ ...ping, rawBody: Buffer.from('webhook_id=12&x=1') })).toMatchObject({ reason: 'bad_signature' });
  });

  it('rejects signed deliveries of other topics and malformed payloads', () => {
    expect(readWooCommerceWebhook(delivery('order.created', { id: 3 }))).toEqual({ kind: 'rejected', reason: 'unsupported_topic' });
    for (const payload of [{ id: -1 }, { id: '5' }, { name: 'no id' }, null, { id: 5, name: 'x' }]) {
      expect(readWooCommerceWebhook(delivery('product.updated', payload))).toEqual({ kind: 'rejected', reason: 'bad_payload' });
    }
    const rawBody = Buffer.from('{nope');
    const headers = { 'x-wc-webhook-topic': 'product.updated', 'x-wc-webhook-signature': signWooWebhook(rawBody, SECRET) };
    const notJson = { rawBody, headers, secret: SECRET, currency: null };
    expect(readWooCommerceWebhook(notJson)).toEqual({ kind: 'rejected', reason: 'bad_payload' });
  });
});
