import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '@app/testing';
import { Api, ROOT, sleep, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * The widget by SKU on shops' product pages (another origin), in headless Chromium against the running service:
 * a print sold in three sizes (variants) and a plain work known by its external_id. A Shopify-like page (the
 * theme block's output: data-service-variants, the cart form's [name="id"], `?variant=` rewritten with
 * history.replaceState), a WooCommerce-like page (real jQuery; found_variation and reset_data on
 * form.variations_form) and a plain page calling ARWidget.setSku. Each time the frame shows the right item and
 * SKU (read inside the frame); a switch between variants of the item happens inside the loaded frame (its
 * document survives), another item gets a new frame, the host page never reloads; an unknown SKU hides the
 * element; the page asks the lookup once for all its SKUs; each switch is a variant_select of surface widget,
 * counted by GET /api/v2/analytics. Screenshot: test-artifacts/screenshots/widget-sku-shopify.png.
 */

const OWNER = 'owner-key-for-widget-sku-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
/** A real browser's user agent: a headless one's beacons are not counted (docs/analytics.md, bots). */
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const VARIANTS = [
  { sku: 'DUNES-S', name: 'Small, 12 × 16 in', width_inches: 12, height_inches: 16, price: '$40', default: true },
  { sku: 'DUNES-M', name: 'Medium, 18 × 24 in', width_inches: 18, height_inches: 24, price: '$80' },
  {
    sku: 'DUNES-L',
    name: 'Large, 24 × 32 in',
    width_inches: 24,
    height_inches: 32,
    price: '$140',
    frame: { style: 'thin', color: 'black' },
  },
];
/** The Shopify variant ids the theme block maps (one to a SKU the showcase does not have). */
const SHOPIFY_IDS: Record<string, string> = {
  '4401': 'DUNES-S',
  '4402': 'DUNES-M',
  '4403': 'DUNES-L',
  '4404': 'HARBOUR-1',
  '4405': 'NOT-IN-SHOWCASE',
};
const today = () => new Date().toISOString().slice(0, 10);

jest.setTimeout(300_000);

let app: TestApp;
let owner: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let site: Server;
let siteBase: string;
let browser: Browser;
let showcase: { id: number; publicId: string };
let dunes: any;
let harbour: any;
/** The lookup's answer per SKU (what the frames must show). */
let answers: Record<string, any>;
/** Every beacon event the pages sent, with the frame's site. */
/** Every console message of the pages and frames (shown when a frame does not show what it should). */
const logs: string[] = [];
const events: { site: string; kind: string; surface: string; item_id?: number; variant?: string }[] = [];

function shell(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#222}.wrap{display:grid;grid-template-columns:520px 1fr;gap:40px;max-width:1100px;margin:32px auto;padding:0 24px}
h1{font-size:28px;margin:0 0 8px}.price{font-size:20px;margin:0 0 16px}select,button{font:inherit;padding:8px 12px}button{background:#111;color:#fff;border:0;border-radius:6px;margin-top:12px}
.ar{width:520px;height:440px}header{padding:16px 24px;border-bottom:1px solid #ddd;font-weight:700}</style></head>
<body><header>Dune Prints Co.</header>${body}<script>window.__hostMarker = Math.random();</script></body></html>`;
}

/** A Shopify product page: the theme's form and the theme block's output (what integrations/shopify renders). */
function shopifyPage(): string {
  const options = Object.entries(SHOPIFY_IDS)
    .map(([id, sku]) => `<option value="${id}">${sku}</option>`)
    .join('');
  return shell(
    'Dunes at dusk – Dune Prints Co.',
    `<main class="wrap"><div>
<div id="ar" class="ar" data-service-showcase="${showcase.publicId}" data-service-sku="DUNES-S" data-service-variants='${JSON.stringify(SHOPIFY_IDS)}'></div>
</div><div><h1>Dunes at dusk</h1><p class="price">From $40</p>
<form method="post" action="/cart/add" id="product-form"><label>Size <select name="id">${options}</select></label><br><button type="submit">Add to cart</button></form>
</div></main><script src="${app.base}/api/v1/widget.js"></script>`,
  );
}

/** A WooCommerce product page: jQuery, form.variations_form with its variations (as WooCommerce writes them). */
function wooPage(): string {
  const variations = VARIANTS.map((v, i) => ({ variation_id: 11 + i, sku: v.sku, attributes: { attribute_size: v.sku } }));
  return shell(
    'Dunes at dusk – Shop',
    `<main class="wrap"><div class="product">
<div id="ar" class="ar" data-service-showcase="${showcase.publicId}" data-service-sku="DUNES-S"></div>
<form class="variations_form cart" data-product_variations='${JSON.stringify(variations)}'><select name="attribute_size">${VARIANTS.map((v) => `<option>${v.sku}</option>`).join('')}</select>
<input type="hidden" name="variation_id" value=""></form></div></main>
<script src="${app.base}/api/v1/widget.js"></script>`,
    `<script src="/jquery.js"></script>`,
  );
}

/** Any site: the JS API, and an element whose SKU the showcase does not have. */
function plainPage(): string {
  return shell(
    'Gallery',
    `<main class="wrap"><div><div id="viewer" class="ar"></div>
<div id="missing" class="ar" data-service-showcase="${showcase.publicId}" data-service-sku="NOPE-1"></div></div></main>
<script src="${app.base}/api/v1/widget.js"></script>
<script>ARWidget.show('#viewer', { showcase: '${showcase.publicId}', sku: 'HARBOUR-1' });</script>`,
  );
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  media = await startMediaServer();
  app = await startServiceApp(OWNER, {
    ANALYTICS_FLUSH_MS: '100',
  });
  owner = new Api(app.base, OWNER);
  const s = await owner.req('POST', '/api/v2/showcases', {
    layout_choice: 'grid',
    items: [
      { image_url: `${media.base}/street.jpg`, title: 'Dunes at dusk', variants: VARIANTS },
      { image_url: `${media.base}/street.jpg`, title: 'Harbour', external_id: 'HARBOUR-1', price: '$120' },
    ],
  });
  expect(s.status).toBe(201);
  showcase = { id: s.body.id, publicId: s.body.url.split('/').pop() };
  const items = await waitFor(
    async () => {
      const r = (await owner.req('GET', `/api/v2/showcases/${showcase.id}`)).body;
      const busy = r.items.some((i: any) => i.status !== 'completed' || i.variants?.some((v: any) => v.status !== 'ready'));
      return !busy && r.items;
    },
    240_000,
    'the items and their variants to be built',
  );
  [dunes, harbour] = items;
  const r = await fetch(`${app.base}/showcase/${showcase.publicId}/skus?sku=DUNES-S&sku=DUNES-M&sku=DUNES-L&sku=HARBOUR-1`);
  answers = (await r.json()).skus;
  expect(Object.values(answers).every(Boolean)).toBe(true);
  const jquery = readFileSync(join(ROOT, 'node_modules/jquery/dist/jquery.min.js'));
  site = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/jquery.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(jquery);
      return;
    }
    const page = { '/products/dunes': shopifyPage, '/product/dunes': wooPage, '/gallery': plainPage }[path];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ? page() : 'not found');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  // "localhost" for the shop and 127.0.0.1 for the service: two origins.
  siteBase = `http://localhost:${(site.address() as AddressInfo).port}`;
  // With WebGL although no test waits for a drawn model: the tests count page errors, and model-viewer throws
  // one in a browser without WebGL.
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await media?.stop();
  await new Promise((r) => site?.close(r));
});

/** A shopper's browser: a real user agent; the lookups, the beacons' events, warnings, CSP violations and errors recorded. */
async function shopper() {
  const ctx = await browser.newContext({ userAgent: MAC, viewport: { width: 1200, height: 720 } });
  const lookups: string[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  await ctx.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as any).__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
    }),
  );
  ctx.on('request', (r) => {
    if (r.url().includes('/skus?')) lookups.push(r.url());
    if (r.url() === `${app.base}/api/events` && r.method() === 'POST') {
      const b = JSON.parse(r.postData() ?? '{}');
      for (const e of b.events ?? []) events.push({ site: b.site, ...e });
    }
  });
  ctx.on('console', (m) => {
    logs.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'warning') warnings.push(m.text());
    if (/content security policy/i.test(m.text())) problems.push(m.text());
  });
  ctx.on('page', (p) => p.on('pageerror', (e) => problems.push(e.message)));
  return { ctx, lookups, warnings, problems };
}

