import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  fakeShopifyProduct,
  type FakeShopifyAdmin,
  fakeWooProduct,
  launchChromium,
  quadrantPicture,
  startFakeShopifyAdmin,
  startWooCommerceFake,
  type WooCommerceFake,
} from '@app/testing';
import { Api, type AppProcess, tempDir, waitFor } from './support/app-process';
import { acceptInvite, axeFindings, hasCount, hasText, PHONE, SCREENSHOTS, watchedContext } from './support/browser-page';
import { startMediaServer } from './support/media-server';
import { spawnShopApp } from './support/shop-app';
import { testCertificate } from './support/tls';

/**
 * The console's Connections page in headless Chromium against the built service and protocol fakes of Shopify's
 * Admin GraphQL API and WooCommerce's REST API, both over https with throwaway certificates. The service must
 * trust them through NODE_EXTRA_CA_CERTS, which Node reads only when a process starts: so this file spawns the
 * service (embedded mode, worker in process) rather than starting it in the test's process. Connect (the form's
 * request, field errors from the API), the test's shop name, a refused token shown as unauthorized with what to
 * do and replaced through Edit (write-only secrets), Sync now with its progress and report where the service has
 * the sync route, pause and resume, a token revoked in the shop, disconnect after a confirmation; axe at desktop
 * and phone size; screenshots test-artifacts/screenshots/console-connections-*.png.
 */
const OWNER = 'owner-key-for-console-connections-e2e';
const PASSWORD = 'a long and fine passphrase';
const SHOP_NAME = 'Studio North Prints';
const STORE_NAME = 'Atelier Woo';
const secret = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const TOKEN = secret('shpat_');
const WRONG_TOKEN = secret('shpat_');
const HOOK = secret('hook-');
const WOO_KEY = secret('ck_');
const WOO_SECRET = secret('cs_');
const WOO_HOOK = secret('hook-woo-');
const SECRETS = [TOKEN, WRONG_TOKEN, HOOK, WOO_KEY, WOO_SECRET, WOO_HOOK];

let shopify: FakeShopifyAdmin;
let woo: WooCommerceFake;
let media: { base: string; stop: () => Promise<void> };
let app: AppProcess;
let base: string;
let owner: Api;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const pictures = await Promise.all([quadrantPicture(96, 64), quadrantPicture(64, 96), quadrantPicture(80, 80)]);
  media = await startMediaServer(Object.fromEntries(pictures.map((p, i) => [`/p${i + 1}.png`, p.png])));
  const tls = testCertificate();
  shopify = await startFakeShopifyAdmin({ accessToken: TOKEN, shopName: SHOP_NAME, tls: { key: tls.key, cert: tls.cert } });
  // Two products with sizes in their options, one whose only option is no size (reported, not converted).
  for (const [i, id] of [101, 102].entries())
    shopify.products.push({ ...fakeShopifyProduct(id, 2), imageUrl: `${media.base}/p${i + 1}.png` });
  const unsized = fakeShopifyProduct(103, 1);
  unsized.imageUrl = `${media.base}/p3.png`;
  unsized.variants[0] = { ...unsized.variants[0], title: 'Large', options: [{ name: 'Size', value: 'Large' }] };
  shopify.products.push(unsized);
  woo = await startWooCommerceFake({ consumerKey: WOO_KEY, consumerSecret: WOO_SECRET, name: STORE_NAME });
  woo.add(fakeWooProduct(7, { variations: 1 }));
  ({ app, base } = await spawnShopApp({
    dataDir: tempDir('console-connections-'),
    shopifyUrl: shopify.url,
    certificates: [tls.cert, woo.ca],
    env: { OWNER_API_KEY: OWNER },
  }));
  owner = new Api(base, OWNER);
  browser = await launchChromium({ webgl: false });
}, 90_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.kill('SIGKILL');
  await shopify?.close();
  await woo?.close();
  await media?.stop();
});

