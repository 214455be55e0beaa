import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { launchChromium, quadrantPicture, USER_AGENTS } from '@app/testing';
import { Api, sleep, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * Engagement analytics from the public pages, in headless Chromium against the running service (the
 * beacon script, apps/api/src/public-pages/beacon.ts; docs/analytics.md, "What the pages send"). A showcase
 * with two pictures, one sold in two sizes: its showcase, item and wall pages, the pictures' embed pages, the
 * widget on a shop's page, the desktop 3D page and the page its QR code opens, on an iPhone, an Android phone
 * and a Mac (real user agents: a headless one is not counted). Each page's events — views, the 3D preview
 * turned, "View in your space" pressed (Quick Look and Scene Viewer), buy links and the Quick Look banner
 * tapped, a variant chosen, the QR code opened — arrive as beacons and GET /api/v2/analytics counts exactly
 * them. Nothing is sent with Do Not Track or Global Privacy Control, nor by a showcase with analytics off; a
 * failing /api/events does not break a page. The Scene Viewer banner's redirect only goes to the item's link.
 */

const OWNER = 'owner-key-for-analytics-pages-e2e';
const SHOP = 'https://shop.example.com';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
type Opts = NonNullable<Parameters<Browser['newContext']>[0]>;
const IOS: Opts = { userAgent: USER_AGENTS.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const ANDROID: Opts = { userAgent: USER_AGENTS.android, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };
const DESKTOP: Opts = { userAgent: MAC, viewport: { width: 1024, height: 768 } };
const PLAIN_LINK = `${SHOP}/p/plain?ref=ar`;
const linkOf = (sku: string) => `${SHOP}/p/sized?sku=${sku}`;
const today = () => new Date().toISOString().slice(0, 10);

jest.setTimeout(300_000);

let app: TestApp;
let owner: Api;
let base: string;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let browser: Browser;
let shop: Server | undefined;
/** The showcase with analytics on, its two items (a plain picture, one with variants S and L), and their embed pages. */
let showcase: { id: number; url: string; site: string };
let plain: { id: number; embed: string };
let sized: { id: number; embed: string; def: string };
/** A showcase with analytics off. */
let quiet: { id: number; url: string; item: number; embed: string };

/** An event as the pages sent it: what counts (no id). */
interface Sent {
  site: string;
  kind: string;
  surface: string;
  item_id?: number;
  platform?: string;
  variant?: string;
}
/** Every event the pages sent, from every context. */
const sent: Sent[] = [];
/** Content-Security-Policy violations and page errors, from every context. */
const problems: string[] = [];

const doneItems = (r: any) =>
  r.items.every((i: any) => i.status === 'completed' && !i.variants?.some((v: any) => v.status === 'building' || v.build_job_id)) && r;

beforeAll(async () => {
  // Pictures narrower than MIN_THUMBNAIL_POSTER_PX (240): no test here reads a thumbnail, and their conversions
  // skip the thumbnails' encodes; the pages show the poster instead.
  media = await startMediaServer({
    '/square.png': (await quadrantPicture(200, 200)).png,
    '/plain.png': (await quadrantPicture(200, 150)).png,
  });
  app = await startServiceApp(
    OWNER,
    {
      ANALYTICS_FLUSH_MS: '100',
    },
    // The pages' beacons are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  const s = await owner.req('POST', '/api/v2/showcases', {
    layout_choice: 'grid',
    items: [
      { image_url: `${media.base}/plain.png`, title: 'Plain', price: '$40', call_to_action: 'Buy', link_url: PLAIN_LINK },
      {
        image_url: `${media.base}/square.png`,
        title: 'Sized',
        variants: [
          { sku: 'S', width_inches: 12, height_inches: 12, price: '$20', link_url: linkOf('S'), call_to_action: 'Buy', default: true },
          { sku: 'L', width_inches: 30, height_inches: 30, price: '$90', link_url: linkOf('L'), call_to_action: 'Buy' },
        ],
      },
    ],
  });
  expect(s.status).toBe(201);
  const q = await owner.req('POST', '/api/v2/showcases', {
    layout_choice: 'grid',
    analytics: false,
    items: [{ image_url: `${media.base}/plain.png`, title: 'Quiet', price: '$10', link_url: `${SHOP}/p/quiet` }],
  });
  expect(q.status).toBe(201);
  const [a, b] = await Promise.all(
    [s.body.id, q.body.id].map((id) =>
      waitFor(async () => doneItems((await owner.req('GET', `/api/v2/showcases/${id}`)).body), 240_000, `showcase ${id} built`),
    ),
  );
  showcase = { id: a.id, url: a.url, site: a.url.split('/').pop() };
  const embedId = (i: any) => (i.embed_url as string).split('/').pop()!;
  plain = { id: a.items[0].id, embed: embedId(a.items[0]) };
  sized = { id: a.items[1].id, embed: embedId(a.items[1]), def: 'S' };
  quiet = { id: b.id, url: b.url, item: b.items[0].id, embed: embedId(b.items[0]) };
  // The iPhone's user agent as the browser's own: a beacon a page sends while it is
  // being left goes out with the browser's user agent, not the context's (headless Chromium's is not counted).
  browser = await launchChromium({ userAgent: USER_AGENTS.ios });
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await media?.stop();
  if (shop) await new Promise((r) => shop!.close(r));
});

/** Every beacon a context sends (from any frame), parsed; `into` collects their events. */
function listen(ctx: BrowserContext, into: Sent[] = sent): { requests: string[] } {
  const requests: string[] = [];
  ctx.on('request', (r) => {
    if (!r.url().endsWith('/api/events')) return;
    requests.push(r.url());
    try {
      const body = JSON.parse(r.postData() ?? '');
      for (const e of body.events) {
        expect(e.id).toMatch(/^[A-Za-z0-9_-]{8,40}$/);
        const { id: _id, ...rest } = e;
        into.push({ site: body.site, ...rest });
      }
    } catch (e) {
      problems.push(`unreadable beacon: ${(e as Error).message}`);
    }
  });
  return { requests };
}

/**
 * A browser context as a visitor's: its user agent, "View in your space", Scene Viewer intents and buy links
 * clicked without leaving the page (the beacon script sees the click first), CSP violations and page errors
 * recorded. The shop's pages answer with a plain page.
 */
async function visitor(opts: Opts, into: Sent[] = sent, init?: () => void) {
  const ctx = await browser.newContext(opts);
  if (init) await ctx.addInitScript(init);
  await ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as any).__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
    });
    document.addEventListener('click', (e) => {
      const a = (e.target as Element | null)?.closest?.('a');
      const href = a?.getAttribute('href') ?? '';
      if (a && (a.rel === 'ar' || href.startsWith('intent:') || a.matches('.buy,.caption .link,.banner .cta'))) e.preventDefault();
    });
  });
  await ctx.route(`${SHOP}/**`, (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Shop</title>' }));
  const { requests } = listen(ctx, into);
  ctx.on('page', (p) => p.on('pageerror', (e) => problems.push(`page error on ${p.url()}: ${e.message}`)));
  ctx.on('console', (m) => {
    if (/content security policy/i.test(m.text())) problems.push(m.text());
  });
  return { ctx, requests };
}

/** Waits until `n` events are in `list`, then a little more for any that should not be there. */
async function sentCount(list: Sent[], n: number) {
  await waitFor(async () => list.length >= n, 15_000, `${n} events sent (${list.length} so far)`);
  await sleep(300);
  expect(list.length).toBe(n);
}

/** Checks a test's events (in any order) and adds them to all the pages sent. */
function expectSent(list: Sent[], want: Sent[]) {
  expect(sorted(list)).toEqual(sorted(want));
  sent.push(...list);
}

async function cspOf(p: Page): Promise<string[]> {
  return p.evaluate(() => (window as any).__csp ?? []);
}

const report = async (query = '') =>
  (await owner.req('GET', `/api/v2/analytics?from=${today()}&to=${today()}&showcase_id=${showcase.id}${query}`)).body;

const EXPECTED_TOTALS = {
  views: 11,
  interactions: 1,
  ar_launches: 7,
  banner_taps: 4,
  qr_opens: 1,
  variant_selects: 1,
  room_views: 0,
};

describe('the public pages send their events', () => {
  it('showcase page: a view per picture on screen; "View in your space" and the buy link (iPhone, Android)', async () => {
    const mine: Sent[] = []; // this test's events: they join `sent` when checked
    const ios = await visitor(IOS, mine);
    const p = await ios.ctx.newPage();
    await p.goto(showcase.url);
    expect(await p.locator('body').getAttribute('data-beacon')).toBe(
      JSON.stringify({ url: `${base}/api/events`, site: showcase.site, surface: 'showcase' }),
    );
    await p.locator(`#item-${sized.id}`).scrollIntoViewIfNeeded();
    await p.locator(`#item-${plain.id} a.media`).scrollIntoViewIfNeeded();
    await p.locator(`#item-${plain.id} a[rel="ar"]`).click();
    await p.locator(`#item-${plain.id} .caption a.link`).click();
    await sentCount(mine, 4);
    expect(await cspOf(p)).toEqual([]);
    await ios.ctx.close();

    const android = await visitor(ANDROID, mine);
    const a = await android.ctx.newPage();
    await a.goto(showcase.url);
    await a.locator(`#item-${sized.id}`).scrollIntoViewIfNeeded();
    await a.locator(`#item-${plain.id} a.media`).scrollIntoViewIfNeeded();
    await a.locator(`#item-${sized.id} a.ar`).click();
    await sentCount(mine, 7);
    await android.ctx.close();
    const site = showcase.site;
    expectSent(mine, [
      { site, kind: 'view', surface: 'showcase', item_id: plain.id },
      { site, kind: 'view', surface: 'showcase', item_id: sized.id },
      { site, kind: 'ar_launch', surface: 'showcase', item_id: plain.id, platform: 'quick_look' },
      { site, kind: 'banner_tap', surface: 'showcase', item_id: plain.id },
      { site, kind: 'view', surface: 'showcase', item_id: plain.id },
      { site, kind: 'view', surface: 'showcase', item_id: sized.id },
      { site, kind: 'ar_launch', surface: 'showcase', item_id: sized.id, platform: 'scene_viewer' },
    ]);
  });

  it('item pages: the view, Quick Look and its banner tap (which leaves the page: sent on the way out), a variant, Scene Viewer, buy', async () => {
    const mine: Sent[] = [];
    const ios = await visitor(IOS, mine);
    const p = await ios.ctx.newPage();
    await p.goto(`${showcase.url}/items/${plain.id}`);
    await p.locator('a[rel="ar"]').click();
    await sentCount(mine, 2);
    // Quick Look's banner button: the page opens the link (QUICK_LOOK_TAP_SCRIPT) and the tap goes out with it,
    // on pagehide. Playwright does not report a beacon of a page being left: the server's count shows it.
    const taps = async () => (await report('&group_by=item')).groups.find((g: any) => g.item_id === plain.id)?.banner_taps ?? 0;
    await waitFor(async () => (await report()).totals.views === 5, 10_000, 'the views so far counted');
    const before = await taps();
    await p
      .locator('a[rel="ar"]')
      .evaluate((el) => el.dispatchEvent(new MessageEvent('message', { data: '_apple_ar_quicklook_button_tapped' })));
    await p.waitForURL(PLAIN_LINK);
    await waitFor(async () => (await taps()) === before + 1, 10_000, 'the banner tap sent on the way out');
    mine.push({ site: showcase.site, kind: 'banner_tap', surface: 'item', item_id: plain.id });
    await sentCount(mine, 3);
    await ios.ctx.close();

    const android = await visitor(ANDROID, mine);
    const a = await android.ctx.newPage();
    await a.goto(`${showcase.url}/items/${sized.id}`);
    await sentCount(mine, 4);
    await a.locator('label[data-sku="L"]').click();
    await a.waitForURL(/variant=L/);
    await a.locator('.details a.ar').click();
    await a.locator('.details a.buy').click();
    await sentCount(mine, 7);
    expect(await cspOf(a)).toEqual([]);
    await android.ctx.close();
    const site = showcase.site;
    expectSent(mine, [
      { site, kind: 'view', surface: 'item', item_id: plain.id },
      { site, kind: 'ar_launch', surface: 'item', item_id: plain.id, platform: 'quick_look' },
      { site, kind: 'banner_tap', surface: 'item', item_id: plain.id },
      { site, kind: 'view', surface: 'item', item_id: sized.id, variant: 'S' },
      { site, kind: 'variant_select', surface: 'item', item_id: sized.id, variant: 'L' },
      { site, kind: 'ar_launch', surface: 'item', item_id: sized.id, platform: 'scene_viewer', variant: 'L' },
      { site, kind: 'banner_tap', surface: 'item', item_id: sized.id, variant: 'L' },
    ]);
  });

  it('wall page: the view and Quick Look', async () => {
    const mine: Sent[] = [];
    const ios = await visitor(IOS, mine);
    const p = await ios.ctx.newPage();
    await p.goto(`${showcase.url}/items/${sized.id}/wall`);
    await p.locator('a[rel="ar"]').click();
    await sentCount(mine, 2);
    expect(await cspOf(p)).toEqual([]);
    await ios.ctx.close();
    const site = showcase.site;
    expectSent(mine, [
      { site, kind: 'view', surface: 'wall', item_id: sized.id, variant: 'S' },
      { site, kind: 'ar_launch', surface: 'wall', item_id: sized.id, platform: 'quick_look', variant: 'S' },
    ]);
  });

  it("embed page (Android): the view, Scene Viewer and the banner's buy link, as the embed id's", async () => {
    const mine: Sent[] = [];
    const android = await visitor(ANDROID, mine);
    const a = await android.ctx.newPage();
    await a.goto(`${base}/embed/${plain.embed}`);
    await a.locator('#ar-launch').click();
    await a.locator('.banner .cta').click();
    await sentCount(mine, 3);
    expect(await cspOf(a)).toEqual([]);
    await android.ctx.close();
    const site = plain.embed;
    expectSent(mine, [
      { site, kind: 'view', surface: 'embed', item_id: plain.id },
      { site, kind: 'ar_launch', surface: 'embed', item_id: plain.id, platform: 'scene_viewer' },
      { site, kind: 'banner_tap', surface: 'embed', item_id: plain.id },
    ]);
  });

  it("the widget on a shop's page: the embed page inside reports as the widget", async () => {
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<div id="w" style="width:360px;height:300px" data-service-embed="${plain.embed}"></div>
<script src="${base}/api/v1/widget.js"></script></body></html>`);
    });
    await new Promise<void>((r) => shop!.listen(0, '127.0.0.1', r));
    const mine: Sent[] = [];
    const ios = await visitor(IOS, mine);
    const p = await ios.ctx.newPage();
    await p.goto(`http://localhost:${(shop.address() as AddressInfo).port}/`);
    const frame = p.frameLocator('#w >> iframe');
    await frame.locator('a[rel="ar"]').click();
    await sentCount(mine, 2);
    await ios.ctx.close();
    const site = plain.embed;
    expectSent(mine, [
      { site, kind: 'view', surface: 'widget', item_id: plain.id },
      { site, kind: 'ar_launch', surface: 'widget', item_id: plain.id, platform: 'quick_look' },
    ]);
  });

  it('the widget in job mode (a v1 conversion): its embed page reports as the widget, for the job; job_id reads it', async () => {
    const created = await owner.req('POST', '/api/v1/convert', { image_url: `${media.base}/plain.png` });
    expect(created.status).toBe(202);
    const jobId = created.body.job_id as string;
    await waitFor(async () => (await owner.req('GET', `/api/v1/status/${jobId}`)).body.status === 'completed', 90_000, 'the v1 job');
    const emb = ((await owner.req('GET', `/api/v1/result/${jobId}`)).body.embed_url as string).split('/').pop()!;
    const page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<div id="w" style="width:360px;height:300px" data-service-job="${jobId}" data-service-key="${OWNER}"></div>
<script src="${base}/api/v1/widget.js"></script></body></html>`);
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    try {
      // Not in `sent`: the showcase's counts below leave this job out.
      const mine: Sent[] = [];
      const ios = await visitor(IOS, mine);
      const p = await ios.ctx.newPage();
      await p.goto(`http://localhost:${(page.address() as AddressInfo).port}/`);
      await p.frameLocator('#w >> iframe').locator('a[rel="ar"]').click();
      await sentCount(mine, 2);
      expect(await cspOf(p)).toEqual([]);
      await ios.ctx.close();
      // The same events as a showcase picture's, as the job's emb_ id and without an item.
      expect(sorted(mine)).toEqual(
        sorted([
          { site: emb, kind: 'view', surface: 'widget' },
          { site: emb, kind: 'ar_launch', surface: 'widget', platform: 'quick_look' },
        ]),
      );
      const r = await waitFor(
        async () => {
          const x = (await owner.req('GET', `/api/v2/analytics?from=${today()}&to=${today()}&job_id=${jobId}`)).body;
          return x.totals.ar_launches >= 1 && x;
        },
        15_000,
        "the job's counts",
      );
      expect(r.totals).toMatchObject({ views: 1, ar_launches: 1, unique_visitors: 1 });
    } finally {
      await new Promise((r) => page.close(r));
    }
  });

  it('the 3D page: turning the preview is one interaction; the phone that opens its QR code reports qr_open', async () => {
    // The QR code is the page's address with the marker (a showcase with analytics off: the plain address).
    const qr = (url: string) => QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    const page3d = async (embed: string) => (await fetch(`${base}/embed/${embed}`, { headers: { 'user-agent': MAC } })).text();
    expect(await page3d(sized.embed)).toContain(await qr(`${base}/embed/${sized.embed}?src=qr`));
    expect(await page3d(quiet.embed)).toContain(await qr(`${base}/embed/${quiet.embed}`));
    const mine: Sent[] = [];
    const mac = await visitor(DESKTOP, mine);
    const p = await mac.ctx.newPage();
    await p.goto(`${base}/embed/${sized.embed}`);
    await p.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 60_000 });
    const box = (await p.locator('model-viewer').boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    // Two drags: still one interaction per page load.
    for (const dx of [160, -120]) {
      await p.mouse.move(x, y);
      await p.mouse.down();
      await p.mouse.move(x + dx, y + 20, { steps: 12 });
      await p.mouse.up();
    }
    // The QR dialog is no AR launch.
    await p.locator('#ar-launch').click();
    await p.waitForSelector('#qr.open svg');
    await sentCount(mine, 2);
    expect(await cspOf(p)).toEqual([]);
    await mac.ctx.close();

    const ios = await visitor(IOS, mine);
    const phone = await ios.ctx.newPage();
    await phone.goto(`${base}/embed/${sized.embed}?src=qr`);
    await sentCount(mine, 4);
    // The marker is gone from the address: a reload is no second QR open.
    expect(phone.url()).toBe(`${base}/embed/${sized.embed}`);
    await ios.ctx.close();
    const site = sized.embed;
    expectSent(mine, [
      { site, kind: 'view', surface: 'embed', item_id: sized.id, variant: 'S' },
      { site, kind: 'interact', surface: 'embed', item_id: sized.id, variant: 'S' },
      { site, kind: 'qr_open', surface: 'qr', item_id: sized.id, variant: 'S' },
      { site, kind: 'view', surface: 'qr', item_id: sized.id, variant: 'S' },
    ]);
  });

  it('GET /api/v2/analytics counts exactly those events: per item and per AR platform', async () => {
    expect(problems).toEqual([]);
    const r = await waitFor(
      async () => {
        const x = await report();
        return x.totals.views >= EXPECTED_TOTALS.views && x.totals.interactions >= 1 && x;
      },
      15_000,
      'the counts',
    );
    await sleep(500);
    expect((await report()).totals).toEqual({ ...EXPECTED_TOTALS, unique_visitors: expect.any(Number) });
    expect(r.totals.unique_visitors).toBeGreaterThan(0);
    const items = Object.fromEntries((await report('&group_by=item')).groups.map((g: any) => [g.item_id, g]));
    expect(items[plain.id]).toMatchObject({ views: 5, interactions: 0, ar_launches: 4, banner_taps: 3, qr_opens: 0, variant_selects: 0 });
    expect(items[sized.id]).toMatchObject({ views: 6, interactions: 1, ar_launches: 3, banner_taps: 1, qr_opens: 1, variant_selects: 1 });
    const platforms = Object.fromEntries(
      (await report('&group_by=platform')).groups.filter((g: any) => g.ar_launches > 0).map((g: any) => [g.key, g.ar_launches]),
    );
    expect(platforms).toEqual({ quick_look: 4, scene_viewer: 3 });
    // By surface, as the pages sent them.
    const views: Record<string, number> = {};
    for (const e of sent.filter((x) => x.kind === 'view')) views[e.surface] = (views[e.surface] ?? 0) + 1;
    expect(views).toEqual({ showcase: 4, item: 2, wall: 1, embed: 2, widget: 1, qr: 1 });
  });
});