/** The frame inside the element's shadow root, once loaded, or null when there is none. */
async function frameOf(page: Page, sel: string): Promise<Frame | null> {
  const handle = await page.locator(sel).evaluateHandle((el) => el.shadowRoot?.querySelector('iframe') ?? null);
  const frame = await handle.asElement()?.contentFrame();
  if (!frame) return null;
  await frame.waitForLoadState('load');
  return frame;
}

/** Waits until the element's frame shows `sku` (its card's data-sku, or for an item without variants its model) and checks its files. */
async function shows(page: Page, sel: string, sku: string): Promise<Frame> {
  const a = answers[sku];
  await page.waitForSelector(`${sel}[data-ar-state="done"][data-ar-sku="${sku}"]`);
  const frame = await waitFor(async () => (await frameOf(page, sel)) ?? undefined, 30_000, `a frame in ${sel}`);
  await frame
    .waitForFunction(
      ([s, glb]) => {
        const card = document.querySelector('.card');
        const mv = document.querySelector('model-viewer');
        return !!card && (card.getAttribute('data-sku') ?? s) === s && mv?.getAttribute('src') === glb;
      },
      [sku, a.glb_url],
      { timeout: 30_000 },
    )
    .catch(async (e) => {
      // What the frame shows instead, and what went wrong on the way.
      const seen = await frame.evaluate(() => ({
        href: location.href,
        sku: document.querySelector('.card')?.getAttribute('data-sku'),
        src: document.querySelector('model-viewer')?.getAttribute('src'),
        csp: (window as any).__csp ?? [],
      }));
      throw new Error(`${(e as Error).message}: wanted ${sku}, the frame shows ${JSON.stringify(seen)}; console: ${logs.join(' | ')}`);
    });
  const seen = await frame.evaluate(() => ({
    sku: document.querySelector('.card')!.getAttribute('data-sku'),
    src: document.querySelector('model-viewer')!.getAttribute('src'),
    iosSrc: document.querySelector('model-viewer')!.getAttribute('ios-src'),
    poster: document.querySelector('model-viewer')!.getAttribute('poster'),
    view: document.querySelector('.card')!.getAttribute('data-view'),
    path: location.pathname,
    variant: new URLSearchParams(location.search).get('variant'),
  }));
  const variant = a.item_id === dunes.id;
  expect(seen).toEqual({
    sku: variant ? sku : null,
    src: a.glb_url,
    iosSrc: a.usdz_url,
    poster: a.poster_url,
    view: String(a.item_id),
    path: new URL(a.embed_url).pathname,
    variant: new URL(a.embed_url).searchParams.get('variant'),
  });
  expect(await page.locator(sel).evaluate((el) => getComputedStyle(el).display)).not.toBe('none');
  return frame;
}

