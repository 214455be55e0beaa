import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Locale } from '@app/catalogue';
import { launchChromium, quadrantPicture, USER_AGENTS } from '@app/testing';
import { Api, ROOT, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { axeFindings, englishLeft, loadAllImages } from './support/page-audit';
import { expandSchemaOrg } from './support/schema-org';

/**
 * Item variants on the public pages, through the running service in headless Chromium: a print shop's picture
 * sold in six sizes and frames (one sold). The item page's size and frame selector (native radios, chosen with
 * the keyboard and with clicks) swaps the picture, size, price, buy link and every AR link without a reload and
 * keeps the choice in the address (`?variant=`), which the server renders (no script needed); the wall page
 * follows; the showcase card says "from €39" and "6 sizes"; the embed page and the widget take the variant;
 * the JSON-LD has an Offer per SKU; German and Japanese pages have no English left; axe finds nothing.
 * Screenshots: test-artifacts/screenshots/variants-*.png.
 */

const OWNER = 'owner-key-for-variants-pages-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { userAgent: USER_AGENTS.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const ANDROID = { userAgent: USER_AGENTS.android, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };
const SHOP = 'https://shop.example.com/prints';
const TITLE = 'Street at dusk';

/** The six variants as the shop sends them, with the names the selector shows (the shop's, else size and frame). */
const VARIANTS: { body: Record<string, unknown>; name: string; sold?: boolean }[] = [
  { body: { sku: 'STREET-A2', width_cm: 42, height_cm: 59.4, price: '€59' }, name: '59.4 × 42 cm' },
  { body: { sku: 'STREET-A3', name: 'A3 print', width_cm: 29.7, height_cm: 42, price: '€39' }, name: 'A3 print' },
  {
    body: { sku: 'STREET-50x70-OAK', width_cm: 50, height_cm: 70, frame: { style: 'classic', color: 'oak' }, price: '€149', default: true },
    name: '70 × 50 cm, oak',
  },
  {
    body: {
      sku: 'STREET-50x70-BLK-MAT',
      width_cm: 50,
      height_cm: 70,
      frame: { style: 'thin', color: 'black' },
      mat: { width_inches: 2 },
      price: '€169',
    },
    name: '70 × 50 cm, black with mat',
  },
  {
    body: { sku: 'STREET-70x100-BLK', width_cm: 70, height_cm: 100, frame: { style: 'thin', color: 'black' }, price: '€1,249' },
    name: '100 × 70 cm, black',
  },
  { body: { sku: 'STREET-A4', width_cm: 21, height_cm: 29.7, price: '€25', availability: 'sold' }, name: '29.7 × 21 cm', sold: true },
];
const SKUS = VARIANTS.map((v) => v.body.sku as string);
const DEFAULT = 'STREET-50x70-OAK';
const CTA = 'Add to cart';
const linkOf = (sku: string) => `${SHOP}/street?sku=${sku}`;

jest.setTimeout(300_000);

let app: TestApp;
let owner: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let browser: Browser;
let site: Server | undefined;
let showcase: { id: number; url: string; embed_url: string };
/** The item as the API shows it once every variant is built. */
let item: any;
/** Its variants by SKU (the API's view: glb_url, usdz_url, preview_url, embed_url, dimensions…). */
let api: Record<string, any>;
let itemUrl: string;
/** The plain picture's page, the next one after the item's. */
let plainUrl: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The plain picture's page is read for its markup only: narrower than MIN_THUMBNAIL_POSTER_PX (240), its
  // conversion skips the thumbnails' encodes.
  media = await startMediaServer({ '/square.png': (await quadrantPicture(200, 200)).png });
  app = await startServiceApp(
    OWNER,
    {},
    // The pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  owner = new Api(app.base, OWNER);
  const s = await owner.req('POST', '/api/v2/showcases', { layout_choice: 'grid', units: 'cm', indexable: true });
  expect(s.status).toBe(201);
  showcase = { id: s.body.id, url: s.body.url, embed_url: s.body.embed_url };
  const add = await owner.req('POST', `/api/v2/showcases/${showcase.id}/items`, {
    items: [
      {
        image_url: `${media.base}/street.jpg`,
        title: TITLE,
        variants: VARIANTS.map((v) => ({ ...v.body, link_url: linkOf(v.body.sku as string), call_to_action: CTA })),
      },
      // A plain picture beside it: its card and page stay as they were.
      { image_url: `${media.base}/square.png`, title: 'Square', price: '€10' },
    ],
  });
  expect(add.status).toBe(202);
  const done = await waitFor(
    async () => {
      const r = (await owner.req('GET', `/api/v2/showcases/${showcase.id}`)).body;
      const busy = r.items.some(
        (i: any) => i.status !== 'completed' || i.variants?.some((v: any) => v.status === 'building' || v.build_job_id),
      );
      return r.items.length === 2 && !busy && r;
    },
    240_000,
    'the items and every variant to be built',
  );
  item = done.items[0];
  api = Object.fromEntries(item.variants.map((v: any) => [v.sku, v]));
  expect(Object.values(api).map((v) => v.status)).toEqual(SKUS.map(() => 'ready'));
  itemUrl = `${showcase.url}/items/${item.id}`;
  plainUrl = `${showcase.url}/items/${done.items[1].id}`;
  // No test here waits for model-viewer to draw: the 3D pages are read for their markup (files, links, banner),
  // so a browser without WebGL, where model-viewer shows the poster (libs/testing launchChromium).
  browser = await launchChromium({ webgl: false });
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await media?.stop();
  if (site) await new Promise((r) => site!.close(r));
});