describe('nothing is sent', () => {
  const pages = () => [
    showcase.url,
    `${showcase.url}/items/${sized.id}`,
    `${showcase.url}/items/${sized.id}/wall`,
    `${base}/embed/${plain.embed}`,
    `${base}/embed/${sized.embed}?src=qr`,
  ];

  it('with Do Not Track or Global Privacy Control (the browser says so: the page sends nothing)', async () => {
    const before = (await report()).totals;
    for (const [what, header, init] of [
      ['DNT', { DNT: '1' }, () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })],
      ['GPC', { 'Sec-GPC': '1' }, () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })],
    ] as const) {
      const none: Sent[] = [];
      const v = await visitor({ ...IOS, extraHTTPHeaders: header }, none, init);
      const p = await v.ctx.newPage();
      for (const url of pages()) {
        await p.goto(url);
        await p.evaluate(() => document.querySelectorAll('a[rel="ar"], .buy, .banner .cta').forEach((a) => (a as HTMLElement).click()));
        await sleep(1300);
      }
      await v.ctx.close();
      const requests = v.requests;
      expect([what, requests]).toEqual([what, []]);
    }
    await sleep(500);
    expect((await report()).totals).toEqual(before);
    expect(problems).toEqual([]);
  });

  it('by a showcase with analytics off: no beacon script, no data, no request', async () => {
    const none: Sent[] = [];
    const v = await visitor(ANDROID, none);
    const p = await v.ctx.newPage();
    for (const url of [
      quiet.url,
      `${quiet.url}/items/${quiet.item}`,
      `${quiet.url}/items/${quiet.item}/wall`,
      `${base}/embed/${quiet.embed}`,
    ]) {
      const res = await p.goto(url);
      expect(res!.status()).toBe(200);
      expect(await p.locator('body[data-beacon]').count()).toBe(0);
      expect(await p.content()).not.toContain('sendBeacon');
      expect(res!.headers()['content-security-policy']).not.toContain("connect-src 'self'");
      await p.evaluate(() =>
        document.querySelectorAll('a.ar, #ar-launch, .buy, .banner .cta, .caption .link').forEach((a) => (a as HTMLElement).click()),
      );
      await sleep(1300);
    }
    await v.ctx.close();
    expect(v.requests).toEqual([]);
    expect(none).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a failing /api/events (500) does not break a page: the variant selector, the links and the next pages still work', async () => {
    const before = (await report()).totals;
    const tried: Sent[] = [];
    const v = await visitor(IOS, tried);
    let failed = 0;
    await v.ctx.route('**/api/events', (r) => {
      failed++;
      return r.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{}}' });
    });
    const p = await v.ctx.newPage();
    await p.goto(`${showcase.url}/items/${sized.id}`);
    await p.locator('label[data-sku="L"]').click();
    await p.waitForURL(/variant=L/);
    expect(await p.locator('.details .price').innerText()).toBe('$90');
    await p.locator('.details a[rel="ar"]').click();
    // The AR launch goes out a second after it is queued: wait until its beacon has, and every beacon so far was
    // refused, before leaving the page. A beacon the page sends while it unloads can leave before the context's
    // route sees it; in a CI run with two files side by side the AR launch once went out that way and was counted.
    await waitFor(
      async () => tried.some((e) => e.kind === 'ar_launch') && failed >= 1 && failed >= v.requests.length,
      10_000,
      'the AR launch beacon to fail',
    );
    // Navigation still works (and the page's keyboard script).
    await p.keyboard.press('Escape');
    await p.waitForURL(new RegExp(`${showcase.url}(\\?.*)?#item-${sized.id}$`));
    await p.locator(`#item-${sized.id}`).scrollIntoViewIfNeeded();
    await sleep(1300);
    await v.ctx.close();
    expect(tried.length).toBeGreaterThanOrEqual(3);
    expect(problems).toEqual([]);
    await sleep(500);
    expect((await report()).totals).toEqual(before);
  });
});