/** Marks the frame's document: a switch inside it keeps the mark, a new frame has none. */
const mark = (f: Frame) => f.evaluate(() => ((window as any).__frameMarker = 'kept'));
const marked = async (f: Frame) => (await f.evaluate(() => (window as any).__frameMarker)) === 'kept';
const hostMarker = (p: Page) => p.evaluate(() => (window as any).__hostMarker as number);

async function notFound(page: Page, sel: string) {
  await page.waitForSelector(`${sel}[data-ar-state="not_found"]`, { state: 'attached' });
  expect(await page.locator(sel).evaluate((el) => getComputedStyle(el).display)).toBe('none');
  // No frame, or (after a switch) a blank one: nothing broken shows, and the page that was in it sent its beacons.
  const src = await page.locator(sel).evaluate((el) => el.shadowRoot?.querySelector('iframe')?.getAttribute('src') ?? null);
  expect([null, 'about:blank']).toContain(src);
}

/** The variant_select events sent since the first `from`, once there are `n` of them (and a moment for any extra). */
async function selectsSince(from: number, n: number) {
  const all = () => events.filter((e) => e.kind === 'variant_select');
  await waitFor(async () => all().length >= from + n, 15_000, `${n} more variant_select events`).catch((e) => {
    throw new Error(`${(e as Error).message}; events so far: ${JSON.stringify(events)}; console: ${logs.join(' | ')}`);
  });
  await sleep(1500);
  const site = new URL(dunes.embed_url).pathname.split('/').pop();
  return {
    got: all()
      .slice(from)
      .map(({ site: s, kind, surface, item_id, variant }) => ({ site: s, kind, surface, item_id, variant })),
    want: (variants: string[]) => variants.map((v) => ({ site, kind: 'variant_select', surface: 'widget', item_id: dunes.id, variant: v })),
  };
}