/** Opens a page, recording Content-Security-Policy violations. */
async function open(
  url: string,
  opts: Parameters<Browser['newContext']>[0] = DESKTOP,
): Promise<{ ctx: BrowserContext; p: Page; csp: string[] }> {
  const ctx = await browser.newContext(opts);
  await ctx.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as any).__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
    }),
  );
  const csp: string[] = [];
  ctx.on('console', (m) => {
    if (/content security policy/i.test(m.text())) csp.push(m.text());
  });
  const p = await ctx.newPage();
  await p.goto(url);
  return { ctx, p, csp };
}

/** A length in the page's notation (English, at most `digits` decimals). */
const num = (v: number, digits: number) => new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(v);
const cm = (inches: number) => Math.round(inches * 2.54 * 100) / 100;
/** "70 × 50 cm (27.6 × 19.7 in)" for a 50 cm wide print: height × width in both units, one decimal, centimetres first (the showcase's unit). */
const both = (w: number, h: number, d?: number) =>
  `${[h, w, ...(d ? [d] : [])].map((v) => num(cm(v), 1)).join(' × ')} cm (${[h, w, ...(d ? [d] : [])].map((v) => num(v, 1)).join(' × ')} in)`;
/** What the details say a variant measures: the picture, and the framed size (with the frame's depth) when a frame adds to it. */
function dimsOf(v: any): string {
  const { width_inches: w, height_inches: h } = v.dimensions;
  const o = v.outer_dimensions;
  const framed = Math.abs(o.width_inches - w) > 0.005 || Math.abs(o.height_inches - h) > 0.005;
  return framed ? `${both(w, h)}, ${both(o.width_inches, o.height_inches, o.depth_inches)} framed` : both(w, h);
}
const variantOf = (sku: string) => VARIANTS.find((v) => v.body.sku === sku)!;

/** The visible element's text, or null when the element is hidden. */
const shown = async (p: Page, selector: string) => {
  const l = p.locator(selector);
  return (await l.isVisible()) ? l.innerText() : null;
};

