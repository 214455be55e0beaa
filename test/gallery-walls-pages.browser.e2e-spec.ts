import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, quadrantPicture, readGlb, USER_AGENTS, validateGlb } from '@app/testing';
import { Api, ROOT, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { axeViolations, englishLeft, loadAllImages } from './support/page-audit';

/**
 * Gallery walls on the public pages (docs/gallery-walls.md, "On the pages"), through the running service in
 * headless Chromium: a visitor ticks "Hang together" on three cards (floor pieces have no checkbox), the bar
 * appears from two, and "See them together on your wall" opens the together page (with a script: the canonical
 * `?items=`; without: the form's `?item=…`). That page draws each picture where VisitorWalls.plan puts it next
 * to a sofa, offers Quick Look on an iPhone, Scene Viewer on a wall on Android and model-viewer with a QR code
 * on a desktop; the model routes build once and then serve the stored files (same ETag); bad choices are a
 * friendly 400 page; a saved wall is a card with its own page; new builds are limited per visitor (429). axe
 * finds nothing, no CSP violation, no English on a German page. Screenshots: /tmp/walls-*.png.
 */

const OWNER = 'owner-key-for-gallery-walls-pages-e2e';
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { userAgent: USER_AGENTS.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const ANDROID = { userAgent: USER_AGENTS.android, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };
const SHOTS = '/tmp';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');

jest.setTimeout(300_000);

let app: TestApp;
let base: string;
let owner: Api;
/** The walls routes, outside the OpenAPI contract check. */
let walls: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let browser: Browser;
let glBrowser: Browser;
let showcase: { id: number; url: string };
/** The three wall pictures and the floor piece, as the API shows them. */
let pics: any[];
let floor: any;
/** Each test's own visitor (X-Forwarded-For, TRUST_PROXY=127.0.0.1): the build limit is per visitor. */
let visitors = 0;
const visitor = () => `10.0.0.${++visitors}`;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  media = await startMediaServer({
    '/land.png': (await quadrantPicture(600, 400)).png,
    '/port.png': (await quadrantPicture(400, 600)).png,
    '/square.png': (await quadrantPicture(500, 500)).png,
    '/tall.png': (await quadrantPicture(300, 450)).png,
  });
  app = await startServiceApp(OWNER, {
    TRUST_PROXY: '127.0.0.1',
    WALL_VISITOR_BUILDS_PER_MINUTE: '2',
  });
  base = app.base;
  owner = new Api(base, OWNER);
  walls = new Api(base, OWNER, false);
  const r = await owner.req('POST', '/api/v2/showcases', {
    layout_choice: 'grid',
    branding: { tagline: 'Gallery North' },
    items: [
      { image_url: `${media.base}/land.png`, title: 'Harbour', placement: 'wall', frame: 'classic' },
      { image_url: `${media.base}/port.png`, title: 'Dunes', placement: 'wall' },
      { image_url: `${media.base}/square.png`, title: 'Square sea', placement: 'wall' },
      { image_url: `${media.base}/tall.png`, title: 'Standing piece', placement: 'floor' },
    ],
  });
  expect(r.status).toBe(201);
  showcase = { id: r.body.id, url: r.body.url };
  const done = await waitFor(
    async () => {
      const s = await owner.req('GET', `/api/v2/showcases/${showcase.id}`);
      return s.body.items.length === 4 && s.body.items.every((i: any) => i.status === 'completed') ? s.body : undefined;
    },
    180_000,
    'the pictures to convert',
  );
  pics = done.items.slice(0, 3);
  floor = done.items[3];
  // Two browsers: the 3D preview drawn (WebGL in SwiftShader, ~14 CPU-s a page) only where a test waits for
  // it; elsewhere the pages are read for their markup in a browser without WebGL (model-viewer shows the poster).
  browser = await launchChromium({ webgl: false });
  glBrowser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await glBrowser?.close();
  await app?.close();
  await media?.stop();
});