describe('console: shop connections', () => {
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let showcaseId: number;
  let shopifyId: string;
  const status = () => page.locator('[data-testid=status]');
  const form = () => page.locator('form[data-form=connect]');
  const card = (shop: string) => page.locator('[data-testid=connection]', { has: page.locator('.conn-shop', { hasText: shop }) });
  const connection = async (id: string) => (await api.req('GET', `/api/v2/connections/${id}`)).body;
  const noSecretsOnPage = async () => {
    const html = await page.content();
    const values = await page.locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    for (const s of SECRETS) {
      expect(html).not.toContain(s);
      expect(values).not.toContain(s);
    }
  };

  it('opens the page from the navigation: no shop yet, the connect form', async () => {
    const user = (await owner.req('POST', '/api/admin/users', { email: 'prints@example.com', credits: 100, showcase_slots: 2 })).body;
    api = new Api(base, (await owner.req('POST', `/api/admin/users/${user.id}/keys`)).body.key);
    const s = await api.req('POST', '/api/v2/showcases', { description: 'Shop prints', items: [] });
    expect(s.status).toBe(201);
    showcaseId = s.body.id;
    const invite = (await owner.req('POST', `/api/admin/users/${user.id}/invite`, {})).body.invite_url;
    context = await watchedContext(browser, { errors: pageErrors, clipboardOrigin: base });
    page = await context.newPage();
    await acceptInvite(page, invite, PASSWORD);
    await page.waitForURL(`${base}/console`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
    await page.waitForURL(`${base}/console/connections`);
    expect(await page.getByRole('link', { name: 'Connections' }).getAttribute('aria-current')).toBe('page');
    await hasText(page.locator('[data-testid=connections]'), 'No shop connected yet.');
    // The showcase choice lists the account's showcase; Shopify is the default platform.
    await hasText(form().getByLabel('Showcase to fill').locator('option'), `Showcase ${showcaseId} — Shop prints`);
    expect(await form().getByLabel('Shopify', { exact: true }).isChecked()).toBe(true);
    expect(await form().getByLabel('Write back to the shop').locator('option').allTextContents()).toEqual([
      'AR links (metafields)',
      'AR links and the 3D model (media)',
      'Nothing',
    ]);
    expect(await axeFindings(page, 'connections (empty)')).toEqual([]);
  });

  it('refuses what the API refuses at the field it names, and a missing secret before sending', async () => {
    const f = form();
    await f.getByLabel('Shop domain').fill('prints.example.com');
    await f.getByRole('button', { name: 'Connect' }).click();
    // Nothing sent without the token: the field says so.
    await hasText(f.locator('#cn-access_token-err'), 'Enter the Admin API access token.');
    expect(await f.getByLabel('Admin API access token').getAttribute('aria-invalid')).toBe('true');
    await f.getByLabel('Admin API access token').fill(WRONG_TOKEN);
    await f.getByLabel('Webhook secret').fill(HOOK);
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === `${base}/api/v2/connections`);
    await f.getByRole('button', { name: 'Connect' }).click();
    expect((await answered).status()).toBe(400);
    await hasText(f.locator('#cn-shop_domain-err'), 'myshopify.com');
    expect(await f.getByLabel('Shop domain').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('shop_domain');
  });

  it('connects a Shopify shop with the form; a refused token shows as unauthorized, with what to do', async () => {
    const f = form();
    await f.getByLabel('Shop domain').fill('studio-north.myshopify.com');
    await f.getByLabel('Sizes written without a unit are in').selectOption('in');
    await f.getByLabel('Sync every (hours)').fill('12');
    await f.getByRole('button', { name: 'Add an option value' }).click();
    await f.getByLabel('Option value of row 1').fill('Oak frame');
    await f.getByLabel('Frame of row 1').selectOption('classic');
    await f.getByRole('button', { name: 'Add an option value' }).click();
    await f.getByLabel('Option value of row 2').fill('Unframed');
    // A row added by mistake goes again; focus moves to the row before it.
    await f.getByRole('button', { name: 'Add an option value' }).click();
    await f.getByLabel('Option value of row 3').fill('Walnut');
    await f.getByRole('button', { name: 'Remove row 3' }).click();
    await hasCount(f.locator('.frame-row'), 2);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('Unframed');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url() === `${base}/api/v2/connections`);
    await f.getByRole('button', { name: 'Connect' }).click();
    expect((await sent).postDataJSON()).toEqual({
      platform: 'shopify',
      shop_domain: 'studio-north.myshopify.com',
      access_token: WRONG_TOKEN,
      webhook_secret: HOOK,
      showcase_id: showcaseId,
      push: 'metafields',
      units: 'in',
      sync_interval_hours: 12,
      frames: { 'Oak frame': 'classic', Unframed: null },
    });
    // Connected, then tested at once: the fake refuses the token.
    const c = card('studio-north.myshopify.com');
    await hasText(c.locator('[data-testid=connection-status]'), 'Unauthorized');
    shopifyId = (await c.getAttribute('data-id'))!;
    expect((await connection(shopifyId)).status).toBe('unauthorized');
    await hasText(c.locator('[data-testid=test-result]'), 'Shopify refused the credentials');
    await hasText(c.locator('[data-testid=unauthorized]'), 'Unauthorized: The shop refused the stored access token');
    await hasText(c.locator('[data-testid=unauthorized]'), 'Develop apps');
    await hasText(c.locator('dl'), `Showcase ${showcaseId} — Shop prints`);
    await hasText(c.locator('dl'), 'Oak frame → Classic; Unframed → No frame');
    await hasText(c.locator('dl'), 'Every 12 hours');
    await hasText(c.locator('dl'), `${base}/webhooks/shopify/${shopifyId}`);
    // The form emptied: the secrets are nowhere on the page.
    expect(await form().getByLabel('Admin API access token').inputValue()).toBe('');
    await noSecretsOnPage();
    expect(await axeFindings(page, 'connections (unauthorized)')).toEqual([]);
  });

  it('takes a new token through Edit (saved secrets are never shown), then the test names the shop', async () => {
    const c = card('studio-north.myshopify.com');
    await c.getByRole('button', { name: 'Enter new credentials' }).click();
    const edit = c.locator('form[data-form=edit-connection]');
    const token = edit.getByLabel('Admin API access token');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('access_token');
    expect(await token.inputValue()).toBe('');
    expect(await token.getAttribute('placeholder')).toBe('saved — enter to replace');
    expect(await edit.getByLabel('Webhook secret').inputValue()).toBe('');
    expect(await edit.getByLabel('Sync every (hours)').inputValue()).toBe('12');
    await token.fill(TOKEN);
    const sent = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/api/v2/connections/${shopifyId}`));
    await edit.getByRole('button', { name: 'Save changes' }).click();
    // Only the new token: the webhook secret left empty is kept, unchanged settings are not sent.
    expect((await sent).postDataJSON()).toEqual({ access_token: TOKEN });
    await hasText(c.locator('[data-testid=test-result]'), `Connected to ${SHOP_NAME}.`);
    await hasText(c.locator('[data-testid=connection-status]'), 'Active');
    await hasCount(c.locator('[data-testid=unauthorized]'), 0);
    expect((await connection(shopifyId)).status).toBe('active');
    // Test connection again by its button.
    await c.getByRole('button', { name: 'Test connection' }).click();
    await hasText(status(), `Connected to ${SHOP_NAME}.`);
    await noSecretsOnPage();
  });

  it('syncs now with progress and shows the report with its CSV (or says the service has no sync)', async () => {
    const c = card('studio-north.myshopify.com');
    // Does this service have the sync route? A made-up connection id tells without starting anything.
    const probe = await new Api(base, api.key, false).req('POST', '/api/v2/connections/con_none/sync');
    expect(probe.status).toBe(404);
    await c.getByRole('button', { name: 'Sync now' }).click();
    if (probe.body.error.code === 'route_not_found') {
      await hasText(c.locator('[data-testid=sync-unavailable]'), "Sync isn't available on this service yet");
      await hasCount(page.getByRole('button', { name: 'Sync now' }), 0);
      return;
    }
    expect(probe.body.error.code).toBe('resource_missing');
    await hasText(c.locator('[data-testid=sync-state]'), /Syncing…|Finished/);
    await hasText(c.locator('[data-testid=sync-state]'), 'Finished', 120_000);
    const importId = (await connection(shopifyId)).last_sync.import_id as string;
    const run = (await api.req('GET', `/api/v2/imports/${importId}`)).body;
    // The page's counts are the import's.
    const shown = await c
      .locator('[data-testid=sync-counts] div')
      .evaluateAll((els) =>
        Object.fromEntries(els.map((e) => [e.querySelector('dt')!.textContent, Number(e.querySelector('dd')!.textContent)])),
      );
    expect(shown).toEqual({
      Products: run.counts.rows,
      New: run.counts.created,
      Updated: run.counts.updated,
      Unchanged: run.counts.unchanged,
      'Not converted': run.counts.invalid,
      Skipped: run.counts.skipped,
      Converting: run.counts.queued,
      Converted: run.counts.completed,
      Failed: run.counts.failed,
    });
    // Two products with sizes became pictures; the one without is reported.
    const items = (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items;
    expect(items.length).toBe(2);
    expect(run.counts.invalid).toBeGreaterThan(0);
    await hasText(c.locator('table'), 'size_unknown');
    expect(await c.locator('[data-testid=last-sync]').textContent()).not.toBe('Never');
    const csvUrl = await c.locator('[data-testid=sync-report]').getAttribute('href');
    expect(csvUrl).toBe(`/api/v2/imports/${importId}?format=csv`);
    const csv = await page.evaluate(async (u) => (await fetch(u)).text(), csvUrl!);
    expect(csv).toContain('size_unknown');
  });

  it('pauses and resumes', async () => {
    const c = card('studio-north.myshopify.com');
    await c.getByRole('button', { name: 'Pause' }).click();
    await hasText(c.locator('[data-testid=connection-status]'), 'Paused');
    expect((await connection(shopifyId)).status).toBe('paused');
    await hasText(c.locator('.hint').first(), 'Paused: no scheduled or webhook syncs');
    await c.getByRole('button', { name: 'Resume' }).click();
    await hasText(c.locator('[data-testid=connection-status]'), 'Active');
    expect((await connection(shopifyId)).status).toBe('active');
  });

  it('connects a WooCommerce store: its own fields and write-back choices', async () => {
    const f = form();
    await f.getByLabel('WooCommerce', { exact: true }).check();
    await hasCount(f.getByLabel('Shop domain'), 0);
    expect(await f.getByLabel('Write back to the shop').locator('option').allTextContents()).toEqual(['AR links (meta data)', 'Nothing']);
    await f.getByLabel('Store address').fill(`${woo.url}/`);
    await f.getByLabel('Consumer key').fill(WOO_KEY);
    await f.getByLabel('Consumer secret').fill(WOO_SECRET);
    await f.getByLabel('Webhook secret').fill(WOO_HOOK);
    await f.getByLabel('Sync every (hours)').fill('0');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url() === `${base}/api/v2/connections`);
    await f.getByRole('button', { name: 'Connect' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      platform: 'woocommerce',
      shop_url: `${woo.url}/`,
      sync_interval_hours: 0,
      frames: {},
    });
    const c = card(woo.url);
    await hasText(c.locator('[data-testid=test-result]'), `Connected to ${STORE_NAME}.`);
    await hasText(c.locator('dl'), 'Off (Sync now and webhooks only)');
    await hasCount(page.locator('[data-testid=connection]'), 2);
    await noSecretsOnPage();
  });

  it('shows a token revoked in the shop as unauthorized; axe and screenshots at desktop and phone size', async () => {
    shopify.revokeToken();
    const c = card('studio-north.myshopify.com');
    await c.getByRole('button', { name: 'Test connection' }).click();
    await hasText(c.locator('[data-testid=connection-status]'), 'Unauthorized');
    await hasText(c.locator('[data-testid=unauthorized]'), 'install it again with those scopes');
    expect((await connection(shopifyId)).status).toBe('unauthorized');
    expect(await axeFindings(page, 'connections')).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-connections-desktop.png'), fullPage: true });

    const phone = await watchedContext(browser, { viewport: PHONE, errors: pageErrors });
    await phone.addCookies(await context.cookies());
    const pp = await phone.newPage();
    await pp.goto(`${base}/console/connections`);
    await hasCount(pp.locator('[data-testid=connection]'), 2);
    await hasText(pp.locator('[data-testid=unauthorized]'), 'Unauthorized');
    await pp.screenshot({ path: join(SCREENSHOTS, 'console-connections-phone.png'), fullPage: true });
    // Nothing scrolls sideways on a phone.
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeFindings(pp, 'connections (phone)')).toEqual([]);
    expect(await pp.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    await phone.close();
  });

  it('disconnects after a confirmation (dismissed: nothing happens)', async () => {
    const c = card('studio-north.myshopify.com');
    page.once('dialog', (d) => void d.dismiss());
    await c.getByRole('button', { name: 'Disconnect' }).click();
    expect((await api.req('GET', `/api/v2/connections/${shopifyId}`)).status).toBe(200);
    await hasCount(page.locator('[data-testid=connection]'), 2);
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await c.getByRole('button', { name: 'Disconnect' }).click();
    await hasCount(page.locator('[data-testid=connection]'), 1);
    expect(asked).toContain('Disconnect studio-north.myshopify.com?');
    await hasText(status(), 'Disconnected studio-north.myshopify.com.');
    expect((await api.req('GET', `/api/v2/connections/${shopifyId}`)).status).toBe(404);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('con-list-title');
    await waitFor(async () => (await api.req('GET', '/api/v2/connections')).body.data.length === 1, 5_000, 'one connection left');
    expect(await page.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    await context.close();
  });
});