/** The page shows variant `sku`: address, radio, texts, buy link, picture and the platform's AR link, all without a reload. */
async function expectShown(p: Page, sku: string, platform: 'desktop' | 'ios' | 'android') {
  const v = api[sku];
  const spec = variantOf(sku);
  await p.waitForFunction((k) => new URL(location.href).searchParams.get('variant') === k, sku);
  expect(await p.evaluate(() => (window as any).__sameDocument)).toBe(true);
  expect(await p.locator('input[name="variant"]:checked').getAttribute('value')).toBe(sku);
  expect([sku, await shown(p, '.details .dims')]).toEqual([sku, dimsOf(v)]);
  if (spec.sold) {
    expect(await shown(p, '.details .price')).toBeNull();
    expect(await shown(p, '.details .availability')).toBe('Sold');
    expect(await p.locator('.details .availability .dot').isVisible()).toBe(true);
    expect(await p.locator('.details a.buy').isVisible()).toBe(false);
    expect(await p.locator('.details a.buy').getAttribute('href')).toBeNull();
    expect(await p.locator(`a[href^="${SHOP}"]`).count()).toBe(0);
  } else {
    expect(await shown(p, '.details .price')).toBe(spec.body.price);
    expect(await shown(p, '.details .availability')).toBeNull();
    expect(await shown(p, '.details a.buy')).toBe(CTA);
    expect(await p.locator('.details a.buy').getAttribute('href')).toBe(linkOf(sku));
  }
  // The picture: the default's thumbnails, another variant's own poster (framed as it is), loaded.
  const img = p.locator('.media img');
  if (sku === DEFAULT) expect(await img.getAttribute('src')).toBe(`${itemUrl}/thumb/480.webp`);
  else expect(await img.getAttribute('src')).toBe(v.preview_url);
  await p.waitForFunction(() => {
    const i = document.querySelector('.media img') as HTMLImageElement;
    return i.complete && i.naturalWidth > 0;
  });
  const ratio = v.outer_dimensions.width_inches / v.outer_dimensions.height_inches;
  const box = await img.evaluate((i: HTMLImageElement) => i.naturalWidth / i.naturalHeight);
  expect(Math.abs(box - ratio)).toBeLessThan(0.02);
  expect(await p.locator('.details a.wall-btn').getAttribute('href')).toBe(`${itemUrl}/wall?variant=${sku}`);
  const ar = (await p.locator('.details a.ar').getAttribute('href'))!;
  if (platform === 'desktop') expect(ar).toBe(v.embed_url);
  if (platform === 'ios') {
    expect(ar.slice(0, ar.indexOf('#'))).toBe(v.usdz_url);
    const fragment = Object.fromEntries(new URLSearchParams(ar.slice(ar.indexOf('#') + 1)));
    expect(fragment).toEqual({
      allowsContentScaling: '0',
      checkoutTitle: TITLE,
      // The size as the details state it, and "Sold" for the sold one (which offers nothing to buy).
      ...(spec.sold
        ? { checkoutSubtitle: `${dimsOf(v)} · Sold` }
        : { checkoutSubtitle: dimsOf(v), callToAction: CTA, price: spec.body.price }),
    });
    expect(await p.locator('.details a.ar').getAttribute('data-link')).toBe(spec.sold ? '' : linkOf(sku));
  }
  if (platform === 'android') {
    expect(ar).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.2\?/);
    const params = Object.fromEntries(new URLSearchParams(ar.slice(ar.indexOf('?') + 1, ar.indexOf('#'))));
    expect(params).toMatchObject({
      mode: 'ar_preferred',
      file: v.glb_url,
      title: TITLE,
      resizable: 'false',
      enable_vertical_placement: 'true',
    });
    expect(params.link).toBe(spec.sold ? undefined : linkOf(sku));
    expect(ar).toContain(`S.browser_fallback_url=${encodeURIComponent(v.embed_url)};end;`);
  }
  // Every variant's files, as the page's script swaps them (the 3D page shows them in model-viewer).
  const data = JSON.parse((await p.locator('#variant-data').textContent())!).find((d: any) => d.sku === sku);
  expect(data.links).toMatchObject({ glb: v.glb_url, usdz: v.usdz_url, poster: v.preview_url, embed: v.embed_url });
}

/** Marks the document: a reload would lose the mark. */
const mark = (p: Page) => p.evaluate(() => ((window as any).__sameDocument = true));

