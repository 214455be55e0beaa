import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Locale } from '@app/catalogue';
import { launchChromium, quadrantPicture, USER_AGENTS } from '@app/testing';
import { type Api, ROOT } from './support/app-process';
import { createShowcase, type ShowcaseFixture, startShowcaseFixture } from './support/showcase-fixture';
import { axeFindings, englishFragments, englishLeft, loadAllImages } from './support/page-audit';
import { expandSchemaOrg } from './support/schema-org';

/**
 * Catalogue items 5 and 6 through the running service in headless Chromium: gallery labels on the
 * showcase, item, wall and embed pages (sold works: a red dot, "Sold" and nothing to buy, in the AR banners
 * too), the item pages' schema.org JSON-LD under the pages' CSP, and the pages in the showcase's language
 * (?lang= overriding) with no English left on a German or Japanese page, axe-clean. The widget speaks its
 * page's language. Screenshots: test-artifacts/screenshots/catalogue-*.png.
 */

const OWNER = 'owner-key-for-catalogue-pages-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { userAgent: USER_AGENTS.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const ANDROID = { userAgent: USER_AGENTS.android, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };
const SHOP = 'https://shop.example.com/works';

jest.setTimeout(240_000);

let fixture: ShowcaseFixture;
let owner: Api;
let browser: Browser;
let site: Server;
let siteBase: string;

interface Made {
  id: number;
  url: string;
  embed_url: string;
  /** Items in the showcase's order: id, job and the item's /embed/emb_… page. */
  items: { id: number; job_id: string; embed_url: string }[];
}
let de: Made;
let ja: Made;
let v1Job: string;

/** German gallery, sizes in centimetres: one work of each availability (the sold one with a price and a buy link given). */
const GERMAN_ITEMS = [
  {
    image: 'portrait',
    title: 'Der Schwan',
    artist: 'Hilma af Klint',
    year: '1915',
    medium: 'Öl auf Leinwand',
    edition: '3/25',
    description: 'Aus der Serie „Der Schwan“, gemalt 1914–1915.',
    availability: 'available',
    width_cm: 76.2,
    height_cm: 101.6,
    price: '€ 9.500',
    link_url: `${SHOP}/schwan`,
    call_to_action: 'Jetzt kaufen',
  },
  {
    image: 'landscape',
    title: 'Stillleben mit Kürbis',
    artist: 'Paula Modersohn-Becker',
    year: '1905',
    medium: 'Öl auf Pappe',
    availability: 'sold',
    width_cm: 50,
    height_cm: 40,
    price: '€ 12.000',
    link_url: `${SHOP}/kuerbis`,
    call_to_action: 'Jetzt kaufen',
  },
  {
    image: 'square',
    title: 'Komposition',
    artist: 'Sophie Taeuber-Arp',
    year: 'um 1930',
    medium: 'Gouache auf Papier',
    availability: 'reserved',
    width_cm: 40,
    height_cm: 40,
    price: '€ 4.800',
    link_url: `${SHOP}/komposition`,
  },
  {
    image: 'tall',
    title: 'Studie',
    artist: 'Käthe Kollwitz',
    year: '1920',
    medium: 'Acryl auf Leinwand',
    availability: 'not_for_sale',
    width_cm: 40,
    height_cm: 50,
    depth_cm: 3.8,
    frame: 'canvas',
  },
];

const JAPANESE_ITEMS = [
  {
    image: 'landscape',
    title: '神奈川沖浪裏',
    artist: '葛飾北斎',
    year: '1831年頃',
    medium: '木版画',
    edition: '3/25',
    availability: 'available',
    width_cm: 37.5,
    height_cm: 30,
    price: '¥1,200,000',
    link_url: `${SHOP}/hokusai`,
    call_to_action: '購入する',
  },
  {
    image: 'portrait',
    title: '見返り美人図',
    artist: '菱川師宣',
    year: '17世紀',
    medium: '絹本着色',
    availability: 'sold',
    width_cm: 31.2,
    height_cm: 41.6,
    price: '¥3,000,000',
    link_url: `${SHOP}/moronobu`,
  },
];