/** A browser context as one visitor, recording Content-Security-Policy violations. */
async function open(
  url: string,
  opts: Parameters<Browser['newContext']>[0] = DESKTOP,
  via: Browser = browser,
): Promise<{ ctx: BrowserContext; p: Page; csp: string[] }> {
  const ctx = await via.newContext({ ...opts, extraHTTPHeaders: { 'x-forwarded-for': visitor() } });
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

const cspOf = async (p: Page, logged: string[]) => [...logged, ...((await p.evaluate(() => (window as any).__csp)) ?? [])];

/** Where the API lays out these pictures (the same arithmetic VisitorWalls.plan uses). */
async function layoutOf(ids: number[], arrangement: string) {
  const r = await walls.req('POST', `/api/v2/showcases/${showcase.id}/walls/layout`, {
    items: ids.map((item_id) => ({ item_id })),
    arrangement,
  });
  expect(r.status).toBe(200);
  return r.body as { items: any[]; outer_dimensions: { width_inches: number; height_inches: number } };
}

/** The 2D scene's pictures as drawn: data attributes and SVG geometry. */
async function drawn(p: Page) {
  return p.$$eval('svg.wall-scene .wall-picture', (els) =>
    els.map((e) => ({
      item: Number(e.getAttribute('data-item')),
      xIn: Number(e.getAttribute('data-x-inches')),
      yIn: Number(e.getAttribute('data-y-inches')),
      x: Number(e.getAttribute('x')),
      y: Number(e.getAttribute('y')),
      w: Number(e.getAttribute('width')),
      h: Number(e.getAttribute('height')),
      href: e.getAttribute('href'),
    })),
  );
}

/** The drawing matches the layout: each picture at its size, the distances between centres as laid out (y down in SVG). */
function expectDrawnAs(got: Awaited<ReturnType<typeof drawn>>, layout: { items: any[] }) {
  expect(got.map((g) => g.item)).toEqual(layout.items.map((i) => i.item_id));
  const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.02);
  layout.items.forEach((l, k) => {
    const g = got[k]!;
    near(g.w, l.width_inches);
    near(g.h, l.height_inches);
    near(g.xIn, l.x_inches);
    near(g.yIn, l.y_inches);
    const cx = g.x + g.w / 2 - (got[0]!.x + got[0]!.w / 2);
    const cy = g.y + g.h / 2 - (got[0]!.y + got[0]!.h / 2);
    near(cx, l.x_inches - layout.items[0].x_inches);
    near(cy, -(l.y_inches - layout.items[0].y_inches));
  });
}

/** Ticks the cards' "Hang together" boxes (a tap on a phone). */
async function tick(p: Page, ids: number[], touch = false) {
  for (const id of ids) {
    const box = p.locator(`#item-${id} .hang input`);
    if (touch) await box.tap();
    else await box.check();
  }
}

const ids = () => pics.map((i) => i.id as number);

describe('choosing pictures on the showcase page', () => {
  it('shows "Hang together" on wall pictures only; the bar appears from two and opens the together page (desktop)', async () => {
    const { ctx, p, csp } = await open(showcase.url);
    expect(await p.locator('.hang input').count()).toBe(3);
    expect(await p.locator(`#item-${floor.id} .hang`).count()).toBe(0);
    expect(await p.locator(`#item-${pics[0].id} .hang input`).getAttribute('aria-label')).toBe('Hang together: Harbour');
    const bar = p.locator('#together');
    expect(await bar.isVisible()).toBe(false);
    await tick(p, [pics[0].id]);
    expect(await bar.isVisible()).toBe(false);
    await tick(p, [pics[1].id]);
    expect(await bar.isVisible()).toBe(true);
    expect(await p.locator('#together .chosen').innerText()).toBe('2 chosen');
    await tick(p, [pics[2].id]);
    expect(await p.locator('#together .chosen').innerText()).toBe('3 chosen');
    expect(await p.locator('#together button').innerText()).toBe('See them together on your wall');
    await loadAllImages(p);
    await p.screenshot({ path: join(SHOTS, 'walls-showcase-bar.png') });
    // The bar stays in view at the bottom while the page scrolls.
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(900);
    await p.locator('#together button').click();
    await p.waitForURL(`${showcase.url}/together?items=${ids().join(',')}`);
    expect(await p.locator('h1').innerText()).toBe('Your pictures together');
    expect(await cspOf(p, csp)).toEqual([]);
    await ctx.close();
  });

  it('works without a script: the form asks for ?item=…&item=…', async () => {
    const { ctx, p } = await open(showcase.url, { ...DESKTOP, javaScriptEnabled: false });
    await tick(p, [pics[0].id, pics[2].id]);
    expect(await p.locator('#together').isVisible()).toBe(true);
    // The count is a CSS counter here (generated content: not in innerText); the screenshot shows it.
    await p.locator('#together').screenshot({ path: join(SHOTS, 'walls-bar-no-script.png') });
    await p.locator('#together button').click();
    await p.waitForURL(`${showcase.url}/together?item=${pics[0].id}&item=${pics[2].id}`);
    expect((await drawn(p)).map((d) => d.item)).toEqual([pics[0].id, pics[2].id]);
    await ctx.close();
  });

  it('on an iPhone: taps, then Quick Look of the set', async () => {
    const { ctx, p, csp } = await open(showcase.url, PHONE);
    await tick(p, ids(), true);
    await loadAllImages(p);
    await p.screenshot({ path: join(SHOTS, 'walls-showcase-bar-iphone.png') });
    await p.locator('#together button').tap();
    await p.waitForURL(`${showcase.url}/together?items=${ids().join(',')}`);
    const ar = p.locator('a[rel="ar"]');
    expect(await ar.locator('img').count()).toBe(1);
    const href = (await ar.getAttribute('href'))!;
    expect(href).toBe(
      `${base}/showcase/${showcase.url.split('/').pop()}/together/model.usdz?items=${encodeURIComponent(ids().join(','))}&arrangement=row#allowsContentScaling=0`,
    );
    expect(await p.locator('model-viewer').count()).toBe(0);
    await loadAllImages(p);
    await p.screenshot({ path: join(SHOTS, 'walls-together-iphone.png'), fullPage: true });
    expect(await cspOf(p, csp)).toEqual([]);
    expect(await axeViolations(browser, p.url(), PHONE)).toEqual([]);
    await ctx.close();
  });
});

