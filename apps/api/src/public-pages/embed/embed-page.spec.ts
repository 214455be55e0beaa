import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { writeCardGlb } from '@app/plugins';
import { launchChromium, ROOT } from '@app/testing';
import { SHOWCASE_CSP, showcasePage, type PageShowcase } from '../showcase/showcase-page';
import { embedCsp, interactivePage, type ReadyModel } from './embed-page';
import { launchPresentation, QUICK_LOOK_TAP_SCRIPT, QUICK_LOOK_TAP_SCRIPT_HASH } from '../platform';

const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const TITLE = 'Sunset <script>alert(1)</script> & Co';
const LINK = 'https://shop.example.com/p/sunset?ref=ar&size=24x36';
const TAPPED = '_apple_ar_quicklook_button_tapped';

/** A job result as the writers store it for a framed wall picture with a banner (24 x 36 in, classic frame, mat). */
const wallResult = {
  dimensions: { width_inches: 24, height_inches: 36 },
  files: {},
  texture: {},
  placement: 'wall',
  allow_scaling: false,
  finish: 'matte',
  frame: { style: 'classic', width_inches: 1.5, depth_inches: 1.25, color: 'walnut' },
  mat: { width_inches: 0.5, color: 'white' },
  outer_dimensions: { width_inches: 28, height_inches: 40, depth_inches: 1.25 },
  banner: { title: TITLE, subtitle: 'Giclée print, signed', price: '$240', call_to_action: 'Buy "now"', link_url: LINK },
};

/** The model of a page; with no second argument, the framed wall picture's presentation. */
function model(base: string, ...given: [ReadyModel['presentation']?]): ReadyModel {
  return {
    pageUrl: `${base}/embed/emb_test`,
    posterUrl: `${base}/files/poster.png`,
    glbUrl: `${base}/files/model.glb`,
    usdzUrl: `${base}/files/model.usdz`,
    widthInches: 24,
    heightInches: 36,
    qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
    assetBase: base,
    presentation: given.length ? given[0] : launchPresentation(wallResult),
  };
}

const attr = (html: string, re: RegExp) => {
  const m = html.match(re);
  if (!m) throw new Error(`no match for ${re}`);
  return m[1]
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
};