describe("Scene Viewer's banner link: GET /r/{site}/{item}", () => {
  const r = (path: string, ua = USER_AGENTS.android) => fetch(`${base}${path}`, { redirect: 'manual', headers: { 'user-agent': ua } });

  it("redirects to the item's own link and counts a banner tap", async () => {
    const before = (await report()).totals.banner_taps;
    const a = await r(`/r/${showcase.site}/${plain.id}?to=${encodeURIComponent(PLAIN_LINK)}&s=item`);
    expect(a.status).toBe(302);
    expect(a.headers.get('location')).toBe(PLAIN_LINK);
    expect(a.headers.get('cache-control')).toBe('no-store');
    // A variant's link, through the item's embed id.
    const b = await r(`/r/${sized.embed}/${sized.id}?to=${encodeURIComponent(linkOf('L'))}&v=L`);
    expect([b.status, b.headers.get('location')]).toEqual([302, linkOf('L')]);
    await waitFor(async () => (await report()).totals.banner_taps === before + 2, 10_000, 'the two taps counted');
    const items = Object.fromEntries((await report('&group_by=item')).groups.map((g: any) => [g.item_id, g.banner_taps]));
    expect([items[plain.id], items[sized.id]]).toEqual([4, 2]);
    // With DNT: redirected, not counted.
    const dnt = await fetch(`${base}/r/${showcase.site}/${plain.id}?to=${encodeURIComponent(PLAIN_LINK)}`, {
      redirect: 'manual',
      headers: { 'user-agent': USER_AGENTS.android, dnt: '1' },
    });
    expect(dnt.status).toBe(302);
    await sleep(500);
    expect((await report()).totals.banner_taps).toBe(before + 2);
  });

  it('never anywhere else: another URL is 400, an item of another site or an unknown one 404', async () => {
    const before = (await report()).totals.banner_taps;
    for (const to of ['https://evil.example/phish', `${PLAIN_LINK}&x=1`, 'javascript:alert(1)', linkOf('S'), '']) {
      const res = await r(`/r/${showcase.site}/${plain.id}?to=${encodeURIComponent(to)}`);
      expect([to, res.status, res.headers.get('location')]).toEqual([to, 400, null]);
    }
    expect((await r(`/r/${showcase.site}/${plain.id}`)).status).toBe(400);
    for (const path of [
      `/r/${showcase.site}/${quiet.item}?to=${encodeURIComponent(`${SHOP}/p/quiet`)}`,
      `/r/${plain.embed}/${sized.id}?to=${encodeURIComponent(linkOf('L'))}`,
      `/r/shw_aaaaaaaaaaaaaaaaaaaaaaaa/${plain.id}?to=${encodeURIComponent(PLAIN_LINK)}`,
      `/r/${showcase.site}/99999999999?to=${encodeURIComponent(PLAIN_LINK)}`,
      `/r/nope/${plain.id}?to=${encodeURIComponent(PLAIN_LINK)}`,
    ]) {
      const res = await r(path);
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 404, null]);
    }
    await sleep(500);
    expect((await report()).totals.banner_taps).toBe(before);
  });
});

/** Events in a stable order, for comparing lists. */
function sorted(list: Sent[]): Sent[] {
  return [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