describe('the together page', () => {
  it('draws the pictures where the layout puts them, next to a sofa, with the 3D preview and a QR code (desktop)', async () => {
    const url = `${showcase.url}/together?items=${ids().join(',')}`;
    const { ctx, p, csp } = await open(url, DESKTOP, glBrowser);
    const layout = await layoutOf(ids(), 'row');
    const got = await drawn(p);
    expectDrawnAs(got, layout);
    expect(got.every((g) => g.href && g.href.includes('/files/'))).toBe(true);
    expect(await p.locator('#wall-reference').getAttribute('data-kind')).toBe('sofa');
    expect(await p.locator('#wall-set').getAttribute('data-width-inches')).toBe(String(layout.outer_dimensions.width_inches));
    expect(await p.locator('.arrangements a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('aria-current')]))).toEqual([
      ['Row', 'page'],
      ['Grid', null],
      ['Salon', null],
    ]);
    expect(await p.locator('.chosen-list .title').allInnerTexts()).toEqual(['Harbour', 'Dunes', 'Square sea']);
    const w = layout.outer_dimensions.width_inches;
    const h = layout.outer_dimensions.height_inches;
    // Height × width, one decimal, as every page writes a size.
    const fmt = (v: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(v);
    expect(await p.locator('.overall').innerText()).toContain(`Overall size: ${fmt(h)} × ${fmt(w)} in`);
    expect(await p.locator('.qr-code svg').count()).toBe(1);
    const src = await p.locator('model-viewer').getAttribute('src');
    expect(src).toBe(`${showcase.url}/together/model.glb?items=${encodeURIComponent(ids().join(','))}&arrangement=row`);
    await p.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, undefined, { timeout: 120_000 });
    await loadAllImages(p);
    await p.screenshot({ path: join(SHOTS, 'walls-together-desktop.png'), fullPage: true });
    expect(await cspOf(p, csp)).toEqual([]);
    expect(await axeViolations(glBrowser, url, DESKTOP)).toEqual([]);
    // Another arrangement: its own layout, drawn the same way.
    await p.locator('.arrangements a[data-arrangement="grid"]').click();
    await p.waitForURL(/arrangement=grid/);
    expectDrawnAs(await drawn(p), await layoutOf(ids(), 'grid'));
    await ctx.close();
  });

  it('serves the model files once built: right types, a valid GLB, the same ETag again, 304 for it', async () => {
    const items = encodeURIComponent(ids().join(','));
    const me = { 'x-forwarded-for': visitor() };
    const get = (file: string, headers: Record<string, string> = {}) =>
      fetch(`${showcase.url}/together/${file}?items=${items}&arrangement=row`, { headers: { ...me, ...headers } });
    const glb = await get('model.glb');
    expect([glb.status, glb.headers.get('content-type'), glb.headers.get('access-control-allow-origin')]).toEqual([
      200,
      'model/gltf-binary',
      '*',
    ]);
    expect(glb.headers.get('cache-control')).toBe('public, max-age=3600');
    const body = Buffer.from(await glb.arrayBuffer());
    expect((await validateGlb(body)).numErrors).toBe(0);
    const doc = await readGlb(body);
    expect(
      doc
        .getRoot()
        .listNodes()
        .filter((n) => /^Item_\d+$/.test(n.getName())),
    ).toHaveLength(3);
    const usdz = await get('model.usdz');
    expect([usdz.status, usdz.headers.get('content-type')]).toEqual([200, 'model/vnd.usdz+zip']);
    expect(
      Buffer.from(await usdz.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    const poster = await get('poster.jpg');
    expect([poster.status, poster.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const again = await get('model.glb');
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(glb.headers.get('etag'));
    await again.arrayBuffer();
    const cached = await get('model.glb', { 'if-none-match': glb.headers.get('etag')! });
    expect(cached.status).toBe(304);
    expect((await get('model.obj')).status).toBe(404);
  });

  it('offers Scene Viewer on a wall on Android', async () => {
    const { ctx, p } = await open(`${showcase.url}/together?items=${ids().join(',')}`, ANDROID);
    const href = (await p.locator('a.ar').getAttribute('href'))!;
    const glb = `${showcase.url}/together/model.glb?items=${encodeURIComponent(ids().join(','))}&arrangement=row`;
    expect(href.startsWith(`intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=${encodeURIComponent(glb)}&`)).toBe(true);
    expect(href).toContain('&resizable=false&enable_vertical_placement=true#Intent;');
    expect(await p.locator('model-viewer').count()).toBe(0);
    await ctx.close();
  });

  it('answers a choice that cannot hang together with a 400 page, never a 500', async () => {
    const page = (q: string) => fetch(`${showcase.url}/together?${q}`, { headers: { 'x-forwarded-for': visitor() } });
    for (const q of [
      `items=${pics[0].id}`,
      `items=${pics[0].id},99999999`,
      `items=${pics[0].id},${floor.id}`,
      `items=${pics[0].id},${pics[0].id}`,
      `items=${pics[0].id},${pics[1].id}&arrangement=spiral`,
      'items=abc,def',
      '',
    ]) {
      const r = await page(q);
      const html = await r.text();
      expect([q, r.status, r.headers.get('content-type')]).toEqual([q, 400, 'text/html; charset=utf-8']);
      expect(html).toContain('These pictures cannot be hung together');
    }
    const files = await fetch(`${showcase.url}/together/model.glb?items=${pics[0].id},${floor.id}`);
    expect(files.status).toBe(400);
    expect((await fetch(`${base}/showcase/shw_aaaaaaaaaaaaaaaaaaaaaaaa/together?items=1,2`)).status).toBe(404);
    const { ctx, p, csp } = await open(`${showcase.url}/together?items=${pics[0].id}`);
    expect(await p.locator('h1').innerText()).toBe('These pictures cannot be hung together');
    expect(await p.locator('a.close').getAttribute('href')).toBe(showcase.url);
    expect(await cspOf(p, csp)).toEqual([]);
    expect(await axeViolations(browser, `${showcase.url}/together?items=${pics[0].id}`, DESKTOP)).toEqual([]);
    await ctx.close();
  });

  it('speaks the visitor’s language: no English left on the German page and its error page', async () => {
    for (const [q, opts] of [
      [`items=${ids().join(',')}&lang=de`, PHONE],
      [`items=${ids().join(',')}&lang=de`, DESKTOP],
      [`items=${pics[0].id}&lang=de`, PHONE],
    ] as const) {
      const { ctx, p } = await open(`${showcase.url}/together?${q}`, opts);
      expect(await p.getAttribute('html', 'lang')).toBe('de');
      expect(await englishLeft(p, 'de')).toEqual([]);
      await ctx.close();
    }
    const { ctx, p } = await open(`${showcase.url}?lang=de`);
    await tick(p, [pics[0].id, pics[1].id]);
    expect(await p.locator('#together .chosen').innerText()).toBe('2 ausgewählt');
    expect(await englishLeft(p, 'de')).toEqual([]);
    await p.locator('#together button').click();
    await p.waitForURL(`${showcase.url}/together?items=${pics[0].id},${pics[1].id}&lang=de`);
    await ctx.close();
  });
});

describe('saved walls', () => {
  it('shows a built wall as a card after the pictures, with its own page', async () => {
    const made = await walls.req('POST', `/api/v2/showcases/${showcase.id}/walls`, {
      name: 'Over the sofa',
      items: [{ item_id: pics[1].id }, { item_id: pics[0].id }, { item_id: pics[2].id }],
      arrangement: 'row',
    });
    expect(made.status).toBe(202);
    const wallId = made.body.id as string;
    const wall = await waitFor(
      async () => {
        const w = await walls.req('GET', `/api/v2/showcases/${showcase.id}/walls/${wallId}`);
        if (w.body.status === 'failed') throw new Error(JSON.stringify(w.body.error));
        return w.body.status === 'completed' && w.body;
      },
      180_000,
      'the saved wall to be built',
    );
    const { ctx, p, csp } = await open(showcase.url, DESKTOP, glBrowser);
    const card = p.locator(`a.wall-card#${wallId}`);
    expect(await card.locator('.name').innerText()).toBe('Over the sofa');
    expect(await card.locator('img').getAttribute('src')).toBe(wall.preview_url);
    expect(await card.locator('.go').innerText()).toBe('View on your wall');
    expect(await card.getAttribute('href')).toBe(wall.page_url);
    await loadAllImages(p);
    await card.scrollIntoViewIfNeeded();
    await p.screenshot({ path: join(SHOTS, 'walls-showcase-saved-card.png') });
    // After the pictures.
    expect(
      await p.evaluate(() => !!(document.querySelector('.grid')!.compareDocumentPosition(document.querySelector('.walls')!) & 4)),
    ).toBe(true);
    await card.click();
    await p.waitForURL(wall.page_url);
    expect(await p.locator('h1').innerText()).toBe('Over the sofa');
    expectDrawnAs(await drawn(p), wall);
    expect(await p.locator('model-viewer').getAttribute('src')).toBe(wall.glb_url);
    expect(await p.locator('.arrangements').count()).toBe(0);
    await p.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, undefined, { timeout: 60_000 });
    await loadAllImages(p);
    await p.screenshot({ path: join(SHOTS, 'walls-saved-desktop.png'), fullPage: true });
    expect(await cspOf(p, csp)).toEqual([]);
    expect(await axeViolations(glBrowser, wall.page_url, DESKTOP)).toEqual([]);
    await ctx.close();
    const ios = await open(wall.page_url, PHONE);
    expect((await ios.p.locator('a[rel="ar"]').getAttribute('href'))!.startsWith(wall.usdz_url)).toBe(true);
    await ios.ctx.close();
    expect((await fetch(`${showcase.url}/walls/wall_aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
  });
});

describe('the build limit', () => {
  it('builds at most WALL_VISITOR_BUILDS_PER_MINUTE (2) new walls a minute for one visitor: the third is a 429', async () => {
    const me = { 'x-forwarded-for': '10.9.9.9' };
    const [a, b, c] = ids();
    const choices = [`${a},${b}`, `${b},${c}`, `${a},${c}`].map(
      (items) => `${showcase.url}/together/model.glb?items=${encodeURIComponent(items)}&arrangement=salon`,
    );
    expect((await fetch(choices[0]!, { headers: me })).status).toBe(200);
    expect((await fetch(choices[1]!, { headers: me })).status).toBe(200);
    const third = await fetch(choices[2]!, { headers: me });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Built ones stay free: the same choice again is served from storage.
    expect((await fetch(choices[0]!, { headers: me })).status).toBe(200);
    // Another visitor is not limited by this one.
    expect((await fetch(choices[2]!, { headers: { 'x-forwarded-for': '10.9.9.10' } })).status).toBe(200);
  });

  it('counts a choice asked for twice at once (model-viewer: model and poster) as one build', async () => {
    const me = { 'x-forwarded-for': '10.9.9.11' };
    const [a, b, c] = ids();
    const file = (items: string, name: string) => `${showcase.url}/together/${name}?items=${encodeURIComponent(items)}&arrangement=grid`;
    const both = await Promise.all([
      fetch(file(`${a},${b}`, 'model.glb'), { headers: me }),
      fetch(file(`${a},${b}`, 'poster.jpg'), { headers: me }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await fetch(file(`${b},${c}`, 'model.glb'), { headers: me })).status).toBe(200);
    expect((await fetch(file(`${a},${c}`, 'model.glb'), { headers: me })).status).toBe(429);
  });
});
