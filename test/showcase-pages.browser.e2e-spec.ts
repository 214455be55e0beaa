import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { Api, ROOT, tempDir, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { launchChromium, USER_AGENTS, quadrantPicture } from '@app/testing';
import { startMediaServer } from './support/media-server';
import { rawGet } from './support/raw-get';

/**
 * The public showcase pages as a visitor sees them: every layout on a laptop and a phone, the item page
 * (larger view) with its keyboard and swipe navigation, the "See it on a wall" preview at true scale,
 * sharing tags, thumbnails, accessibility (axe-core) and hostile text. Screenshots go to
 * test-artifacts/screenshots/showcase-page-*.png.
 */

const OWNER = 'owner-key-for-showcase-pages-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
const XSS_TITLE = '<img src=x onerror=window.__xss=2> & Co';
const XSS_SCRIPT = '<script>window.__xss=1</script>';
const LAYOUTS = ['branded', 'grid', 'salon', 'minimal', 'dark'] as const;
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { userAgent: USER_AGENTS.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

jest.setTimeout(240_000);

let app: TestApp;
let owner: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let browser: Browser;
let showcase: { id: number; url: string; embed_url: string };
let items: { id: number; job_id: string; width_inches: number; height_inches: number }[];
let dataDir: string;
/** The thumbnail files in storage per job, listed as soon as the items completed (before any page was asked for). */
let thumbsAtCompletion: Record<string, string[]>;

/** Pictures of several shapes (24 in on the shorter side): 36 x 24, 24 x 36, 24 x 24, 72 x 24, 24 x 36, 32 x 24. */
const SHAPES: [string, number, number][] = [
  ['land', 600, 400],
  ['port', 400, 600],
  ['square', 500, 500],
  ['pano', 900, 300],
  ['tall', 300, 450],
  ['four-three', 640, 480],
];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const files: Record<string, Buffer> = {
    '/logo.png': await sharp({ create: { width: 240, height: 80, channels: 3, background: '#1b5e20' } })
      .png()
      .toBuffer(),
  };
  for (const [name, w, h] of SHAPES) files[`/${name}.png`] = (await quadrantPicture(w, h)).png;
  media = await startMediaServer(files);
  dataDir = tempDir();
  app = await startServiceApp(
    OWNER,
    {
      DATA_DIR: dataDir,
    },
    // The showcase pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  owner = new Api(app.base, OWNER);
  const r = await owner.req('POST', '/api/v2/showcases', {
    layout_choice: 'branded',
    indexable: true,
    logo_url: `${media.base}/logo.png`,
    description: `Hand-picked prints for real walls.\n${XSS_SCRIPT}`,
    custom_links: [
      { title: `Shop ${XSS_SCRIPT}`, url: 'https://shop.example.com/' },
      { title: 'About us', url: 'https://shop.example.com/about' },
    ],
    branding: { tagline: `Gallery North ${XSS_SCRIPT}`, primary_color: '#ffcc00', secondary_color: '#1b5e20' },
    items: [
      {
        image_url: `${media.base}/land.png`,
        title: XSS_TITLE,
        subtitle: XSS_SCRIPT,
        price: '$240',
        link_url: 'https://shop.example.com/p/1',
        call_to_action: 'Buy now',
        frame: 'classic',
        mat: { width_inches: 2, color: 'white' },
      },
      { image_url: `${media.base}/port.png`, title: 'Dunes', price: '$120', link_url: 'https://shop.example.com/p/2' },
      { image_url: `${media.base}/square.png`, title: 'Square sea' },
      { image_url: `${media.base}/pano.png`, title: 'Panorama', subtitle: 'Giclée print on cotton rag' },
      { image_url: `${media.base}/tall.png`, frame: 'thin', placement: 'floor' },
      { image_url: `${media.base}/four-three.png`, title: 'Harbour', price: '€90' },
    ],
  });
  expect(r.status).toBe(201);
  showcase = r.body;
  const done = await waitFor(
    async () => {
      const s = await owner.req('GET', `/api/v2/showcases/${showcase.id}`);
      return s.body.items.length === SHAPES.length && s.body.items.every((i: any) => i.status === 'completed') ? s.body : undefined;
    },
    120_000,
    'showcase items to convert',
  );
  expect(done.indexable).toBe(true);
  items = done.items.map((i: any) => ({
    id: i.id,
    job_id: i.job_id,
    width_inches: i.dimensions.width_inches,
    height_inches: i.dimensions.height_inches,
  }));
  thumbsAtCompletion = Object.fromEntries(
    items.map((i) => [
      i.job_id,
      readdirSync(join(dataDir, 'storage/models', i.job_id))
        .filter((f) => f.startsWith('thumb-') && !f.endsWith('.meta'))
        .sort(),
    ]),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await media?.stop();
});

async function setLayout(layout: string) {
  const r = await owner.req('PATCH', `/api/v2/showcases/${showcase.id}`, { layout_choice: layout });
  expect([r.status, r.body.layout_choice]).toEqual([200, layout]);
}

/** Loads every lazy image and waits for all of them (for measuring and full-page screenshots). */
async function loadAllImages(p: Page) {
  await p.evaluate(() =>
    document.querySelectorAll('img[loading="lazy"]').forEach((i) => {
      (i as HTMLImageElement).loading = 'eager';
    }),
  );
  await p.waitForFunction(() => Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0), undefined, { timeout: 30_000 });
}

/** axe-core under a context that lets the test inject it (the pages' CSP would refuse it, rightly). */
async function axeViolations(url: string, opts: Parameters<Browser['newContext']>[0]) {
  const ctx = await browser.newContext({ ...opts, bypassCSP: true });
  const p = await ctx.newPage();
  await p.goto(url);
  await loadAllImages(p);
  await p.addScriptTag({ path: AXE });
  const result = await p.evaluate(async () => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  await ctx.close();
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('layouts', () => {
  it('rejects an unknown layout_choice with a 400 listing the allowed values, and keeps "dark"', async () => {
    const r = await owner.req('POST', '/api/v2/showcases', { layout_choice: 'mosaic' });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('layout_choice');
    expect(r.body.error.message).toBe('layout_choice: must be one of branded, grid, salon, minimal, dark');
    const doc = await (await fetch(`${owner.base}/openapi.json`)).json();
    expect(JSON.stringify(doc)).toContain('"enum":["branded","grid","salon","minimal","dark"]');
  });

  for (const layout of LAYOUTS) {
    it(`${layout}: on a laptop and a phone, pictures keep their aspect ratio (no bands), full width, no overflow, no third-party requests, axe clean`, async () => {
      await setLayout(layout);
      for (const [device, opts] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const ctx: BrowserContext = await browser.newContext(opts);
        const p = await ctx.newPage();
        const requests: string[] = [];
        p.on('request', (req) => requests.push(req.url()));
        await p.goto(showcase.url);
        expect(await p.locator('body').getAttribute('class')).toContain(`layout-${layout}`);
        expect(await p.evaluate(() => (window as any).__xss)).toBeUndefined();
        // Branding in every layout: logo, tagline, links.
        expect(await p.locator('header.brand img.logo').count()).toBe(1);
        expect(await p.locator('.tagline').textContent()).toBe(`Gallery North ${XSS_SCRIPT}`);
        expect(await p.locator('nav.links a').count()).toBe(2);
        await loadAllImages(p);
        const boxes = await p.locator('.item[data-status="completed"] .media img').evaluateAll((imgs) =>
          imgs.map((i) => {
            const img = i as HTMLImageElement;
            const r = img.getBoundingClientRect();
            const art = img.closest('.item') as HTMLElement;
            return {
              w: r.width,
              h: r.height,
              nw: img.naturalWidth,
              nh: img.naturalHeight,
              iw: Number(art.dataset.widthInches),
              ih: Number(art.dataset.heightInches),
              lazy: img.loading,
              attrW: img.getAttribute('width'),
              attrH: img.getAttribute('height'),
              srcset: img.getAttribute('srcset'),
            };
          }),
        );
        expect(boxes).toHaveLength(SHAPES.length);
        for (const b of boxes) {
          // The box has the picture's shape: nothing letterboxed.
          expect(Math.abs(b.w / b.h - b.nw / b.nh) / (b.nw / b.nh)).toBeLessThan(0.03);
          expect(Math.abs(b.w / b.h - b.iw / b.ih) / (b.iw / b.ih)).toBeLessThan(0.03);
          expect(b.attrW && b.attrH).toBeTruthy();
          expect(b.srcset).toMatch(/\/thumb\/480\.webp 480w, .+\/thumb\/960\.webp 960w$/);
        }
        // Against the device width: a phone would zoom out to fit an overflowing page, widening innerWidth.
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(opts.viewport.width + 1);
        if (device === 'desktop' && layout !== 'minimal' && layout !== 'salon') {
          expect(await p.locator('section.grid').evaluate((e) => e.getBoundingClientRect().width)).toBeGreaterThan(1150);
        }
        if (device === 'phone') {
          // "See it on a wall" next to "View in your space" on every item.
          for (const card of await p.locator('.item[data-status="completed"] .actions').all()) {
            expect(await card.locator('a').allTextContents()).toEqual(['View in your space', 'See it on a wall']);
          }
        } else {
          expect(await p.locator('.item .wall-btn').count()).toBe(SHAPES.length);
        }
        // Only our own origin, and the owner's logo URL; model-viewer never loads on the showcase.
        const origins = new Set(requests.map((u) => new URL(u).origin));
        expect([...origins].sort()).toEqual([owner.base, media.base].sort());
        expect(requests.filter((u) => u.startsWith(media.base))).toEqual([`${media.base}/logo.png`]);
        expect(requests.some((u) => /model-viewer/.test(u))).toBe(false);
        // Chromium paints a full-page capture from what it rasterised: scroll through first, or pictures far
        // below the phone's viewport come out blank in the screenshot (not on the page).
        for (let y = 0, h = await p.evaluate(() => document.documentElement.scrollHeight); y < h; y += 600) {
          await p.evaluate((top) => window.scrollTo(0, top), y);
          await p.waitForTimeout(50);
        }
        await p.evaluate(() => window.scrollTo(0, 0));
        await p.screenshot({ path: join(ARTIFACTS, `showcase-page-${layout}-${device}.png`), fullPage: true });
        await ctx.close();
        expect(await axeViolations(showcase.url, opts)).toEqual([]);
      }
    });
  }

  it('salon: every picture is drawn at the same pixels per inch, rows on a common centre line', async () => {
    await setLayout('salon');
    for (const opts of [DESKTOP, PHONE]) {
      const ctx = await browser.newContext(opts);
      const p = await ctx.newPage();
      await p.goto(showcase.url);
      await loadAllImages(p);
      const pieces = await p.locator('.salon .item .media img').evaluateAll((imgs) =>
        imgs.map((i) => {
          const r = i.getBoundingClientRect();
          const art = i.closest('.item') as HTMLElement;
          return {
            w: r.width,
            h: r.height,
            cy: r.top + r.height / 2,
            iw: Number(art.dataset.widthInches),
            ih: Number(art.dataset.heightInches),
          };
        }),
      );
      const ppi = pieces.map((x) => x.w / x.iw);
      for (const v of ppi) expect(Math.abs(v - ppi[0]!) / ppi[0]!).toBeLessThan(0.01);
      for (const x of pieces) expect(Math.abs(x.h / x.ih - ppi[0]!) / ppi[0]!).toBeLessThan(0.02);
      // Pieces in the same row (overlapping vertically) share their centre line.
      for (const a of pieces)
        for (const b of pieces) {
          if (Math.abs(a.cy - b.cy) < Math.max(a.h, b.h) / 2) expect(Math.abs(a.cy - b.cy)).toBeLessThan(1.5);
        }
      await ctx.close();
    }
  });

  it('does not shift the layout while pictures load (CLS)', async () => {
    for (const [layout, opts] of [
      ['grid', DESKTOP],
      ['salon', DESKTOP],
      ['salon', PHONE],
      ['minimal', PHONE],
    ] as const) {
      await setLayout(layout);
      const ctx = await browser.newContext(opts);
      const p = await ctx.newPage();
      await p.goto(showcase.url, { waitUntil: 'load' });
      await loadAllImages(p);
      const { cls, shifts } = await p.evaluate(
        () =>
          new Promise<{ cls: number; shifts: string[] }>((resolve) => {
            let sum = 0;
            const shifts: string[] = [];
            new PerformanceObserver((l) => {
              for (const e of l.getEntries() as any[]) {
                if (e.hadRecentInput) continue;
                sum += e.value;
                // What moved, for the failure message: element, from and to.
                for (const s of e.sources ?? [])
                  shifts.push(
                    `${Math.round(e.startTime)}ms ${e.value.toFixed(4)} ${s.node?.nodeName ?? '?'}.${s.node?.className ?? ''} ` +
                      `${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`,
                  );
              }
            }).observe({ type: 'layout-shift', buffered: true });
            setTimeout(() => resolve({ cls: sum, shifts }), 500);
          }),
      );
      expect([layout, cls < 0.02, cls < 0.02 ? [] : shifts]).toEqual([layout, true, []]);
      await ctx.close();
    }
  });
});

describe('item page (larger view)', () => {
  it('shows the details and navigates with the arrow keys; Escape closes', async () => {
    await setLayout('grid');
    const ctx = await browser.newContext(DESKTOP);
    const p = await ctx.newPage();
    const csp: string[] = [];
    p.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
    });
    await p.goto(showcase.url);
    await p.locator(`#item-${items[0]!.id} a.media`).click();
    await p.waitForURL(`${showcase.url}/items/${items[0]!.id}`);
    expect(await p.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await p.locator('h1.title').textContent()).toBe(XSS_TITLE);
    expect(await p.locator('.details .price').textContent()).toBe('$240');
    expect(await p.locator('.details .sub').textContent()).toBe(XSS_SCRIPT);
    expect(await p.locator('.details .frame').textContent()).toBe('Classic walnut frame, white mat 2 in');
    expect(await p.locator('.details a.buy').getAttribute('href')).toBe('https://shop.example.com/p/1');
    expect(await p.locator('.details a.buy').textContent()).toBe('Buy now');
    expect(await p.locator('.details .wall-btn').textContent()).toBe('See it on a wall');
    await loadAllImages(p);
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-page-item-desktop.png'), fullPage: true });
    await p.keyboard.press('ArrowRight');
    await p.waitForURL(`${showcase.url}/items/${items[1]!.id}`);
    expect(await p.locator('h1.title').textContent()).toBe('Dunes');
    await p.keyboard.press('ArrowRight');
    await p.waitForURL(`${showcase.url}/items/${items[2]!.id}`);
    await p.keyboard.press('ArrowLeft');
    await p.waitForURL(`${showcase.url}/items/${items[1]!.id}`);
    await p.keyboard.press('Escape');
    await p.waitForURL(`${showcase.url}#item-${items[1]!.id}`);
    expect(csp).toEqual([]);
    expect(await axeViolations(`${showcase.url}/items/${items[0]!.id}`, DESKTOP)).toEqual([]);
    await ctx.close();
  });

  it('swipes on a phone', async () => {
    const ctx = await browser.newContext(PHONE);
    const p = await ctx.newPage();
    await p.goto(`${showcase.url}/items/${items[1]!.id}`);
    expect(await p.locator('.details .actions a').allTextContents()).toEqual([
      'View in your space',
      'See it on a wall',
      'On your wall, from a photo',
    ]);
    await loadAllImages(p);
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-page-item-phone.png'), fullPage: true });
    const swipe = (dx: number) =>
      p.evaluate((d) => {
        const at = (x: number) => new Touch({ identifier: 1, target: document.body, clientX: x, clientY: 300 });
        document.body.dispatchEvent(new TouchEvent('touchstart', { touches: [at(200)], changedTouches: [at(200)], bubbles: true }));
        document.body.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [at(200 + d)], bubbles: true }));
      }, dx);
    await swipe(-150);
    await p.waitForURL(`${showcase.url}/items/${items[2]!.id}`);
    await swipe(150);
    await p.waitForURL(`${showcase.url}/items/${items[1]!.id}`);
    expect(await axeViolations(`${showcase.url}/items/${items[1]!.id}`, PHONE)).toEqual([]);
    await ctx.close();
  });

  it('answers 404 for an unknown item', async () => {
    expect((await fetch(`${showcase.url}/items/999999`)).status).toBe(404);
    expect((await fetch(`${showcase.url}/items/${items[0]!.id}/thumb/123.webp`)).status).toBe(404);
  });
});