describe('showcase page', () => {
  it('the card of an item with variants says "from" its lowest price for sale and how many sizes; the plain card is as it was', async () => {
    const { ctx, p, csp } = await open(showcase.url);
    const cards = p.locator('.item[data-status="completed"]');
    expect(await cards.count()).toBe(2);
    // €25 is the sold A4's: the lowest one can buy is the A3's €39 (€1,249 read as 1249, not 1.249).
    expect(await cards.nth(0).locator('.caption .price').innerText()).toBe('from €39');
    expect(await cards.nth(0).locator('.caption .sizes').innerText()).toBe('6 sizes');
    expect(await cards.nth(0).locator('.caption .title').innerText()).toBe(TITLE);
    // No one size or frame of the six on the card.
    expect(await cards.nth(0).locator('.dims, .size, .frame').count()).toBe(0);
    expect(await cards.nth(1).locator('.caption .price').innerText()).toBe('€10');
    expect(await cards.nth(1).locator('.caption .sizes').count()).toBe(0);
    expect(await p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(csp).toEqual([]);
    const de = await p.goto(`${showcase.url}?lang=de`).then(() => p.locator('.item').nth(0));
    expect(await de.locator('.caption .price').innerText()).toBe('ab €39');
    expect(await de.locator('.caption .sizes').innerText()).toBe('6 Größen');
    await ctx.close();
  });
});

describe('item page', () => {
  it('a radio group of the six variants: names, prices, "Sold"; the default chosen', async () => {
    const { ctx, p } = await open(itemUrl);
    const group = p.locator('fieldset#variants');
    expect(await group.locator('legend').innerText()).toBe('Size and frame');
    expect(
      await group.locator('input[type="radio"][name="variant"]').evaluateAll((rs) => rs.map((r) => (r as HTMLInputElement).value)),
    ).toEqual(SKUS);
    expect(await group.locator('label .name').allInnerTexts()).toEqual(VARIANTS.map((v) => v.name));
    expect(await group.locator('label .vprice').allInnerTexts()).toEqual(VARIANTS.map((v) => v.body.price));
    expect(await group.locator('label .state').allInnerTexts()).toEqual(['Sold']);
    expect(await group.locator('label[data-sku="STREET-A4"] .state').innerText()).toBe('Sold');
    expect(await group.locator('input:checked').getAttribute('value')).toBe(DEFAULT);
    expect(await group.locator('input:disabled').count()).toBe(0);
    // Each radio is named by its label: name, price and state.
    expect(await p.getByRole('radio', { name: '29.7 × 21 cm €25 Sold' }).count()).toBe(1);
    await ctx.close();
  });

  it('keyboard: the arrow keys choose each variant, and the page shows it without a reload (the arrows do not turn the page)', async () => {
    const { ctx, p, csp } = await open(itemUrl);
    await mark(p);
    await p.locator('input[name="variant"]:checked').focus();
    // From the default (third): down through the rest, round to the first, right (not the next picture), down.
    const steps: [string, string][] = [
      ['ArrowDown', 'STREET-50x70-BLK-MAT'],
      ['ArrowDown', 'STREET-70x100-BLK'],
      ['ArrowDown', 'STREET-A4'],
      ['ArrowDown', 'STREET-A2'],
      ['ArrowRight', 'STREET-A3'],
      ['ArrowLeft', 'STREET-A2'],
      ['ArrowUp', 'STREET-A4'],
    ];
    for (const [key, sku] of steps) {
      await p.keyboard.press(key);
      await expectShown(p, sku, 'desktop');
      expect(new URL(p.url()).pathname).toBe(new URL(itemUrl).pathname);
    }
    // Tab leaves the group for the next control; Shift+Tab comes back to the chosen radio.
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('name'))).not.toBe('variant');
    await p.keyboard.press('Shift+Tab');
    expect(await p.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('STREET-A4');
    // Off the radios, the arrow keys still turn the page.
    await p.locator('h1').click();
    await p.keyboard.press('ArrowRight');
    await p.waitForURL(plainUrl);
    expect(await p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(csp).toEqual([]);
    await ctx.close();
  });

  it('clicks on an iPhone: the Quick Look link carries each variant’s USDZ and banner (none to buy when sold)', async () => {
    const { ctx, p, csp } = await open(itemUrl, PHONE);
    await mark(p);
    for (const sku of [...SKUS.filter((k) => k !== DEFAULT), DEFAULT]) {
      await p.locator(`label[data-sku="${sku}"]`).click();
      await expectShown(p, sku, 'ios');
    }
    // The banner tap opens the chosen variant's link: the tap script listens on the AR link from the start.
    expect(await p.locator('script:not([type])').count()).toBe(2);
    expect(await p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(csp).toEqual([]);
    await ctx.close();
  });

  it('clicks on Android: the Scene Viewer intent opens each variant’s GLB with its link', async () => {
    const { ctx, p } = await open(itemUrl, ANDROID);
    await mark(p);
    for (const sku of [...SKUS.filter((k) => k !== DEFAULT), DEFAULT]) {
      await p.locator(`label[data-sku="${sku}"] .name`).click();
      await expectShown(p, sku, 'android');
    }
    await ctx.close();
  });

  it('the address chooses: ?variant=<sku> is rendered chosen by the server (no script), an unknown SKU is the default', async () => {
    const ctx = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const p = await ctx.newPage();
    for (const sku of ['STREET-A2', 'STREET-A4', 'STREET-70x100-BLK']) {
      await p.goto(`${itemUrl}?variant=${sku}`);
      expect(await p.locator('input[name="variant"]:checked').getAttribute('value')).toBe(sku);
      expect(await p.locator('.details .dims').innerText()).toBe(dimsOf(api[sku]));
      expect(await p.locator('.details a.ar').getAttribute('href')).toBe(api[sku].embed_url);
      expect(await p.locator('.media img').getAttribute('src')).toBe(api[sku].preview_url);
      expect(await p.locator('.details a.buy').isVisible()).toBe(sku !== 'STREET-A4');
      // One page for search engines, whichever variant the address chose.
      expect(await p.locator('link[rel="canonical"]').getAttribute('href')).toBe(itemUrl);
    }
    for (const url of [`${itemUrl}?variant=NOPE`, itemUrl]) {
      await p.goto(url);
      expect(await p.locator('input[name="variant"]:checked').getAttribute('value')).toBe(DEFAULT);
      expect(await p.locator('.details .dims').innerText()).toBe(dimsOf(api[DEFAULT]));
    }
    await ctx.close();
    // With the script: a reload keeps the choice the address holds.
    const { ctx: c2, p: p2 } = await open(itemUrl);
    await p2.locator('label[data-sku="STREET-A3"]').click();
    await p2.waitForURL(`${itemUrl}?variant=STREET-A3`);
    await p2.reload();
    expect(await p2.locator('input[name="variant"]:checked').getAttribute('value')).toBe('STREET-A3');
    await mark(p2);
    await expectShown(p2, 'STREET-A3', 'desktop');
    await c2.close();
  });

  it('JSON-LD: one VisualArtwork with an Offer per SKU (the sold one SoldOut, without its price)', async () => {
    const { ctx, p } = await open(`${itemUrl}?variant=STREET-A2`);
    const blocks = await p.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]!);
    expect(ld).toMatchObject({ '@type': 'VisualArtwork', name: TITLE, url: itemUrl });
    expect(ld.offers).toHaveLength(6);
    expect(ld.offers.map((o: any) => o.sku)).toEqual(SKUS);
    expect(ld.offers[2]).toEqual({
      '@type': 'Offer',
      sku: DEFAULT,
      name: '70 × 50 cm, oak',
      availability: 'https://schema.org/InStock',
      url: `${itemUrl}?variant=${DEFAULT}`,
      price: '149',
      priceCurrency: 'EUR',
    });
    expect(ld.offers[4]).toMatchObject({ price: '1249', priceCurrency: 'EUR' });
    expect(ld.offers[5]).toEqual({
      '@type': 'Offer',
      sku: 'STREET-A4',
      name: '29.7 × 21 cm',
      availability: 'https://schema.org/SoldOut',
      url: `${itemUrl}?variant=STREET-A4`,
    });
    // A JSON-LD processor reads six schema.org Offers, each with its sku.
    const [artwork] = await expandSchemaOrg(ld);
    const S = 'http://schema.org/';
    const offers = artwork[`${S}offers`] as Record<string, any>[];
    expect(offers.map((o) => o['@type'])).toEqual(SKUS.map(() => [`${S}Offer`]));
    expect(offers.map((o) => o[`${S}sku`][0]['@value'])).toEqual(SKUS);
    await ctx.close();
  });

  it('the plain picture beside it keeps its page: no selector, no variant data', async () => {
    const html = await (await fetch(plainUrl)).text();
    expect(html).not.toContain('id="variants"');
    expect(html).not.toContain('id="variant-data"');
    expect(html).toContain('<p class="price">€10</p>');
  });
});

