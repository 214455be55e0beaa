import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { Api, ROOT } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { launchChromium, USER_AGENTS } from '@app/testing';
import { startMediaServer } from './support/media-server';

const OWNER = 'owner-key-for-browser-e2e-tests';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');

let app: TestApp;
let api: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let site: Server;
let siteBase: string;
let browser: Browser;
let glBrowser: Browser;
let existingJob: string;
/** A user's `widget` key allowed from siteBase only (the key a real page would carry). */
let widgetKey: string;

/** A customer's page on another origin: attributes and the JS API, both variants, and a failing image. */
function customerPage(): string {
  const w = api.base;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<style>body{font-family:sans-serif;margin:16px} .slot{width:360px;height:270px;display:inline-block;margin:8px;vertical-align:top}</style></head>
<body>
<h1>Customer shop</h1>
<div id="attr-interactive" class="slot" data-service-image="${media.base}/slow.jpg" data-service-key="${OWNER}"></div>
<div id="attr-static" class="slot" data-service-image="${media.base}/street.jpg" data-service-key="${OWNER}" data-service-variant="static"></div>
<div id="js-embed" class="slot"></div>
<div id="js-mount" class="slot"></div>
<div id="attr-job" class="slot" data-service-job="${existingJob}" data-service-key="${OWNER}"></div>
<div id="broken" class="slot" data-service-image="${media.base}/page.html" data-service-key="${OWNER}"></div>
<script>
  window.__states = {};
  new MutationObserver(function (list) {
    list.forEach(function (m) {
      var id = m.target.id, s = m.target.getAttribute('data-ar-state');
      (window.__states[id] = window.__states[id] || []).push(s);
    });
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-ar-state'] });
</script>
<script src="${w}/api/v1/widget.js"></script>
<script>
  ARWidget.embed('#js-embed', { imageUrl: '${media.base}/street.jpg', apiKey: '${OWNER}', variant: 'interactive' });
  ARWidget.mount('#js-mount', { jobId: '${existingJob}', apiKey: '${OWNER}', variant: 'static' });
</script>
</body></html>`;
}

/** A page with a widget key: converts from its allowed origin; the same page on another origin is refused. */
function widgetKeyPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<div id="wk-image" style="width:360px;height:270px" data-service-image="${media.base}/street.jpg" data-service-key="${widgetKey}" data-service-variant="static"></div>
<script src="${api.base}/api/v1/widget.js"></script>
</body></html>`;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  media = await startMediaServer();
  app = await startServiceApp(
    OWNER,
    {},
    // The widget is the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  api = new Api(app.base, OWNER);
  existingJob = (await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` })).body.job_id;
  await api.waitStatus(existingJob, ['completed']);
  // "localhost" here and 127.0.0.1 for the API: two origins, so every call is cross-origin.
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/widget-key' ? widgetKeyPage() : customerPage());
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteBase = `http://localhost:${(site.address() as AddressInfo).port}`;
  const user = await api.req('POST', '/api/admin/users', { email: 'widget-page@example.com' });
  const full = new Api(api.base, (await api.req('POST', `/api/admin/users/${user.body.id}/keys`)).body.key);
  widgetKey = (await full.req('POST', '/api/v2/keys', { name: 'shop page', scope: 'widget', allowed_origins: [siteBase] })).body.key;
  // The viewers drawn (WebGL in SwiftShader, ~14 CPU-s a page) only in the test that waits for them; the
  // others read the frames' markup in a browser without WebGL (model-viewer shows the poster).
  browser = await launchChromium({ webgl: false });
  glBrowser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await glBrowser?.close();
  await app?.close();
  await media?.stop();
  await new Promise((r) => site.close(r));
});

async function openShop(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(siteBase);
  for (const id of ['attr-interactive', 'attr-static', 'js-embed', 'js-mount', 'attr-job']) {
    await page.waitForSelector(`#${id}[data-ar-state="done"]`, { timeout: 30_000 });
  }
  await page.waitForSelector('#broken[data-ar-state="error"]', { timeout: 30_000 });
  return page;
}

async function embedFrame(page: Page, id: string): Promise<Frame> {
  const handle = await page.locator(`#${id}`).evaluateHandle((el) => el.shadowRoot!.querySelector('iframe'));
  const frame = await handle.asElement()!.contentFrame();
  await frame!.waitForLoadState('load');
  return frame!;
}

describe('widget in real headless Chromium, from another origin', () => {
  it('shows progress, then the viewer; the interactive variant has the button, the static one does not', async () => {
    const context = await glBrowser.newContext({ viewport: { width: 1280, height: 900 } });
    // The embed pages' Content-Security-Policy must block nothing they need (reported in every frame).
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => {
        ((window as any).__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
      }),
    );
    const cspConsole: string[] = [];
    context.on('console', (m) => {
      if (/content security policy/i.test(m.text())) cspConsole.push(m.text());
    });
    const page = await openShop(context);
    const states = await page.evaluate(() => (window as unknown as { __states: Record<string, string[]> }).__states);
    expect(states['attr-interactive']).toContain('converting');
    expect(states['attr-interactive'][states['attr-interactive'].length - 1]).toBe('done');
    expect(states['js-embed']).toEqual(expect.arrayContaining(['converting', 'done']));

    for (const id of ['attr-interactive', 'js-embed', 'attr-job']) {
      const f = await embedFrame(page, id);
      // (model-viewer has an .ar-button of its own inside its shadow root: count ours only.)
      expect(await f.locator('.card > .ar-button').count()).toBe(1);
      expect(await f.locator('.badge.animated').count()).toBe(1);
      expect(await f.locator('model-viewer').count()).toBe(1);
    }
    for (const id of ['attr-static', 'js-mount']) {
      const f = await embedFrame(page, id);
      expect(await f.locator('.card > .ar-button').count()).toBe(0);
      expect(await f.locator('.badge').textContent()).toContain('AR model');
      expect(f.url()).toMatch(/\/static$/);
    }
    // The viewer is sized by the container's own style.
    const box = await page.locator('#js-embed').boundingBox();
    expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([360, 270]);
    // Desktop: the button opens the QR code for a phone.
    const desktop = await embedFrame(page, 'js-embed');
    // A DOM click: three software-rendered WebGL viewers keep headless Chromium too busy for a synthetic mouse click.
    await desktop.locator('#ar-launch').dispatchEvent('click');
    await desktop.waitForSelector('#qr.open svg');
    // The viewers have loaded their models by now (no CSP violation on the way), and the QR script ran (allowed by its hash).
    for (const id of ['attr-interactive', 'js-embed', 'attr-job']) {
      const f = await embedFrame(page, id);
      await f.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, undefined, { timeout: 30_000 });
      expect([id, await f.evaluate(() => (window as any).__csp ?? [])]).toEqual([id, []]);
    }
    expect(cspConsole).toEqual([]);
    // The listener is live in these cross-origin frames: a script from elsewhere is refused and heard.
    await desktop.evaluate(() =>
      document.head.appendChild(Object.assign(document.createElement('script'), { src: 'https://scripts.example.invalid/x.js' })),
    );
    await desktop.waitForFunction(() => (window as any).__csp?.length > 0);
    expect(await desktop.evaluate(() => (window as any).__csp)).toEqual(['script-src-elem https://scripts.example.invalid/x.js']);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ARTIFACTS, 'desktop-shop.png'), fullPage: true });
    await context.close();
  }, 120_000); // three software-rendered WebGL viewers, each waited for until loaded: slow on a busy 2-core machine

  it('converts with a widget key from its allowed origin, and is refused on any other origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${siteBase}/widget-key`);
    await page.waitForSelector('#wk-image[data-ar-state="done"]', { timeout: 30_000 });
    // The same page served from 127.0.0.1 instead of localhost: another origin, which the key does not allow.
    const elsewhere = await context.newPage();
    await elsewhere.goto(`${siteBase.replace('localhost', '127.0.0.1')}/widget-key`);
    await elsewhere.waitForSelector('#wk-image[data-ar-state="error"]', { timeout: 30_000 });
    const text = await elsewhere.locator('#wk-image').evaluate((el) => el.shadowRoot!.querySelector('[role="alert"]')!.textContent);
    expect(text).toContain('this widget key is not allowed from origin http://127.0.0.1:');
    await context.close();
  });

  it('shows a clear error state for an image that cannot be converted', async () => {
    const context = await browser.newContext();
    const page = await openShop(context);
    const text = await page.locator('#broken').evaluate((el) => el.shadowRoot!.querySelector('[role="alert"]')!.textContent);
    expect(text).toMatch(/Could not create the AR model: fetch: the source is not a supported image/);
    await page.locator('#broken').screenshot({ path: join(ARTIFACTS, 'error-state.png') });
    await context.close();
  });

  it('links to AR Quick Look under an iOS user agent', async () => {
    const context = await browser.newContext({
      userAgent: USER_AGENTS.ios,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await openShop(context);
    const f = await embedFrame(page, 'attr-job');
    const link = f.locator('a[rel="ar"]');
    expect(await link.getAttribute('href')).toMatch(/\/files\/models\/api_\w+\/model\.usdz#allowsContentScaling=0$/);
    expect(await link.locator('img').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'ios-shop.png'), fullPage: true });
    await context.close();
  });

  it('links to Scene Viewer under an Android user agent', async () => {
    const context = await browser.newContext({
      userAgent: USER_AGENTS.android,
      viewport: { width: 412, height: 915 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await openShop(context);
    const f = await embedFrame(page, 'attr-job');
    const href = await f.locator('a.ar-button').getAttribute('href');
    expect(href).toMatch(
      /^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.2\?mode=ar_preferred&file=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Ffiles%2Fmodels%2Fapi_\w+%2Fmodel\.glb/,
    );
    expect(href).toContain(
      '#Intent;scheme=https;package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;S.browser_fallback_url=',
    );
    expect(await f.locator('a.ar-button').getAttribute('target')).toBe('_top');
    await page.screenshot({ path: join(ARTIFACTS, 'android-shop.png'), fullPage: true });
    await context.close();
  });
});
