import { fetchTrusting, selfSignedCertificate, startFakeShopifyAdmin } from '@app/testing';
import { ShopifyAdminClient } from './shopify-admin.client';

const TOKEN = 'shpat_0123456789abcdef0123456789abcdef';

/** Shopify is https only: the client and the fake over TLS with a throwaway CA (the process trust store untouched). */
describe('ShopifyAdminClient over https', () => {
  it('talks https to a shop with a test CA', async () => {
    const tls = selfSignedCertificate();
    const fake = await startFakeShopifyAdmin({ accessToken: TOKEN, tls });
    const trusting = fetchTrusting(tls.cert);
    try {
      expect(fake.url).toMatch(/^https:/);
      const client = new ShopifyAdminClient({ shopDomain: 'fake-prints', accessToken: TOKEN, endpoint: fake.url, fetch: trusting.fetch });
      expect(await client.shopName()).toBe('Fake Print Shop');
      expect(fake.requests.map((r) => r.outcome)).toEqual(['ok']);
    } finally {
      trusting.close();
      await fake.close();
    }
  });
});