describe('embed page with a presentation (unit)', () => {
  const base = 'https://ar.example.com';

  it('Android: the intent has wall placement, locked size, the title and the link', () => {
    const html = interactivePage(model(base), 'android');
    const intent = attr(html, /<a class="ar-button" id="ar-launch" target="_top" href="([^"]+)"/);
    const query = new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#')));
    expect(Object.fromEntries(query)).toEqual({
      mode: 'ar_preferred',
      file: `${base}/files/model.glb`,
      title: TITLE,
      link: LINK,
      resizable: 'false',
      enable_vertical_placement: 'true',
    });
    expect(intent).toContain('&title=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co&');
    expect(intent).toMatch(
      /#Intent;scheme=https;package=com\.google\.android\.googlequicksearchbox;action=android\.intent\.action\.VIEW;S\.browser_fallback_url=https%3A%2F%2Far\.example\.com%2Fembed%2Femb_test;end;$/,
    );
  });

  it('iOS: the Quick Look href carries the fragment, the anchor the link and the tap script', () => {
    const html = interactivePage(model(base), 'ios');
    const href = attr(html, /<a class="ar-button" id="ar-launch" rel="ar" href="([^"]+)"/);
    expect(href).toBe(
      `${base}/files/model.usdz#allowsContentScaling=0&checkoutTitle=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co` +
        '&checkoutSubtitle=Gicl%C3%A9e%20print%2C%20signed&callToAction=Buy%20%22now%22&price=%24240',
    );
    expect(attr(html, /rel="ar" href="[^"]+" data-link="([^"]+)"/)).toBe(LINK);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual([QUICK_LOOK_TAP_SCRIPT]);
    expect(embedCsp(base)).toContain(QUICK_LOOK_TAP_SCRIPT_HASH);
  });

  it('every platform: the banner is escaped, nothing user-supplied runs', () => {
    for (const platform of ['ios', 'android', 'desktop'] as const) {
      const html = interactivePage(model(base), platform);
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('Buy "now"');
      expect(html).toContain('<span class="title">Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</span>');
      expect(html).toContain('<title>Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co · View in AR</title>');
      expect(html).toContain('<span class="price">$240</span>');
      expect(html).toContain(`<a class="cta" href="${LINK.replace(/&/g, '&amp;')}" target="_top" rel="noopener">Buy &quot;now&quot;</a>`);
      expect(html).toContain('<span class="size">36 × 24 in, 40 × 28 × 1.3 in framed</span>');
    }
  });

  it('desktop: model-viewer on a wall, fixed scale, soft shadow, neutral light, facing the front', () => {
    const html = interactivePage(model(base), 'desktop');
    const mv = html.match(/<model-viewer [^>]*>/)![0];
    for (const a of [
      'ar-placement="wall"',
      'ar-scale="fixed"',
      'environment-image="neutral"',
      'shadow-intensity="0.8"',
      'shadow-softness="1"',
      'camera-orbit="0deg 90deg auto"',
      ' ar ',
    ]) {
      expect(mv).toContain(a);
    }
    expect(mv).toContain('alt="3D preview of Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"');
    expect(html).toContain('<div class="card wall has-banner" data-platform="desktop" data-variant="interactive" data-placement="wall">');
    // Still the page's one inline script on desktop (the QR code).
    expect([...html.matchAll(/<script>/g)]).toHaveLength(1);
    // Scaling allowed, floor: no ar-scale, floor placement, no wall backdrop.
    const floor = interactivePage(
      model(base, launchPresentation({ ...wallResult, placement: 'floor', allow_scaling: true, banner: {} })),
      'desktop',
    );
    expect(floor).toContain('ar-placement="floor"');
    expect(floor).not.toContain('ar-scale=');
    expect(floor).toContain('<div class="card" data-platform="desktop"');
    expect(floor).not.toContain('class="banner"');
  });

  it('old results (no presentation): exactly the old launch links and preview', () => {
    const old = model(base, launchPresentation({ dimensions: { width_inches: 24, height_inches: 36 }, files: {} }));
    expect(old.presentation).toBeUndefined();
    expect(interactivePage(old, 'ios')).toContain(
      `<a class="ar-button" id="ar-launch" rel="ar" href="${base}/files/model.usdz#allowsContentScaling=0"><img src="${base}/files/poster.png" alt="">View in your space</a>\n</div>`,
    );
    expect(interactivePage(old, 'android')).toContain(
      `href="intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&amp;file=https%3A%2F%2Far.example.com%2Ffiles%2Fmodel.glb&amp;title=Picture&amp;resizable=false#Intent;`,
    );
    const desktop = interactivePage(old, 'desktop');
    expect(desktop).toContain(
      `<model-viewer src="${base}/files/model.glb" ios-src="${base}/files/model.usdz" poster="${base}/files/poster.png" alt="3D preview of the picture" camera-controls camera-orbit="0deg 90deg auto" interaction-prompt="none" shadow-intensity="0" exposure="1"></model-viewer>`,
    );
    expect(desktop).toContain('<div class="card" data-platform="desktop" data-variant="interactive">');
    expect(desktop).toContain('<span class="size">36 × 24 in</span>');
    for (const p of ['ios', 'android', 'desktop'] as const) {
      expect(interactivePage(old, p)).not.toMatch(/class="banner"|<script>\(function\(\)\{var T=/);
      expect(interactivePage(old, p)).toContain('<title>View in AR</title>');
    }
  });
});

describe('showcase card with a presentation (unit)', () => {
  const base = 'https://ar.example.com';
  const showcase = (items: PageShowcase['items']): PageShowcase => ({
    layout: 'minimal',
    logoUrl: null,
    description: null,
    links: [],
    tagline: null,
    primary: null,
    secondary: null,
    pageUrl: `${base}/showcase/shw_x`,
    indexable: false,
    items,
  });
  const ready = (p = launchPresentation(wallResult)) => ({
    posterUrl: `${base}/p.png`,
    glbUrl: `${base}/m.glb`,
    usdzUrl: `${base}/m.usdz`,
    embedUrl: `${base}/embed/emb_1`,
    widthInches: 24,
    heightInches: 36,
    presentation: p,
    itemUrl: `${base}/showcase/shw_x/items/1`,
    wallUrl: `${base}/showcase/shw_x/items/1/wall`,
    thumbs: [{ url: `${base}/showcase/shw_x/items/1/thumb/480.webp`, width: 480 }],
  });

  it("launch links use the item's own presentation, the card shows title, price and link (escaped)", () => {
    const items = [
      { id: 1, status: 'completed', progress: 100, title: 'sunset.jpg', ready: ready() },
      { id: 2, status: 'completed', progress: 100, title: 'old.jpg', ready: ready(undefined) },
    ];
    items[1].ready.presentation = undefined;
    const ios = showcasePage(showcase(items), 'ios', false);
    expect(ios).not.toContain('<script>alert');
    expect(ios).toContain(
      '<span class="title">Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</span><span class="price">$240</span>',
    );
    expect(ios).toContain(`<a class="link" href="${LINK.replace(/&/g, '&amp;')}" target="_top" rel="noopener">Buy &quot;now&quot;</a>`);
    expect(ios).toContain(
      `<a class="ar" rel="ar" href="${base}/m.usdz#allowsContentScaling=0&amp;checkoutTitle=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co&amp;checkoutSubtitle=`,
    );
    expect(ios).toContain(`data-link="${LINK.replace(/&/g, '&amp;')}"`);
    expect(ios).toContain(`<a class="ar" rel="ar" href="${base}/m.usdz#allowsContentScaling=0"><img`);
    expect([...ios.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual([QUICK_LOOK_TAP_SCRIPT]);
    expect(SHOWCASE_CSP).toMatch(
      new RegExp(`script-src ${QUICK_LOOK_TAP_SCRIPT_HASH.replace(/[+/]/g, '\\$&')} 'sha256-[A-Za-z0-9+/]{43}=';`),
    );
    const android = showcasePage(showcase(items), 'android', false);
    expect(android).toContain(
      '&amp;title=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co&amp;link=https%3A%2F%2Fshop.example.com%2Fp%2Fsunset%3Fref%3Dar%26size%3D24x36&amp;resizable=false&amp;enable_vertical_placement=true#Intent;',
    );
    expect(android).toContain('&amp;title=old.jpg&amp;resizable=false#Intent;');
    expect(android).not.toContain('<script');
    const desktop = showcasePage(showcase(items), 'desktop', false);
    expect(desktop).not.toContain('<script');
    expect(desktop).toContain('<span class="size">36 × 24 in, 40 × 28 × 1.3 in framed</span>');
    expect(desktop).toContain('<span class="size">36 × 24 in</span>');
  });
});

describe('embed page in headless Chromium', () => {
  // Software WebGL on a shared, busy machine: the desktop preview can take a while.
  jest.setTimeout(120_000);
  let server: Server;
  let base: string;
  let browser: Browser;
  let glb: Buffer;
  let poster: Buffer;
  /** Paths to HTML and the CSP each is served with. */
  const pages: Record<string, { html: string; csp: string }> = {};

  beforeAll(async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="720">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2b3a67"/><stop offset=".55" stop-color="#e07a5f"/><stop offset=".75" stop-color="#f2cc8f"/></linearGradient></defs>
<rect width="480" height="720" fill="url(#sky)"/><circle cx="240" cy="430" r="80" fill="#f9e2ae"/>
<rect y="500" width="480" height="220" fill="#3d405b"/><path d="M0 560 Q120 520 240 560 T480 560 V720 H0Z" fill="#2a2d43"/></svg>`;
    poster = await sharp(Buffer.from(svg)).png().toBuffer();
    const jpg = await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
    glb = await writeCardGlb({ texture: jpg, mime: 'image/jpeg', alpha: 'opaque', width: 24 * 0.0254, height: 36 * 0.0254 });
    const modelViewer = readFileSync(require.resolve('@google/model-viewer/dist/model-viewer.min.js'));
    server = createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      const p = pages[path];
      if (p) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': p.csp });
        res.end(p.html);
      } else if (path === '/assets/model-viewer.min.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(modelViewer);
      } else if (path === '/files/model.glb') {
        res.writeHead(200, { 'content-type': 'model/gltf-binary' });
        res.end(glb);
      } else if (path === '/files/poster.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(poster);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const csp = embedCsp(base);
    pages['/embed/ios'] = { html: interactivePage(model(base), 'ios'), csp };
    pages['/embed/desktop'] = { html: interactivePage(model(base), 'desktop'), csp };
    pages['/embed/desktop-plain'] = {
      html: interactivePage(
        model(base, launchPresentation({ ...wallResult, banner: {}, outer_dimensions: wallResult.dimensions })),
        'desktop',
      ),
      csp,
    };
    pages['/embed/desktop-old'] = { html: interactivePage(model(base, undefined), 'desktop'), csp };
    // Negative control: the same page under a CSP without the tap script's hash must report a violation.
    pages['/embed/ios-no-hash'] = { html: interactivePage(model(base), 'ios'), csp: csp.replace(` ${QUICK_LOOK_TAP_SCRIPT_HASH}`, '') };
    pages['/showcase/ios'] = {
      html: showcasePage(
        {
          layout: 'minimal',
          logoUrl: null,
          description: null,
          links: [],
          tagline: 'Gallery',
          primary: null,
          secondary: null,
          pageUrl: `${base}/showcase/ios`,
          indexable: false,
          items: [
            {
              id: 1,
              status: 'completed',
              progress: 100,
              title: 'sunset.jpg',
              ready: {
                posterUrl: `${base}/files/poster.png`,
                glbUrl: `${base}/files/model.glb`,
                usdzUrl: `${base}/files/model.usdz`,
                embedUrl: `${base}/embed/desktop`,
                widthInches: 24,
                heightInches: 36,
                presentation: launchPresentation(wallResult),
                itemUrl: `${base}/showcase/ios/items/1`,
                wallUrl: `${base}/showcase/ios/items/1/wall`,
                thumbs: [],
              },
            },
          ],
        },
        'ios',
        false,
      ),
      csp: `${SHOWCASE_CSP}; frame-ancestors 'self'`,
    };
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  /** Opens a page, collecting CSP reports (console and securitypolicyviolation) and pretending to be the shop. */
  async function open(path: string, viewport = { width: 390, height: 640 }) {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.exposeFunction('__cspViolation', (d: string) => violations.push(d));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => (window as any).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`)),
    );
    const shop: string[] = [];
    await page.route('https://shop.example.com/**', (route) => {
      shop.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Shop</title>' });
    });
    await page.goto(`${base}${path}`);
    return { ctx, page, violations, shop };
  }

  const tap = (page: Page, selector: string, data = TAPPED) =>
    page
      .locator(selector)
      .first()
      .evaluate((el, d) => el.dispatchEvent(new MessageEvent('message', { data: d })), data);

  it('iOS: a tap on the Quick Look banner (message event on a[rel=ar]) opens link_url, within the CSP', async () => {
    const { ctx, page, violations, shop } = await open('/embed/ios');
    expect(await page.title()).toBe(`${TITLE} · View in AR`);
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-wall-ios.png') });
    // Other messages do nothing.
    await tap(page, 'a[rel=ar]', 'something else');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${base}/embed/ios`);
    await tap(page, 'a[rel=ar]');
    await page.waitForURL(LINK);
    expect(shop).toEqual([LINK]);
    expect(violations).toEqual([]);
    await ctx.close();
  });

  it('the CSP check is real: without the script hash, the same page reports a violation and does not navigate', async () => {
    const { ctx, page, violations, shop } = await open('/embed/ios-no-hash');
    await tap(page, 'a[rel=ar]');
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${base}/embed/ios-no-hash`);
    expect(shop).toEqual([]);
    expect(violations.length).toBeGreaterThan(0);
    await ctx.close();
  });

  it("showcase on iOS: the item's banner tap opens its link under SHOWCASE_CSP", async () => {
    const { ctx, page, violations, shop } = await open('/showcase/ios');
    expect(await page.locator('.item .caption .title').textContent()).toBe(TITLE);
    expect(await page.locator('.item .caption .price').textContent()).toBe('$240');
    expect(await page.evaluate(() => (window as any).alert.toString())).toContain('[native code]');
    await page.screenshot({ path: join(ARTIFACTS, 'showcase-wall-ios.png'), fullPage: true });
    await tap(page, '.item a.ar[rel=ar]');
    await page.waitForURL(LINK);
    expect(shop).toEqual([LINK]);
    expect(violations).toEqual([]);
    await ctx.close();
  });

  it('old results keep the old desktop preview (floor, no shadow, no backdrop)', async () => {
    const { ctx, page, violations } = await open('/embed/desktop-old', { width: 720, height: 600 });
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 30_000 });
    expect(await page.locator('model-viewer').evaluate((el: any) => [el.arPlacement, el.arScale, el.shadowIntensity, el.ar])).toEqual([
      'floor',
      'auto',
      0,
      false,
    ]);
    expect(await page.locator('.card').evaluate((e) => getComputedStyle(e).backgroundImage)).toBe('none');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-old-desktop.png') });
    expect(violations).toEqual([]);
    await ctx.close();
  });

  it('desktop preview: the picture on a warm-grey wall with a soft shadow, banner and framed size', async () => {
    const { ctx, page, violations } = await open('/embed/desktop', { width: 720, height: 600 });
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 30_000 });
    const mv = page.locator('model-viewer');
    expect(
      await mv.evaluate((el: any) => [el.arPlacement, el.arScale, el.environmentImage, el.shadowIntensity, el.shadowSoftness]),
    ).toEqual(['wall', 'fixed', 'neutral', 0.8, 1]);
    const orbit = await mv.evaluate((el: any) => el.getCameraOrbit());
    expect(orbit.theta).toBeCloseTo(0, 3);
    expect(orbit.phi).toBeCloseTo(Math.PI / 2, 3);
    // The wall is behind the (transparent) viewer.
    expect(await page.locator('.card').evaluate((e) => getComputedStyle(e).backgroundImage)).toContain('radial-gradient');
    expect(await page.locator('.banner .title').textContent()).toBe(TITLE);
    expect(await page.locator('.banner .cta').getAttribute('href')).toBe(LINK);
    expect(await page.locator('.size').textContent()).toBe('36 × 24 in, 40 × 28 × 1.3 in framed');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-wall-desktop.png') });
    // The QR dialog still opens (the page's own inline script, by hash).
    await page.locator('#ar-launch').dispatchEvent('click');
    await page.waitForSelector('#qr.open svg');
    // Wall placement without a banner or frame: the plain size, the whole card for the wall.
    await page.goto(`${base}/embed/desktop-plain`);
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 30_000 });
    expect(await page.locator('.size').textContent()).toBe('36 × 24 in');
    expect(await page.locator('.banner').count()).toBe(0);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-wall-desktop-plain.png') });
    expect(violations).toEqual([]);
    await ctx.close();
  });
});