describe('See it on a wall', () => {
  it('draws the picture and the reference object at the same scale, with the sizes stated', async () => {
    for (const [n, kind] of [
      [0, 'sofa'],
      [3, 'sofa'],
      [4, 'person'],
    ] as const) {
      for (const [device, opts] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const ctx = await browser.newContext(opts);
        const p = await ctx.newPage();
        await p.goto(showcase.url);
        await p.locator(`#item-${items[n]!.id} a.wall-btn`).click();
        await p.waitForURL(`${showcase.url}/items/${items[n]!.id}/wall`);
        const m = await p.evaluate(() => {
          const pic = document.getElementById('wall-picture')!;
          const ref = document.getElementById('wall-reference')!;
          const a = pic.getBoundingClientRect();
          const b = ref.getBoundingClientRect();
          return {
            pw: a.width,
            ph: a.height,
            rw: b.width,
            rh: b.height,
            iw: Number(pic.dataset.widthInches),
            ih: Number(pic.dataset.heightInches),
            kind: ref.dataset.kind,
            dim: ref.dataset.dimension,
            inches: Number(ref.dataset.inches),
          };
        });
        expect(m.kind).toBe(kind);
        const ppi = m.pw / m.iw;
        expect(Math.abs(m.ph / m.ih - ppi) / ppi).toBeLessThan(0.01);
        const refPpi = (m.dim === 'width' ? m.rw : m.rh) / m.inches;
        expect(Math.abs(refPpi - ppi) / ppi).toBeLessThan(0.01);
        expect(await p.locator('figcaption').textContent()).toContain(
          kind === 'sofa' ? 'a sofa 84 in (213 cm) wide' : 'a person 5 ft 7 in (170 cm) tall',
        );
        // The framed item hangs at its outer size: 36 x 24 in picture + 2 x (classic moulding + 2 in mat).
        if (n === 0) expect(m.iw).toBeGreaterThan(items[0]!.width_inches + 4);
        if (device === 'phone') expect(await p.locator('.actions a.ar').textContent()).toBe('View in your space');
        await p.waitForFunction(() => document.querySelector('#wall-picture') !== null);
        await p.screenshot({ path: join(ARTIFACTS, `showcase-page-wall-${kind}-${n}-${device}.png`), fullPage: true });
        await ctx.close();
      }
    }
    expect(await axeViolations(`${showcase.url}/items/${items[0]!.id}/wall`, DESKTOP)).toEqual([]);
  });
});