async function makeShowcase(body: Record<string, unknown>, items: Record<string, unknown>[]): Promise<Made> {
  const done = await createShowcase(
    owner,
    { ...body, items: items.map(({ image, ...i }) => ({ image_url: `${fixture.media.base}/${image}.png`, ...i })) },
    { timeoutMs: 180_000 },
  );
  return {
    id: done.id,
    url: done.url,
    embed_url: done.embed_url,
    items: done.items.map((i: any) => ({ id: i.id, job_id: i.job_id, embed_url: i.embed_url })),
  };
}

/** A customer's page with the widget: its <html lang> and one element overriding it with data-service-lang. */
function widgetPage(): string {
  return `<!doctype html><html lang="de-AT"><head><meta charset="utf-8"><title>Galerie</title>
<style>.slot{width:360px;height:270px;display:inline-block;margin:8px}</style></head><body>
<div id="page-lang" class="slot" data-service-job="${v1Job}" data-service-key="${OWNER}"></div>
<div id="own-lang" class="slot" data-service-job="${v1Job}" data-service-key="${OWNER}" data-service-lang="ja"></div>
<div id="broken" class="slot" data-service-image="${fixture.media.base}/page.html" data-service-key="${OWNER}"></div>
<script src="${owner.base}/api/v1/widget.js"></script>
</body></html>`;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  fixture = await startShowcaseFixture({
    ownerKey: OWNER,
    // Only the portrait's thumbnails are read (its JSON-LD image is /thumb/1200.jpg); the others are narrower than
    // MIN_THUMBNAIL_POSTER_PX (240), so their conversions skip the thumbnails' encodes and their pages show the
    // poster. Their shapes are the works' (5:4, 1:1, 4:5).
    files: {
      '/portrait.png': (await quadrantPicture(450, 600)).png,
      '/landscape.png': (await quadrantPicture(200, 160)).png,
      '/square.png': (await quadrantPicture(200, 200)).png,
      '/tall.png': (await quadrantPicture(192, 240)).png,
    },
    // The pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    app: { database: 'postgres' },
  });
  owner = fixture.owner;
  de = await makeShowcase(
    {
      layout_choice: 'branded',
      indexable: true,
      units: 'cm',
      locale: 'de',
      description: 'Werke der klassischen Moderne.',
      custom_links: [{ title: 'Galerie', url: 'https://shop.example.com/' }],
      branding: { tagline: 'Galerie Nord', primary_color: '#1b5e20' },
    },
    GERMAN_ITEMS,
  );
  ja = await makeShowcase(
    { layout_choice: 'grid', units: 'cm', locale: 'ja', description: '浮世絵の名品。', branding: { tagline: '北斎ギャラリー' } },
    JAPANESE_ITEMS,
  );
  v1Job = (await owner.req('POST', '/api/v1/convert', { image_url: `${fixture.media.base}/square.png` })).body.job_id;
  await owner.waitStatus(v1Job, ['completed'], 60_000);
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(widgetPage());
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  // "localhost": another origin than the API's 127.0.0.1.
  siteBase = `http://localhost:${(site.address() as AddressInfo).port}`;
  // No test here waits for model-viewer to draw: the 3D pages are read for their markup (files, links, banner),
  // so a browser without WebGL, where model-viewer shows the poster (libs/testing launchChromium).
  browser = await launchChromium({ webgl: false });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  if (site) await new Promise((r) => site.close(r));
});

const itemUrl = (m: Made, n: number, suffix = '') => `${m.url}/items/${m.items[n]!.id}${suffix}`;

/** Opens a page, recording Content-Security-Policy violations (events in the page, messages on the console). */
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