describe('wall page', () => {
  it('shows the chosen variant at its size, follows the selector, and leads back to the same variant', async () => {
    const { ctx, p, csp } = await open(itemUrl);
    await p.locator('label[data-sku="STREET-70x100-BLK"]').click();
    await p.waitForURL(`${itemUrl}?variant=STREET-70x100-BLK`);
    await p.locator('.details a.wall-btn').click();
    await p.waitForURL(`${itemUrl}/wall?variant=STREET-70x100-BLK`);
    const visible = () => p.locator('figure.wall:visible');
    expect(await visible().count()).toBe(1);
    expect(await visible().getAttribute('data-for-variant')).toBe('STREET-70x100-BLK');
    const picture = async () => Number(await visible().locator('image').getAttribute('data-width-inches'));
    expect(await picture()).toBeCloseTo(api['STREET-70x100-BLK'].outer_dimensions.width_inches, 2);
    expect(await visible().locator('figcaption').innerText()).toContain(dimsOf(api['STREET-70x100-BLK']));
    await mark(p);
    await p.locator('label[data-sku="STREET-A3"]').click();
    await p.waitForURL(`${itemUrl}/wall?variant=STREET-A3`);
    expect(await visible().getAttribute('data-for-variant')).toBe('STREET-A3');
    expect(await picture()).toBeCloseTo(api['STREET-A3'].outer_dimensions.width_inches, 2);
    expect(await p.evaluate(() => (window as any).__sameDocument)).toBe(true);
    await p.locator('a[data-nav="close"]').click();
    await p.waitForURL(`${itemUrl}?variant=STREET-A3`);
    expect(await p.locator('input[name="variant"]:checked').getAttribute('value')).toBe('STREET-A3');
    expect(await p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(csp).toEqual([]);
    await ctx.close();
  });
});

describe('embed page', () => {
  it('?variant=<sku> serves that variant’s files and links; old links (none, or an unknown SKU) the default', async () => {
    const embed = item.embed_url as string;
    for (const [query, sku] of [
      ['?variant=STREET-A3', 'STREET-A3'],
      ['?variant=STREET-70x100-BLK', 'STREET-70x100-BLK'],
      ['', DEFAULT],
      ['?variant=NOPE', DEFAULT],
    ] as const) {
      const sep = query ? '&' : '?';
      const desktop = await open(`${embed}${query}${sep}platform=desktop`);
      const mv = desktop.p.locator('model-viewer');
      expect([query, await mv.getAttribute('src')]).toEqual([query, api[sku].glb_url]);
      expect(await mv.getAttribute('ios-src')).toBe(api[sku].usdz_url);
      expect(await mv.getAttribute('poster')).toBe(api[sku].preview_url);
      expect(await desktop.p.locator('.banner .price').innerText()).toBe(variantOf(sku).body.price);
      expect(await desktop.p.locator('.banner .cta').getAttribute('href')).toBe(linkOf(sku));
      await desktop.ctx.close();
      const ios = await open(`${embed}${query}${sep}platform=ios`);
      const href = (await ios.p.locator('#ar-launch').getAttribute('href'))!;
      expect(href.slice(0, href.indexOf('#'))).toBe(api[sku].usdz_url);
      expect(href).toContain(`price=${encodeURIComponent(variantOf(sku).body.price as string)}`);
      await ios.ctx.close();
    }
    // The sold one: its files, its size, nothing to buy.
    const sold = await open(`${embed}?variant=STREET-A4&platform=android`);
    const intent = (await sold.p.locator('#ar-launch').getAttribute('href'))!;
    expect(intent).toContain(`file=${encodeURIComponent(api['STREET-A4'].glb_url)}`);
    expect(intent).not.toContain('link=');
    expect(intent).toContain(`S.browser_fallback_url=${encodeURIComponent(`${embed}?variant=STREET-A4`)};end;`);
    expect(await sold.p.locator('.banner .availability').innerText()).toBe('Sold');
    expect(await sold.p.locator('.banner .cta, .banner .price').count()).toBe(0);
    await sold.ctx.close();
    // The API's own embed_url of each variant is such a link.
    expect(api['STREET-A2'].embed_url).toBe(`${embed}?variant=STREET-A2`);
  });

  it('the widget shows a showcase item by its embed id, with data-service-variant-sku or the variantSku option', async () => {
    const embedId = (item.embed_url as string).split('/').pop();
    site = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<style>.slot{width:360px;height:270px;display:inline-block;margin:8px}</style></head><body>
<div id="attr" class="slot" data-service-embed="${embedId}" data-service-variant-sku="STREET-A2"></div>
<div id="plain" class="slot" data-service-embed="${embedId}"></div>
<div id="js" class="slot"></div>
<script src="${owner.base}/api/v1/widget.js"></script>
<script>ARWidget.show('#js', { embedId: '${embedId}', variantSku: 'STREET-70x100-BLK' });</script>
</body></html>`);
    });
    await new Promise<void>((r) => site!.listen(0, '127.0.0.1', r));
    const { ctx, p } = await open(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const frameSrc = async (id: string) => {
      await p.waitForFunction((k) => document.getElementById(k)?.shadowRoot?.querySelector('iframe'), id, { timeout: 30_000 });
      return p.evaluate((k) => document.getElementById(k)!.shadowRoot!.querySelector('iframe')!.src, id);
    };
    // The page says lang="en": the embed page gets ?lang=en too.
    expect(await frameSrc('attr')).toBe(`${item.embed_url}?lang=en&variant=STREET-A2`);
    expect(await frameSrc('plain')).toBe(`${item.embed_url}?lang=en`);
    expect(await frameSrc('js')).toBe(`${item.embed_url}?lang=en&variant=STREET-70x100-BLK`);
    const frame = p.frameLocator('#attr >> iframe');
    expect(await frame.locator('model-viewer').getAttribute('src')).toBe(api['STREET-A2'].glb_url);
    await ctx.close();
  });
});

describe('languages and accessibility', () => {
  it.each([['de' as Locale], ['ja' as Locale]])('?lang=%s: the selector and the card in that language, no English left', async (locale) => {
    // One context per viewport, the three addresses opened in it in turn (a context costs ~0.2 s to make).
    const urls = [`${itemUrl}?lang=${locale}`, `${itemUrl}/wall?lang=${locale}&variant=STREET-A4`, `${showcase.url}?lang=${locale}`];
    for (const opts of [DESKTOP, PHONE]) {
      const { ctx, p } = await open(urls[0]!, opts);
      for (const [i, url] of urls.entries()) {
        if (i > 0) await p.goto(url);
        expect([url, await englishLeft(p, locale)]).toEqual([url, []]);
      }
      await ctx.close();
    }
    const { ctx, p } = await open(`${itemUrl}?lang=${locale}`);
    const want = locale === 'de' ? ['Größe und Rahmen', '70 × 50 cm, Eiche', 'Verkauft'] : ['サイズと額装', '70 × 50 cm、オーク', '売約済'];
    expect(await p.locator('#variants legend').innerText()).toBe(want[0]);
    expect(await p.locator(`label[data-sku="${DEFAULT}"] .name`).innerText()).toBe(want[1]);
    expect(await p.locator('label[data-sku="STREET-A4"] .state').innerText()).toBe(want[2]);
    // The choice keeps the page's language in the address.
    await p.locator('label[data-sku="STREET-A2"]').click();
    await p.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'STREET-A2');
    expect(new URL(p.url()).searchParams.get('lang')).toBe(locale);
    expect(await p.locator('.details a.wall-btn').getAttribute('href')).toBe(`${itemUrl}/wall?variant=STREET-A2&lang=${locale}`);
    await ctx.close();
  });

  it('axe finds nothing on the item page (each variant chosen), the wall page and the showcase', async () => {
    const violations: string[] = [];
    for (const opts of [DESKTOP, PHONE]) {
      // One context per viewport for the three pages (a context costs ~0.2 s to make).
      const ctx = await browser.newContext({ ...opts, bypassCSP: true });
      const p = await ctx.newPage();
      for (const url of [showcase.url, `${itemUrl}/wall?variant=STREET-A4`]) {
        await p.goto(url);
        await loadAllImages(p);
        violations.push(...(await axeFindings(p)));
      }
      await p.goto(itemUrl);
      await loadAllImages(p);
      for (const sku of ['STREET-A4', 'STREET-50x70-BLK-MAT', DEFAULT]) {
        await p.locator(`label[data-sku="${sku}"]`).click();
        await p.waitForFunction((k) => new URL(location.href).searchParams.get('variant') === k, sku);
        violations.push(...(await axeFindings(p)));
      }
      await ctx.close();
    }
    expect(violations).toEqual([]);
  });

  it('screenshots of the item page at desktop and phone width', async () => {
    for (const [name, opts] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { ctx, p } = await open(`${itemUrl}?variant=STREET-50x70-BLK-MAT`, opts);
      await loadAllImages(p);
      await p.screenshot({ path: join(ARTIFACTS, `variants-item-${name}.png`), fullPage: true });
      await p.locator('label[data-sku="STREET-A4"]').click();
      await p.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'STREET-A4');
      await loadAllImages(p);
      await p.screenshot({ path: join(ARTIFACTS, `variants-item-${name}-sold.png`), fullPage: true });
      await ctx.close();
    }
    for (const [name, url] of [
      ['showcase', showcase.url],
      ['wall', `${itemUrl}/wall?variant=STREET-70x100-BLK`],
    ]) {
      const { ctx, p } = await open(url!);
      await loadAllImages(p);
      await p.screenshot({ path: join(ARTIFACTS, `variants-${name}.png`), fullPage: true });
      await ctx.close();
    }
  });
});