describe('sharing, indexing and escaping', () => {
  const meta = (html: string, attr: 'property' | 'name', key: string) =>
    new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html)?.[1];

  it('has Open Graph and Twitter tags with the first picture at its size, a canonical URL, and is indexable when the owner says so', async () => {
    const r = await fetch(showcase.url);
    const html = await r.text();
    expect(r.headers.get('x-robots-tag')).toBeNull();
    expect(html).toContain('<meta name="robots" content="index,follow">');
    expect(html).toContain(`<link rel="canonical" href="${showcase.url}">`);
    expect(meta(html, 'property', 'og:title')).toBe('Gallery North &lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(meta(html, 'property', 'og:description')).toBe('Hand-picked prints for real walls. &lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');
    const image = meta(html, 'property', 'og:image')!;
    const poster = await fetch(image);
    expect(poster.status).toBe(200);
    const size = await sharp(Buffer.from(await poster.arrayBuffer())).metadata();
    expect([Number(meta(html, 'property', 'og:image:width')), Number(meta(html, 'property', 'og:image:height'))]).toEqual([
      size.width,
      size.height,
    ]);
    // The embed variant never is indexable; it points at the full page.
    const embed = await fetch(showcase.embed_url);
    const embedHtml = await embed.text();
    expect(embed.headers.get('x-robots-tag')).toBe('noindex');
    expect(embedHtml).toContain('<meta name="robots" content="noindex">');
    expect(embedHtml).toContain(`<link rel="canonical" href="${showcase.url}">`);
    // Default: not indexable.
    const plain = await owner.req('POST', '/api/v2/showcases', { description: 'Quiet' });
    expect(plain.body.indexable).toBeUndefined();
    expect((await owner.req('GET', `/api/v2/showcases/${plain.body.id}`)).body.indexable).toBe(false);
    const quiet = await fetch(plain.body.url);
    expect(quiet.headers.get('x-robots-tag')).toBe('noindex');
    expect(await quiet.text()).toContain('<meta name="robots" content="noindex">');
    const robots = await fetch(`${owner.base}/robots.txt`);
    expect([robots.status, robots.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(await robots.text()).toContain('Allow: /showcase/');
    const bad = await owner.req('POST', '/api/v2/showcases', { indexable: 'yes' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'indexable']);
  });

  it('makes the thumbnails at conversion time (AVIF and WebP by width, the sharing JPEG) and serves them as made', async () => {
    const want = [
      'thumb-1200.jpg',
      'thumb-480.avif',
      'thumb-480.webp',
      'thumb-720.avif',
      'thumb-720.webp',
      'thumb-960.avif',
      'thumb-960.webp',
    ];
    for (const i of items) expect(thumbsAtCompletion[i.job_id]).toEqual(want);
    // The job's timeline shows the stage, made before publish (in the CPU slot the variants step held).
    const job = await owner.req('GET', `/api/v2/jobs/${items[1]!.job_id}`);
    expect(job.body.stages.map((st: { stage: string }) => st.stage).slice(-3)).toEqual(['variants', 'thumbnails', 'publish']);
    for (const [file, type, format] of [
      ['480.webp', 'image/webp', 'webp'],
      ['480.avif', 'image/avif', 'heif'],
    ] as const) {
      const url = `${showcase.url}/items/${items[1]!.id}/thumb/${file}`;
      const first = await fetch(url);
      // The item can be deleted: an hour in shared caches, not a year as immutable.
      expect([first.status, first.headers.get('content-type'), first.headers.get('cache-control')]).toEqual([
        200,
        type,
        'public, max-age=3600',
      ]);
      const meta1 = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
      expect([meta1.format, meta1.width, meta1.height]).toEqual([format, 480, 720]);
      const again = await fetch(url);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    }
  });

  it('compresses the pages for clients that accept it (Brotli, else gzip) and varies on it', async () => {
    const raw = (encoding: string) => rawGet(showcase.url, { 'accept-encoding': encoding, 'user-agent': USER_AGENTS.ios });
    const [plain, br, gz] = [await raw('identity'), await raw('br, gzip'), await raw('gzip')];
    expect([plain.headers['content-encoding'], br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual([
      undefined,
      'br',
      'gzip',
    ]);
    expect(br.headers.vary).toBe('User-Agent, Accept-Encoding');
    // Same page (the showcase did not change in between), a fraction of the bytes.
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('offers AVIF first in a <picture>, and the browser shows the AVIF', async () => {
    await setLayout('grid');
    const ctx = await browser.newContext(DESKTOP);
    const p = await ctx.newPage();
    await p.goto(showcase.url);
    await loadAllImages(p);
    const pics = await p.locator('.item[data-status="completed"] .media picture').evaluateAll((ps) =>
      ps.map((pic) => ({
        source: pic.querySelector('source')!.getAttribute('type'),
        srcset: pic.querySelector('source')!.getAttribute('srcset'),
        current: (pic.querySelector('img') as HTMLImageElement).currentSrc,
      })),
    );
    await ctx.close();
    expect(pics).toHaveLength(SHAPES.length);
    for (const pic of pics) {
      expect(pic.source).toBe('image/avif');
      expect(pic.srcset).toMatch(/\/thumb\/480\.avif 480w, .+\/thumb\/720\.avif 720w, .+\/thumb\/960\.avif 960w$/);
      expect(pic.current).toMatch(/\/thumb\/\d+\.avif$/);
    }
  });

  it('escapes a hostile title and description everywhere (pages, item page, wall page, tags)', async () => {
    for (const path of ['', '/embed', `/items/${items[0]!.id}`, `/items/${items[0]!.id}/wall`]) {
      for (const platform of ['ios', 'android', 'desktop']) {
        const html = await (await fetch(`${showcase.url}${path}?platform=${platform}`)).text();
        expect(html).not.toContain('<script>window.__xss');
        expect(html).not.toMatch(/<img src=x/);
        expect(html).toContain('&lt;img src=x onerror=window.__xss=2&gt; &amp; Co');
      }
    }
  });

  it('picks readable text colours on the brand colours (WCAG AA)', async () => {
    await setLayout('branded');
    const ctx = await browser.newContext(DESKTOP);
    const p = await ctx.newPage();
    await p.goto(showcase.url);
    const pairs = await p.evaluate(() =>
      ['header.brand', '.item a.ar', 'nav.links a'].map((sel) => {
        const s = getComputedStyle(document.querySelector(sel)!);
        return [s.color, s.backgroundColor];
      }),
    );
    const lum = (rgb: string) => {
      const [r, g, b] = rgb
        .match(/\d+/g)!
        .slice(0, 3)
        .map((v) => {
          const c = Number(v) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    for (const [fg, bg] of pairs) {
      const [a, b] = [lum(fg!), lum(bg!)].sort((x, y) => y - x);
      expect((a! + 0.05) / (b! + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
    // Yellow primary: dark text on it; green secondary: white text.
    expect(pairs[0]).toEqual(['rgb(0, 0, 0)', 'rgb(255, 204, 0)']);
    expect(pairs[2]).toEqual(['rgb(255, 255, 255)', 'rgb(27, 94, 32)']);
    await ctx.close();
  });
});