describe('gallery labels', () => {
  it('showcase cards: Artist, *Title*, year; medium; height × width in cm (in); edition; price; a red dot and "Verkauft" with no buy link', async () => {
    const { ctx, p, csp } = await open(de.url);
    expect(await p.locator('html').getAttribute('lang')).toBe('de');
    const cards = p.locator('.item[data-status="completed"]');
    expect(await cards.count()).toBe(4);
    const first = cards.nth(0);
    expect(await first.locator('.headline').innerText()).toBe('Hilma af Klint, Der Schwan, 1915');
    expect(await first.locator('.headline cite.title').evaluate((e) => getComputedStyle(e).fontStyle)).toBe('italic');
    expect(await first.locator('.medium').innerText()).toBe('Öl auf Leinwand');
    expect(await first.locator('.dims').innerText()).toBe('101,6 × 76,2 cm (40 × 30 in)');
    expect(await first.locator('.edition').innerText()).toBe('Exemplar 3/25');
    expect(await first.locator('.price').innerText()).toBe('€ 9.500');
    expect(await first.locator('a.link').getAttribute('href')).toBe(`${SHOP}/schwan`);
    // The label reads in gallery order.
    expect(await first.locator('.caption').innerText()).toBe(
      'Hilma af Klint, Der Schwan, 1915\nÖl auf Leinwand\n101,6 × 76,2 cm (40 × 30 in)\nExemplar 3/25\n€ 9.500\nJetzt kaufen',
    );
    const sold = cards.nth(1);
    expect(await sold.getAttribute('data-availability')).toBe('sold');
    expect(await sold.locator('.availability').innerText()).toBe('Verkauft');
    expect(await sold.locator('.availability .dot').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(208, 2, 27)');
    expect(await sold.locator('a.link').count()).toBe(0);
    expect(await sold.locator('.price').count()).toBe(0);
    expect(await sold.innerText()).not.toMatch(/Jetzt kaufen|12\.000/);
    expect(await sold.locator(`a[href^="${SHOP}"]`).count()).toBe(0);
    expect(await cards.nth(2).locator('.availability').innerText()).toBe('Reserviert');
    expect(await cards.nth(2).locator('.price').innerText()).toBe('€ 4.800');
    expect(await cards.nth(3).locator('.availability').innerText()).toBe('Unverkäuflich');
    expect(await cards.nth(3).locator('a.link').count()).toBe(0);
    // The canvas's depth from the wall is part of its size.
    expect(await cards.nth(3).locator('.dims').innerText()).toBe('50 × 40 × 3,8 cm (19,7 × 15,7 × 1,5 in)');
    expect(await p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(csp).toEqual([]);
    await ctx.close();
  });

  it('AR banners: Quick Look and Scene Viewer carry the label; a sold work offers no call to action, price or link', async () => {
    const ios = await open(de.url, PHONE);
    const hrefs = await ios.p.locator('.item a.ar[rel="ar"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const fragment = (h: string) => Object.fromEntries(new URLSearchParams(h.slice(h.indexOf('#') + 1)));
    expect(fragment(hrefs[0]!)).toEqual({
      allowsContentScaling: '0',
      checkoutTitle: 'Der Schwan',
      checkoutSubtitle: 'Hilma af Klint, 1915 · 101,6 × 76,2 cm (40 × 30 in)',
      callToAction: 'Jetzt kaufen',
      price: '€ 9.500',
    });
    expect(fragment(hrefs[1]!)).toEqual({
      allowsContentScaling: '0',
      checkoutTitle: 'Stillleben mit Kürbis',
      checkoutSubtitle: 'Paula Modersohn-Becker, 1905 · 40 × 50 cm (15,7 × 19,7 in) · Verkauft',
    });
    // The banner tap opens only the available and reserved works' links.
    expect(await ios.p.locator('.item a.ar[data-link]').evaluateAll((as) => as.map((a) => a.getAttribute('data-link')))).toEqual([
      `${SHOP}/schwan`,
      `${SHOP}/komposition`,
    ]);
    await ios.ctx.close();
    const android = await open(de.url, ANDROID);
    const intents = await android.p.locator('.item a.ar').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const params = (h: string) => Object.fromEntries(new URLSearchParams(h.slice(h.indexOf('?') + 1, h.indexOf('#'))));
    expect(params(intents[0]!)).toMatchObject({ title: 'Hilma af Klint, Der Schwan, 1915', link: `${SHOP}/schwan` });
    expect(params(intents[1]!).title).toBe('Paula Modersohn-Becker, Stillleben mit Kürbis, 1905');
    expect(params(intents[1]!).link).toBeUndefined();
    await android.ctx.close();
  });

  it('item page: the label, the description, no buy link when sold; schema.org JSON-LD within the CSP', async () => {
    const available = await open(itemUrl(de, 0));
    expect(await available.p.locator('html').getAttribute('lang')).toBe('de');
    expect(await available.p.locator('h1').innerText()).toBe('Hilma af Klint, Der Schwan, 1915');
    expect(await available.p.locator('h1 .title').innerText()).toBe('Der Schwan');
    expect(await available.p.locator('.details .dims').innerText()).toBe('101,6 × 76,2 cm (40 × 30 in)');
    expect(await available.p.locator('.details .about').innerText()).toBe('Aus der Serie „Der Schwan“, gemalt 1914–1915.');
    expect(await available.p.locator('.details a.buy').innerText()).toBe('Jetzt kaufen');
    const ld = async (p: Page) => {
      const blocks = await p.locator('script[type="application/ld+json"]').allTextContents();
      expect(blocks).toHaveLength(1);
      return JSON.parse(blocks[0]!);
    };
    expect(await ld(available.p)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'VisualArtwork',
      url: itemUrl(de, 0),
      image: itemUrl(de, 0, '/thumb/1200.jpg'),
      name: 'Der Schwan',
      description: 'Aus der Serie „Der Schwan“, gemalt 1914–1915.',
      creator: { '@type': 'Person', name: 'Hilma af Klint' },
      artist: { '@type': 'Person', name: 'Hilma af Klint' },
      dateCreated: '1915',
      artMedium: 'Öl auf Leinwand',
      artEdition: '3/25',
      height: { '@type': 'QuantitativeValue', value: 101.6, unitCode: 'CMT', unitText: 'cm' },
      width: { '@type': 'QuantitativeValue', value: 76.2, unitCode: 'CMT', unitText: 'cm' },
      offers: { '@type': 'Offer', availability: 'https://schema.org/InStock', url: itemUrl(de, 0), price: '9500', priceCurrency: 'EUR' },
    });
    // A JSON-LD processor reads it as schema.org: a VisualArtwork by a Person, sizes with units, an Offer.
    const [artwork] = await expandSchemaOrg(await ld(available.p));
    const S = 'http://schema.org/';
    expect(artwork['@type']).toEqual([`${S}VisualArtwork`]);
    expect(artwork[`${S}artist`]).toEqual([{ '@type': [`${S}Person`], [`${S}name`]: [{ '@value': 'Hilma af Klint' }] }]);
    expect(artwork[`${S}dateCreated`]).toEqual([{ '@value': '1915' }]);
    expect(artwork[`${S}artMedium`]).toEqual([{ '@value': 'Öl auf Leinwand' }]);
    expect(artwork[`${S}width`]).toEqual([
      {
        '@type': [`${S}QuantitativeValue`],
        [`${S}value`]: [{ '@value': 76.2 }],
        [`${S}unitCode`]: [{ '@value': 'CMT' }],
        [`${S}unitText`]: [{ '@value': 'cm' }],
      },
    ]);
    expect(artwork[`${S}offers`]).toEqual([
      expect.objectContaining({ '@type': [`${S}Offer`], [`${S}availability`]: [{ '@value': 'https://schema.org/InStock' }] }),
    ]);
    expect(await available.p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(available.csp).toEqual([]);
    await available.ctx.close();

    const sold = await open(itemUrl(de, 1));
    expect(await sold.p.locator('.details .availability').innerText()).toBe('Verkauft');
    expect(await sold.p.locator('.details .availability .dot').count()).toBe(1);
    expect(await sold.p.locator('.details a.buy').count()).toBe(0);
    expect(await sold.p.locator(`a[href^="${SHOP}"]`).count()).toBe(0);
    const soldLd = await ld(sold.p);
    expect(soldLd).toMatchObject({
      '@type': 'VisualArtwork',
      artist: { name: 'Paula Modersohn-Becker' },
      dateCreated: '1905',
      artMedium: 'Öl auf Pappe',
      height: { value: 40, unitCode: 'CMT' },
      width: { value: 50, unitCode: 'CMT' },
      offers: { '@type': 'Offer', availability: 'https://schema.org/SoldOut' },
    });
    // A sold work's price is not published.
    expect(soldLd.offers.price).toBeUndefined();
    const reservedLd = await ld((await sold.p.goto(itemUrl(de, 2)), sold.p));
    expect(reservedLd.offers).toMatchObject({ availability: 'https://schema.org/Reserved', price: '4800', priceCurrency: 'EUR' });
    // Not for sale: no offer at all.
    expect((await ld((await sold.p.goto(itemUrl(de, 3)), sold.p))).offers).toBeUndefined();
    expect(await sold.p.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    expect(sold.csp).toEqual([]);
    await sold.ctx.close();
  });

  it('wall page and embed pages show the label; the sold work has nothing to buy there either', async () => {
    const wall = await open(itemUrl(de, 1, '/wall'));
    expect(await wall.p.locator('.wall-label .headline').innerText()).toBe('Paula Modersohn-Becker, Stillleben mit Kürbis, 1905');
    expect(await wall.p.locator('.wall-label .availability').innerText()).toBe('Verkauft');
    expect(await wall.p.locator('figcaption').innerText()).toBe(
      'Maßstabsgetreu gezeichnet: Das Bild misst 40 × 50 cm (15,7 × 19,7 in); daneben ein Sofa, 213 cm (84 in) breit.',
    );
    await wall.ctx.close();

    // The showcase's iframe variant.
    const embed = await open(de.embed_url);
    expect(await embed.p.locator('html').getAttribute('lang')).toBe('de');
    expect(await embed.p.locator('.item').nth(1).locator('.availability').innerText()).toBe('Verkauft');
    expect(await embed.p.locator('.item').nth(0).locator('.headline').innerText()).toBe('Hilma af Klint, Der Schwan, 1915');
    await embed.ctx.close();

    // Each work's own embed page (the 3D / AR page the cards open on a laptop), in the showcase's language.
    for (const platform of ['ios', 'android', 'desktop']) {
      const one = await open(`${de.items[1]!.embed_url}?platform=${platform}`);
      expect(await one.p.locator('html').getAttribute('lang')).toBe('de');
      expect(await one.p.locator('.banner .headline').innerText()).toBe('Paula Modersohn-Becker, Stillleben mit Kürbis, 1905');
      expect(await one.p.locator('.banner .sub').innerText()).toBe('Öl auf Pappe · 40 × 50 cm (15,7 × 19,7 in)');
      expect(await one.p.locator('.banner .availability').innerText()).toBe('Verkauft');
      expect(await one.p.locator('.banner .cta, .banner .price, [data-link]').count()).toBe(0);
      expect(await one.p.locator('#ar-launch').innerText()).toBe('In Ihrem Raum ansehen');
      const href = (await one.p.locator('#ar-launch').getAttribute('href')) ?? '';
      expect(href).not.toMatch(/callToAction|price=|link=/);
      if (platform === 'ios') await one.p.screenshot({ path: join(ARTIFACTS, 'catalogue-de-embed-sold-ios.png') });
      await one.ctx.close();
    }
    const forSale = await open(`${de.items[0]!.embed_url}?platform=ios`);
    expect(await forSale.p.locator('.banner .cta').innerText()).toBe('Jetzt kaufen');
    expect(await forSale.p.locator('.banner .price').innerText()).toBe('€ 9.500');
    await forSale.ctx.close();
  });

  it('an English page (?lang=en) writes the label the English way', async () => {
    const { ctx, p } = await open(`${de.url}?lang=en`);
    expect(await p.locator('html').getAttribute('lang')).toBe('en');
    const cards = p.locator('.item[data-status="completed"]');
    expect(await cards.nth(0).locator('.caption').innerText()).toBe(
      'Hilma af Klint, Der Schwan, 1915\nÖl auf Leinwand\n101.6 × 76.2 cm (40 × 30 in)\nEdition 3/25\n€ 9.500\nJetzt kaufen',
    );
    expect(await cards.nth(1).locator('.availability').innerText()).toBe('Sold');
    await ctx.close();
  });
});

describe('languages', () => {
  const PAGES = (m: Made) => [
    ['showcase', m.url],
    ['showcase embed', m.embed_url],
    ['item (for sale)', itemUrl(m, 0)],
    ['item (sold)', itemUrl(m, 1)],
    ['wall', itemUrl(m, 0, '/wall')],
    ['embed (iOS)', `${m.items[0]!.embed_url}?platform=ios`],
    ['embed (desktop)', `${m.items[1]!.embed_url}?platform=desktop`],
  ];

  it.each([
    ['German', 'de' as Locale, () => de],
    ['Japanese', 'ja' as Locale, () => ja],
  ])('a %s showcase has its lang on every page and no English string left', async (_name, locale, made) => {
    const m = made();
    expect(englishFragments(locale).length).toBeGreaterThan(60);
    // One context per viewport, every page opened in it in turn (each address once): a context costs ~0.2 s to
    // make, 28 of them were a third of this file's page time.
    for (const opts of [DESKTOP, PHONE]) {
      const ctx = await browser.newContext(opts);
      const p = await ctx.newPage();
      for (const [what, url] of PAGES(m)) {
        await p.goto(url!);
        expect([what, await p.locator('html').getAttribute('lang')]).toEqual([what, locale]);
        expect([what, await englishLeft(p, locale)]).toEqual([what, []]);
      }
      await ctx.close();
    }
  });

  it('the check is real: an English page of the same showcase is full of the words it looks for', async () => {
    const ctx = await browser.newContext(DESKTOP);
    const p = await ctx.newPage();
    await p.goto(`${de.url}?lang=en`);
    expect(await englishLeft(p, 'de')).toEqual(
      expect.arrayContaining(['See it on a wall', 'View in 3D / AR', 'Sold', 'Reserved', 'Not for sale']),
    );
    await ctx.close();
  });

  it('?lang= overrides the showcase’s language, is carried from page to page, and an unknown one is ignored', async () => {
    const { ctx, p } = await open(`${de.url}?lang=fr`);
    expect(await p.locator('html').getAttribute('lang')).toBe('fr');
    expect(await p.locator('.item').nth(1).locator('.availability').innerText()).toBe('Vendu');
    expect(await p.locator('.item').nth(0).locator('.dims').innerText()).toBe('101,6 × 76,2 cm (40 × 30 in)');
    expect(await p.locator('.item .wall-btn').first().innerText()).toBe('Voir sur un mur');
    expect(await englishLeft(p, 'fr')).toEqual([]);
    await p.locator('.item').nth(1).locator('a.media').click();
    await p.waitForURL(`${itemUrl(de, 1)}?lang=fr`);
    expect(await p.locator('html').getAttribute('lang')).toBe('fr');
    expect(await p.locator('.details .availability').innerText()).toBe('Vendu');
    await p.keyboard.press('ArrowRight');
    await p.waitForURL(`${itemUrl(de, 2)}?lang=fr`);
    await p.locator('.details a.wall-btn').click();
    await p.waitForURL(`${itemUrl(de, 2, '/wall')}?lang=fr`);
    expect(await p.locator('h1').innerText()).toBe('Komposition sur un mur');
    await p.locator('a[data-nav="close"]').click();
    await p.waitForURL(`${itemUrl(de, 2)}?lang=fr`);
    await p.keyboard.press('Escape');
    await p.waitForURL(`${de.url}?lang=fr#item-${de.items[2]!.id}`);
    expect(await p.locator('html').getAttribute('lang')).toBe('fr');
    // The desktop 3D / AR page opens in the same language.
    const embedHref = await p.locator('.item a.ar').first().getAttribute('href');
    expect(embedHref).toBe(`${de.items[0]!.embed_url}?lang=fr`);
    await ctx.close();
    // An unknown or malformed language leaves the showcase's own; a sloppy spelling of a known one works.
    for (const [lang, want] of [
      ['xx', 'de'],
      ['de,fr', 'de'],
      ['JA-jp', 'ja'],
    ]) {
      const html = await (await fetch(`${de.url}?lang=${encodeURIComponent(lang!)}`)).text();
      expect([lang, /<html lang="(\w+)">/.exec(html)![1]]).toEqual([lang, want]);
    }
    const unknown = await (await fetch(`${de.url}?lang=xx`)).text();
    expect(unknown).not.toContain('lang=xx');
    expect(unknown).not.toMatch(/items\/\d+\?lang=/);
  });

  it('caches by address: ?lang= is in the URL (no ETag, no Accept-Language variance)', async () => {
    const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
    const [plain, german, french] = await Promise.all([get(de.url), get(de.url, { 'accept-language': 'fr' }), get(`${de.url}?lang=fr`)]);
    for (const r of [plain, german, french]) {
      expect(r.headers.get('cache-control')).toBe('public, max-age=60');
      expect(r.headers.get('etag')).toBeNull();
      expect(r.headers.get('vary')).not.toMatch(/accept-language/i);
    }
    // The same address is the same page whatever the browser's language; another ?lang= is another page.
    const [a, b, c] = await Promise.all([plain.text(), german.text(), french.text()]);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(a).toContain(`<link rel="canonical" href="${de.url}">`);
    expect(c).toContain(`<link rel="canonical" href="${de.url}?lang=fr">`);
    expect(a).toContain(`<link rel="alternate" hreflang="ja" href="${de.url}?lang=ja">`);
    // Not found, in the language asked for.
    const missing = await fetch(`${de.url}/items/999999?lang=ja`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<html lang="ja"><head><meta charset="utf-8"><title>ページが見つかりません</title>');
  });

  it('axe finds no violations on the German and Japanese pages', async () => {
    // One context per viewport (each address once in it) that lets axe in past the CSP: 16 contexts at ~0.2 s
    // each were 3 of this test's 17 s.
    const violations: string[] = [];
    const audit = async (opts: Parameters<Browser['newContext']>[0], urls: string[]) => {
      const ctx = await browser.newContext({ ...opts, bypassCSP: true });
      const p = await ctx.newPage();
      for (const url of urls) {
        await p.goto(url);
        await loadAllImages(p);
        violations.push(...(await axeFindings(p)));
      }
      await ctx.close();
    };
    const desktop = (m: Made) =>
      PAGES(m)
        .filter(([what]) => what !== 'embed (desktop)')
        .map(([, url]) => url!);
    await audit(DESKTOP, [...desktop(de), ...desktop(ja)]);
    await audit(PHONE, [de.url, itemUrl(de, 1), ja.url, itemUrl(ja, 1)]);
    expect(violations).toEqual([]);
  });

  it('screenshots of the German and Japanese showcase and item pages', async () => {
    for (const [name, m] of [
      ['de', de],
      ['ja', ja],
    ] as const) {
      for (const [page, url] of [
        ['showcase', m.url],
        ['item', itemUrl(m, 1)],
        ['wall', itemUrl(m, 0, '/wall')],
      ] as const) {
        const ctx = await browser.newContext(DESKTOP);
        const p = await ctx.newPage();
        await p.goto(url);
        await loadAllImages(p);
        await p.screenshot({ path: join(ARTIFACTS, `catalogue-${name}-${page}.png`), fullPage: true });
        await ctx.close();
      }
      const phone = await browser.newContext(PHONE);
      const p = await phone.newPage();
      await p.goto(itemUrl(m, 0));
      await loadAllImages(p);
      await p.screenshot({ path: join(ARTIFACTS, `catalogue-${name}-item-phone.png`), fullPage: true });
      await phone.close();
    }
  });
});

describe('widget', () => {
  it('speaks its page’s language (data-service-lang first) and opens the embed page in it', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await p.goto(siteBase);
    for (const id of ['page-lang', 'own-lang']) await p.waitForSelector(`#${id}[data-ar-state="done"]`, { timeout: 30_000 });
    await p.waitForSelector('#broken[data-ar-state="error"]', { timeout: 30_000 });
    const frameOf = async (id: string) => {
      const handle = await p.locator(`#${id}`).evaluateHandle((el) => el.shadowRoot!.querySelector('iframe'));
      const title = await handle.evaluate((f) => (f as HTMLIFrameElement).title);
      const frame = (await handle.asElement()!.contentFrame())!;
      await frame.waitForLoadState('load');
      return { title, frame };
    };
    const german = await frameOf('page-lang');
    expect(german.title).toBe('AR-Ansicht');
    expect(german.frame.url()).toMatch(/\/embed\/emb_[a-z2-7]{24}\?lang=de$/);
    expect(await german.frame.locator('html').getAttribute('lang')).toBe('de');
    expect(await german.frame.locator('#ar-launch').innerText()).toBe('In Ihrem Raum ansehen');
    const japanese = await frameOf('own-lang');
    expect(japanese.title).toBe('ARビューア');
    expect(await japanese.frame.locator('html').getAttribute('lang')).toBe('ja');
    expect(await japanese.frame.locator('#ar-launch').innerText()).toBe('お部屋で見る');
    const error = await p.locator('#broken').evaluate((el) => el.shadowRoot!.querySelector('[role="alert"]')!.textContent);
    expect(error).toMatch(/^Das AR-Modell konnte nicht erstellt werden: /);
    await p.screenshot({ path: join(ARTIFACTS, 'catalogue-widget-de.png'), fullPage: true });
    await ctx.close();
  });
});