function clean(ctx: { problems: string[] }, frames: (Frame | null)[]) {
  expect(ctx.problems).toEqual([]);
  return Promise.all(frames.map(async (f) => expect(f ? await f.evaluate(() => (window as any).__csp ?? []) : []).toEqual([])));
}

describe('the widget by SKU on a shop page (another origin)', () => {
  let counted = 0;

  it('Shopify: the block shows the variant; ?variant= via replaceState and the cart form switch it; one lookup', async () => {
    const shop = await shopper();
    const page = await shop.ctx.newPage();
    await page.goto(`${siteBase}/products/dunes`);
    let frame = await shows(page, '#ar', 'DUNES-S');
    // Every SKU of the block's map asked in one request.
    expect(shop.lookups).toHaveLength(1);
    expect(new URL(shop.lookups[0]!).searchParams.getAll('sku').sort()).toEqual(Object.values(SHOPIFY_IDS).sort());
    await frame.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, undefined, { timeout: 60_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(ARTIFACTS, 'widget-sku-shopify.png') });
    const host = await hostMarker(page);
    await mark(frame);

    // The theme rewrites the address with the variant the buyer chose.
    await page.evaluate(() => history.replaceState({}, '', '?variant=4402'));
    frame = await shows(page, '#ar', 'DUNES-M');
    expect(await marked(frame)).toBe(true);
    // The cart form's variant input.
    await page.selectOption('#product-form select[name="id"]', '4403');
    frame = await shows(page, '#ar', 'DUNES-L');
    expect(await marked(frame)).toBe(true);
    expect(await frame.evaluate(() => document.querySelector('.card')!.textContent)).toContain('$140');
    // Another item: a new frame.
    await page.selectOption('#product-form select[name="id"]', '4404');
    frame = await shows(page, '#ar', 'HARBOUR-1');
    expect(await marked(frame)).toBe(false);
    // A SKU the showcase does not have: hidden, with a warning; back to a known one: shown again.
    await page.selectOption('#product-form select[name="id"]', '4405');
    await notFound(page, '#ar');
    expect(shop.warnings.join('\n')).toContain('no AR model for SKU "NOT-IN-SHOWCASE"');
    await page.evaluate(() => history.pushState({}, '', '?variant=4401'));
    frame = await shows(page, '#ar', 'DUNES-S');
    // All from the one lookup, on the same page.
    expect(shop.lookups).toHaveLength(1);
    expect(await hostMarker(page)).toBe(host);
    await clean(shop, [frame]);
    // Each switch between the item's variants (not the first SKU, not the other item) is a variant_select of the widget.
    const sent = await selectsSince(counted, 3);
    expect(sent.got).toEqual(sent.want(['DUNES-M', 'DUNES-L', 'DUNES-S']));
    counted += 3;

    // Opened with ?variant=: that variant, not the block's first.
    const direct = await shop.ctx.newPage();
    await direct.goto(`${siteBase}/products/dunes?variant=4403`);
    await shows(direct, '#ar', 'DUNES-L');
    await shop.ctx.close();
  });

  it('WooCommerce: found_variation shows the variation in the same frame, reset_data goes back', async () => {
    const shop = await shopper();
    const page = await shop.ctx.newPage();
    await page.goto(`${siteBase}/product/dunes`);
    let frame = await shows(page, '#ar', 'DUNES-S');
    expect(await page.evaluate(() => typeof (window as any).jQuery)).toBe('function');
    // The form's variations asked with the element's own SKU.
    expect(shop.lookups).toHaveLength(1);
    expect(new URL(shop.lookups[0]!).searchParams.getAll('sku').sort()).toEqual(['DUNES-L', 'DUNES-M', 'DUNES-S']);
    const host = await hostMarker(page);
    await mark(frame);
    await page.evaluate(() =>
      (window as any).jQuery('form.variations_form').trigger('found_variation', [{ variation_id: 13, sku: 'DUNES-L' }]),
    );
    frame = await shows(page, '#ar', 'DUNES-L');
    expect(await marked(frame)).toBe(true);
    // WooCommerce clears and finds again in one go: the last one wins.
    await page.evaluate(() => {
      const $f = (window as any).jQuery('form.variations_form');
      $f.trigger('reset_data');
      $f.trigger('found_variation', [{ variation_id: 12, sku: 'DUNES-M' }]);
    });
    frame = await shows(page, '#ar', 'DUNES-M');
    await page.evaluate(() => (window as any).jQuery('form.variations_form').trigger('reset_data'));
    frame = await shows(page, '#ar', 'DUNES-S');
    expect(await marked(frame)).toBe(true);
    expect(shop.lookups).toHaveLength(1);
    expect(await hostMarker(page)).toBe(host);
    await clean(shop, [frame]);
    const sent = await selectsSince(counted, 3);
    expect(sent.got).toEqual(sent.want(['DUNES-L', 'DUNES-M', 'DUNES-S']));
    counted += 3;
    await shop.ctx.close();
  });

  it('any page: ARWidget.setSku switches items and variants; an unknown SKU is hidden', async () => {
    const shop = await shopper();
    const page = await shop.ctx.newPage();
    await page.goto(`${siteBase}/gallery`);
    let frame = await shows(page, '#viewer', 'HARBOUR-1');
    await notFound(page, '#missing');
    expect(shop.warnings.join('\n')).toContain('no AR model for SKU "NOPE-1"');
    // Both elements' SKUs in one request.
    expect(shop.lookups).toHaveLength(1);
    const host = await hostMarker(page);
    await page.evaluate(() => (window as any).ARWidget.setSku('#viewer', 'DUNES-M'));
    frame = await shows(page, '#viewer', 'DUNES-M');
    await mark(frame);
    await page.evaluate(() => (window as any).ARWidget.setSku('#viewer', 'DUNES-L'));
    frame = await shows(page, '#viewer', 'DUNES-L');
    expect(await marked(frame)).toBe(true);
    await page.evaluate(() => (window as any).ARWidget.setSku('#viewer', 'NOPE-2'));
    await notFound(page, '#viewer');
    expect(await hostMarker(page)).toBe(host);
    // SKUs not on the page at first: one more lookup each time.
    expect(shop.lookups).toHaveLength(4);
    await clean(shop, []);
    const sent = await selectsSince(counted, 2);
    expect(sent.got).toEqual(sent.want(['DUNES-M', 'DUNES-L']));
    counted += 2;
    await shop.ctx.close();
  });

  it('GET /api/v2/analytics counts every switch as a variant_select of the item', async () => {
    expect(counted).toBe(8);
    const r = await waitFor(
      async () => {
        const b = (await owner.req('GET', `/api/v2/analytics?from=${today()}&to=${today()}&showcase_id=${showcase.id}&item_id=${dunes.id}`))
          .body;
        return b.totals?.variant_selects === counted && b;
      },
      15_000,
      'the variant_select events counted',
    );
    expect(r.totals.variant_selects).toBe(8);
    // The other item (no variants) counted none.
    const other = (
      await owner.req('GET', `/api/v2/analytics?from=${today()}&to=${today()}&showcase_id=${showcase.id}&item_id=${harbour.id}`)
    ).body;
    expect(other.totals.variant_selects).toBe(0);
  });
});
