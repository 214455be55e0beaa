import { startFakeShopifyAdmin } from '@app/testing';
import { ShopUnavailableError } from '@app/shops';
import { defaultShopClients, guardedShopFetch } from './shop-clients';

/** The real clients' transport: the SSRF guard for merchant-typed addresses, and the operator's Shopify override. */
describe('shop clients', () => {
  it("refuses a store address on the service's own network unless private networks are allowed", async () => {
    const err = await guardedShopFetch(false)('https://127.0.0.1:9/wp-json/').catch((e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(String((err as Error & { cause?: Error }).cause?.message)).toMatch(/private or reserved/);
    // With them allowed it gets as far as connecting (nothing listens on port 9).
    const refused = await guardedShopFetch(true)('https://127.0.0.1:9/wp-json/').catch(
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  it('reaches shops over https only', async () => {
    await expect(guardedShopFetch(true)('http://shop.example.com/')).rejects.toThrow(TypeError);
  });

  it('a WooCommerce client on a private address fails as unavailable without sending anything', async () => {
    const clients = defaultShopClients({
      allowPrivateNetworks: false,
      connections: { secretKey: '', secretKeySource: 'env', retryBackoffMs: 500 },
    });
    const client = clients.woocommerce({ shopUrl: 'https://10.0.0.1', consumerKey: 'ck', consumerSecret: 'cs', maxAttempts: 1 });
    await expect(client.storeName()).rejects.toBeInstanceOf(ShopUnavailableError);
  });

  it('sends Shopify calls to SHOPIFY_ADMIN_BASE_URL when the operator set one', async () => {
    const fake = await startFakeShopifyAdmin({ accessToken: 'shpat_test', shopName: 'Override Shop' });
    try {
      const clients = defaultShopClients({
        allowPrivateNetworks: false,
        connections: { secretKey: '', secretKeySource: 'env', shopifyAdminBaseUrl: fake.url, retryBackoffMs: 500 },
      });
      expect(await clients.shopify({ shopDomain: 'any.myshopify.com', accessToken: 'shpat_test' }).shopName()).toBe('Override Shop');
    } finally {
      await fake.close();
    }
  });

  it("retries a shop's 5xx after the configured backoff (SHOP_RETRY_BACKOFF_MS), doubled each try", async () => {
    const fake = await startFakeShopifyAdmin({ accessToken: 'shpat_test', shopName: 'Flaky Shop' });
    try {
      const clients = defaultShopClients({
        allowPrivateNetworks: false,
        connections: { secretKey: '', secretKeySource: 'env', shopifyAdminBaseUrl: fake.url, retryBackoffMs: 40 },
      });
      const client = clients.shopify({ shopDomain: 'any.myshopify.com', accessToken: 'shpat_test' });
      fake.fault({ status: 503 }, { status: 502 });
      expect(await client.shopName()).toBe('Flaky Shop');
      // Two failures: 40 ms, then 80 ms (the default would have waited 500 + 1000).
      expect(client.gql.stats).toMatchObject({ retried: 2, waitedMs: 120 });
      expect(fake.requests.map((r) => r.outcome)).toEqual(['fault', 'fault', 'ok']);
    } finally {
      await fake.close();
    }
  });
});
