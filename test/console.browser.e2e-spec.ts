import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { parseArgs, runAdminCli } from '../apps/cli/src/admin-cli';
import { Api, freePort, ROOT, spawnApp, tempDir, waitFor, waitHealthy } from './support/app-process';
import { DESKTOP, PHONE, axeFindings, hasCount, hasText, watchedContext } from './support/browser-page';
import { startServiceApp, type TestApp } from './support/test-app';
import { launchChromium, quadrantPicture } from '@app/testing';

const OWNER = 'owner-key-for-console-browser-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const PASSWORD = 'a long and fine passphrase';

let app: TestApp;
let base: string;
let owner: Api;
let browser: Browser;
/** Serves a picture (GET /p.png) and takes callbacks (POST /hook). */
let site: Server;
let siteBase: string;
const callbacks: string[] = [];
/** Uncaught errors in any page's script (none expected). */
const pageErrors: string[] = [];
/** Pages visited, for the phone pass: [name, path]. */
const visited: [string, string][] = [];

async function hasSome(loc: Locator, timeoutMs = 10_000): Promise<void> {
  await waitFor(async () => (await loc.count()) > 0, timeoutMs, 'an element');
}

/** Gzipped bytes of the console's one script as served (the esbuild bundle): every page loads it and nothing else. */
const CONSOLE_JS_GZIP = gzipSync(readFileSync(join(ROOT, 'dist/console/console.js')), { level: 9 }).length;

/** Checks a page with axe, records it for the phone pass and screenshots it at desktop size. */
async function check(page: Page, name: string): Promise<void> {
  await page.waitForSelector('[data-testid=loading]', { state: 'detached', timeout: 15_000 }).catch(() => undefined);
  // The JavaScript budget: <= 60 KB gzip per page, all from our origin.
  expect(await page.evaluate(() => Array.from(document.scripts).map((s) => s.src))).toEqual([`${base}/console/assets/console.js`]);
  expect(CONSOLE_JS_GZIP).toBeLessThan(60 * 1024);
  await axe(page, name);
  await page.screenshot({ path: join(ARTIFACTS, `console-${name}-desktop.png`), fullPage: true });
  visited.push([name, new URL(page.url()).pathname + new URL(page.url()).search]);
}

/**
 * The pages in `visited` not yet seen at phone size, with these cookies (none: signed out): axe again and
 * a phone screenshot each.
 */
async function phonePass(cookies: Awaited<ReturnType<BrowserContext['cookies']>>, only: (name: string) => boolean): Promise<void> {
  const phone = await newContext(PHONE);
  await phone.addCookies(cookies.filter((c) => c.name === 'console_session'));
  const pp = await phone.newPage();
  for (const [name, path] of visited.filter(([n]) => only(n) && !phoned.has(n))) {
    phoned.add(name);
    await pp.goto(`${base}${path}`);
    await pp.waitForSelector('[data-testid=loading]', { state: 'detached', timeout: 15_000 }).catch(() => undefined);
    await axe(pp, `${name} (phone)`);
    await pp.screenshot({ path: join(ARTIFACTS, `console-${name}-phone.png`), fullPage: true });
  }
  await phone.close();
}
const phoned = new Set<string>();

async function axe(page: Page, name: string): Promise<void> {
  expect(await axeFindings(page, name)).toEqual([]);
}

async function newContext(viewport = DESKTOP): Promise<BrowserContext> {
  return watchedContext(browser, { viewport, errors: pageErrors, clipboardOrigin: base });
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__csp ?? []);
}

async function invite(userId: string): Promise<string> {
  const r = await owner.req('POST', `/api/admin/users/${userId}/invite`, {});
  expect(r.status).toBe(201);
  expect(new Date(r.body.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86400_000);
  return r.body.invite_url;
}

async function acceptInvite(page: Page, url: string, password = PASSWORD): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/console/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startServiceApp(
    OWNER,
    {
      CONSOLE_LOGIN_PER_ACCOUNT: '5',
    },
    // The console is the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  browser = await launchChromium();
  const png = (await quadrantPicture(80, 60)).png;
  site = createServer((req, res) => {
    if (req.method === 'POST') {
      req
        .on('data', () => undefined)
        .on('end', () => {
          callbacks.push(req.url ?? '');
          res.writeHead(200).end('ok');
        });
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.close();
  await new Promise((r) => site?.close(r));
});

describe('console in headless Chromium', () => {
  let customer: { id: string; email: string };
  let customerKey: string;
  let bobApi: Api;
  let context: BrowserContext;
  let page: Page;

  it('invite -> set password -> signed in; the invite is single use', async () => {
    customer = (await owner.req('POST', '/api/admin/users', { email: 'ada@example.com', name: 'Ada', credits: 100, showcase_slots: 2 }))
      .body;
    const url = await invite(customer.id);
    expect(url).toMatch(new RegExp(`^${base}/console/invite\\?token=[A-Za-z0-9_-]{43}$`));
    context = await newContext();
    page = await context.newPage();
    await page.goto(url);
    await check(page, 'invite');
    // Field errors next to the field.
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('other');
    await page.getByRole('button', { name: 'Set password' }).click();
    await hasText(page.locator('#f-password-err'), /at least 10/);
    await hasText(page.locator('#f-confirm-err'), /differ/);
    await acceptInvite(page, url);
    await page.waitForURL(`${base}/console`);
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await hasText(page.locator('[data-testid=balance]'), '100.00 credits');
    await check(page, 'overview');

    // Used: the same link again is refused, in a fresh browser.
    const other = await newContext();
    const p2 = await other.newPage();
    const res = await p2.goto(url);
    expect(res!.status()).toBe(410);
    await hasText(p2.locator('main'), 'already been used');
    await other.close();
  });

  it('creates an API key shown once, which works against /api/v2/me', async () => {
    await page.goto(`${base}/console/keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-name-err').waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByLabel('Name').fill('shop');
    await page.getByRole('button', { name: 'Create key' }).click();
    await hasText(page.locator('[data-testid=new-api-key]'), /^sk_live_/);
    const key = (await page.locator('[data-testid=new-api-key]').textContent())!;
    customerKey = key;
    expect(key).toMatch(/^sk_live_/);
    await page.locator('[data-testid=new-key-box] button').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const me = await page.evaluate(async (k) => (await fetch('/api/v2/me', { headers: { 'X-API-Key': k } })).json(), key);
    expect(me).toMatchObject({ id: customer.id, email: 'ada@example.com', key: { type: 'user', scope: 'full' } });
    await hasCount(page.locator('[data-testid=keys] tbody tr'), 1);
    await check(page, 'keys');
  });

  let showcaseId: number;

  it('creates a showcase, uploads two pictures by drag and drop and watches them complete', async () => {
    await page.goto(`${base}/console/showcases`);
    await page.locator('[data-testid=showcases] .empty').waitFor({ state: 'visible', timeout: 10_000 });
    await check(page, 'showcases-empty');
    await page.getByLabel('Description').fill('Summer collection');
    await page.getByRole('button', { name: 'Create showcase' }).click();
    await page.waitForURL(/\/console\/showcases\/\d+$/);
    showcaseId = Number(page.url().split('/').pop());
    // Frame and mat options apply to the pictures dropped next.
    await page.getByLabel('Frame', { exact: true }).selectOption('classic');
    await page.getByLabel('Frame colour').selectOption('oak');
    await page.getByLabel('Mat (in)').fill('2');
    await page.getByLabel('Mat colour').selectOption('black');
    const pictures = await Promise.all([quadrantPicture(96, 64), quadrantPicture(64, 96)]);
    await page.evaluate(
      async (files) => {
        const dt = new DataTransfer();
        files.forEach((f, i) =>
          dt.items.add(new File([Uint8Array.from(atob(f), (c) => c.charCodeAt(0))], `picture-${i + 1}.png`, { type: 'image/png' })),
        );
        const zone = document.querySelector('[data-testid=dropzone]')!;
        zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      pictures.map((p) => p.png.toString('base64')),
    );
    // One progress row per picture, each until it is uploaded; then the pictures convert (polling).
    await hasCount(page.locator('[data-testid=upload]'), 2);
    await hasCount(page.locator('[data-testid=upload][data-state=done]'), 2, 15_000);
    await hasCount(page.locator('[data-testid=item]'), 2);
    await hasCount(page.locator('[data-testid=item][data-status=completed]'), 2, 45_000);
    await hasCount(page.locator('[data-testid=item] img'), 2);
    const items = (await page.evaluate(async (id) => (await fetch(`/api/v2/showcases/${id}`)).json(), showcaseId)).items;
    for (const i of items)
      expect([i.frame, i.mat]).toEqual([expect.objectContaining({ style: 'classic', color: 'oak' }), { width_inches: 2, color: 'black' }]);
    expect(items).toHaveLength(2);
    expect(await cspViolations(page)).toEqual([]);
  });

  it('copies the embed snippet, shows a QR code, edits branding with a live preview, deletes a picture', async () => {
    await page.locator('[data-testid=copy-embed]').click();
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toMatch(new RegExp(`^<iframe src="${base}/showcase/[^"]+/embed"`));
    expect(await page.locator('[data-testid=qr] svg').count()).toBe(1);

    await page.getByLabel('Tagline').fill('Art for your walls');
    await hasText(page.locator('[data-testid=preview] .pv-tagline'), 'Art for your walls');
    await page.getByLabel('Primary colour').fill('#aa3300');
    // Every layout the API takes is offered.
    expect(await page.locator('#b-layout option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'branded',
      'grid',
      'salon',
      'minimal',
      'dark',
    ]);
    await page.locator('#b-layout').selectOption('salon');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await hasText(page.locator('[data-testid=status]'), 'Branding saved.');
    const sc = await page.evaluate(async (id) => (await fetch(`/api/v2/showcases/${id}`)).json(), showcaseId);
    expect(sc.branding).toMatchObject({ tagline: 'Art for your walls', primary_color: '#aa3300' });
    expect(sc.layout_choice).toBe('salon');
    await check(page, 'showcase');

    page.once('dialog', (d) => void d.accept());
    await page
      .getByRole('button', { name: /^Delete picture/ })
      .first()
      .click();
    await hasCount(page.locator('[data-testid=item]'), 1);
  });

  it('shows jobs, a job with its timeline, usage with chart and CSV, convert with prices', async () => {
    await page.goto(`${base}/console/jobs`);
    // Two pictures converted, one deleted with its job.
    await hasCount(page.locator('[data-testid=jobs] tbody tr'), 1);
    await check(page, 'jobs');
    await page.locator('[data-testid=jobs] tbody a').first().click();
    await hasCount(page.locator('[data-testid=timeline] li'), 5);
    await hasText(page.locator('[data-testid=job]'), 'completed');
    // The showcase picture job's eight stages (the still-image ones with its variants and thumbnails before
    // publish), each with its duration.
    await hasCount(page.locator('[data-testid=stage-times] tbody tr'), 8);
    expect(await page.locator('[data-testid=stage-times] tbody tr td:first-child').allTextContents()).toEqual([
      'fetch',
      'normalise',
      'scene',
      'glb-writer',
      'usdz-writer',
      'variants',
      'thumbnails',
      'publish',
    ]);
    for (const took of await page.locator('[data-testid=stage-times] tbody tr td:last-child').allTextContents())
      expect(took).toMatch(/^\d+(\.\d)? m?s$/);
    await check(page, 'job');

    await page.goto(`${base}/console/usage`);
    await hasCount(page.locator('[data-testid=chart] svg rect'), 30);
    await hasSome(page.locator('[data-testid=ledger] tbody tr'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.split('\n')[0]).toBe('id,created_at,kind,operation,amount,balance_after,job_id,reason');
    expect(csv).toContain('showcase.picture');
    await check(page, 'usage');

    await page.goto(`${base}/console/convert`);
    await hasText(page.locator('[data-testid=animated-price]'), /Price: \d+\.\d\d credits/);
    const before = await page.locator('[data-testid=animated-price]').textContent();
    await page.getByLabel('Remove the background').check();
    await waitFor(async () => (await page.locator('[data-testid=animated-price]').textContent()) !== before!, 10_000, 'text to change');
    await page.getByRole('button', { name: 'Convert' }).first().click();
    await page.locator('#cv-url-err').waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByLabel('Picture URL').fill(`${siteBase}/p.png`);
    await page.getByRole('button', { name: 'Convert' }).first().click();
    await hasText(page.locator('[data-testid=convert-result]'), /Job api_\w+ started/);
    await check(page, 'convert');

    // A callback to the customer's server, then its delivery on the webhooks page.
    const job = await new Api(base, customerKey).req('POST', '/api/v1/convert', {
      image_url: `${siteBase}/p.png`,
      callback_url: `${siteBase}/hook`,
    });
    expect(job.status).toBe(202);
    await waitFor(async () => callbacks.length > 0, 30_000, 'the callback');
    // The public endpoint behind the page (checked against the OpenAPI document by the Api helper). The
    // delivery row is written after the customer's server has answered, so under load the callback can
    // arrive before the row exists: wait for the row.
    const deliveries = await waitFor(
      async () => {
        const listed = await new Api(base, customerKey).req('GET', '/api/v2/webhooks/deliveries');
        return listed.body.data.length > 0 && listed;
      },
      30_000,
      'the delivery row',
    );
    expect(deliveries.body.data[0]).toMatchObject({
      object: 'webhook_delivery',
      job_id: job.body.job_id,
      attempt: 1,
      status_code: 200,
      succeeded: true,
    });
    await page.goto(`${base}/console/webhooks`);
    await hasText(page.locator('[data-testid=deliveries] tbody tr'), 'HTTP 200');
    await check(page, 'webhooks');
    expect(await cspViolations(page)).toEqual([]);
  });

  it("refuses: missing CSRF token, another account's showcase, owner pages and admin API for a customer", async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session')!;
    const headers = { cookie: `console_session=${cookie.value}`, 'content-type': 'application/json' };
    const noCsrf = await fetch(`${base}/api/v2/keys`, { method: 'POST', headers, body: '{"name":"x"}' });
    expect(noCsrf.status).toBe(403);
    expect((await noCsrf.json()).error.code).toBe('csrf_token_invalid');
    const loginNoCsrf = await fetch(`${base}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ada%40example.com&password=x',
      redirect: 'manual',
    });
    expect(loginNoCsrf.status).toBe(403);

    const stranger = (await owner.req('POST', '/api/admin/users', { email: 'bob@example.com', credits: 50, showcase_slots: 1 })).body;
    const bob = new Api(base, (await owner.req('POST', `/api/admin/users/${stranger.id}/keys`)).body.key);
    bobApi = bob;
    const bobs = (await bob.req('POST', '/api/v2/showcases', { description: 'Bob only' })).body;
    expect((await page.goto(`${base}/console/showcases/${bobs.id}`))!.status()).toBe(404);
    expect(await page.evaluate(async (id) => (await fetch(`/api/v2/showcases/${id}`)).status, bobs.id)).toBe(404);

    expect((await page.goto(`${base}/console/admin/users`))!.status()).toBe(403);
    expect(await page.evaluate(async () => (await fetch('/api/admin/users')).status)).toBe(403);
    // A user's API key is no owner key either.
    expect((await bob.req('GET', '/api/admin/users')).status).toBe(403);

    // Every page seen so far, at phone size (the invite page is spent: shown at desktop size only).
    await phonePass(await context.cookies(), (n) => n !== 'invite');
  });

  it('keeps ids in one path segment: no job page for a non-job id, API ids encoded, Cancel only for a running status', async () => {
    // The review's traversal: this page's Cancel button would have POSTed to /api/v2/keys with the CSRF token.
    const changes: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => void (r.method() !== 'GET' && changes.push(`${r.method()} ${r.url()}`));
    page.on('request', onRequest);
    for (const bad of ['v2_..%2F..%2F..%2Fkeys%3F', 'api_..%2F..%2Fv2%2Fkeys', 'v2_ABC', `v2_${'a'.repeat(61)}`, 'cb_api_x_completed']) {
      const res = await page.goto(`${base}/console/jobs/${bad}`);
      expect([bad, res!.status()]).toEqual([bad, 404]);
      expect(await page.locator('[data-action=cancel-job]').count()).toBe(0);
    }
    // A showcase id past the integer column: no such showcase, not a server error.
    expect((await page.goto(`${base}/console/showcases/99999999999`))!.status()).toBe(404);

    // The script: Cancel only for a status it knows to be running, whatever else the answer says.
    const jobId = 'v2_aaaaaaaaaaaaaaaaaaaaaaaa';
    let answer: Record<string, unknown> = { job_id: jobId, status: 'surprise', progress: 0, created_at: new Date().toISOString() };
    await page.route(`${base}/api/v2/jobs/${jobId}`, (r) => r.fulfill({ json: answer }));
    await page.goto(`${base}/console/jobs/${jobId}`);
    await hasText(page.locator('[data-testid=job]'), 'surprise');
    expect(await page.locator('[data-action=cancel-job]').isHidden()).toBe(true);
    answer = { ...answer, status: 'converting' };
    await page.reload();
    await page.locator('[data-action=cancel-job]').waitFor({ state: 'visible', timeout: 10_000 });
    await page.unrouteAll();
    // Ids from API answers go into paths encoded: one segment, whatever they hold.
    const odd = '1/../../../api/v2/keys?';
    await page.route(`${base}/api/v2/showcases?limit=100`, (r) =>
      r.fulfill({
        json: {
          data: [
            {
              id: odd,
              object: 'showcase',
              url: '',
              embed_url: '',
              layout_choice: 'grid',
              description: 'odd',
              item_count: 0,
              created_at: new Date().toISOString(),
            },
          ],
          has_more: false,
          next_cursor: null,
        },
      }),
    );
    await page.goto(`${base}/console/showcases`);
    await hasSome(page.locator('[data-testid=showcases] a'));
    expect(await page.locator('[data-testid=showcases] a').first().getAttribute('href')).toBe(
      `/console/showcases/${encodeURIComponent(odd)}`,
    );
    await page.unrouteAll();
    page.off('request', onRequest);
    expect(changes).toEqual([]);
  });

  it('signs out on the server: the old session cookie is refused; signs in again at /console/login', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session')!;
    await page.goto(`${base}/console`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/login/);
    await hasText(page.locator('.notice'), 'You are signed out.');
    await check(page, 'login');
    const old = await fetch(`${base}/api/v2/me`, { headers: { cookie: `console_session=${cookie.value}` } });
    expect(old.status).toBe(401);
    const oldPage = await fetch(`${base}/console`, { headers: { cookie: `console_session=${cookie.value}` }, redirect: 'manual' });
    expect(oldPage.status).toBe(303);
    expect(oldPage.headers.get('location')).toBe('/console/login');

    await signIn(page, 'ada@example.com', 'not the password');
    await hasText(page.locator('#f-password-err'), 'Wrong email or password.');
    await check(page, 'login-error');
    await signIn(page, 'ada@example.com');
    await page.waitForURL(`${base}/console`);
    await hasText(page.locator('.who'), 'ada@example.com');
  });

  it('refuses an expired invite', async () => {
    // A second service whose invites last one second.
    const port = await freePort();
    const other = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: tempDir(),
      OWNER_API_KEY: OWNER,
      CONSOLE_INVITE_TTL_S: '1',
    });
    try {
      await waitHealthy(`http://127.0.0.1:${port}`, other);
      const api = new Api(`http://127.0.0.1:${port}`, OWNER);
      const url = (await api.req('POST', '/api/admin/invites', { email: 'late@example.com' })).body.invite_url;
      await waitFor(async () => (await fetch(url)).status === 410, 5000, 'the invite to expire');
      const p = await (await newContext()).newPage();
      expect((await p.goto(url))!.status()).toBe(410);
      await hasText(p.locator('main'), 'has expired');
    } finally {
      await other.kill('SIGKILL');
    }
  });

  it('limits sign-in attempts per account', async () => {
    const p = await (await newContext()).newPage();
    for (let i = 0; i < 5; i++) await signIn(p, 'bob@example.com', `guess ${i}`);
    await signIn(p, 'bob@example.com', 'guess again');
    await hasText(p.locator('.error[role=alert]'), 'Too many sign-in attempts');
  });

  it('the operator: CLI invite of the owner email -> owner pages (users with invite and grants, failed jobs, queue)', async () => {
    let out = '';
    const code = await runAdminCli(
      parseArgs(['users', 'invite', 'operator@example.com', '--owner']),
      { apiUrl: base, ownerKey: OWNER },
      { out: (s) => (out += s), err: (s) => (out += s), isTTY: true },
    );
    expect(code).toBe(0);
    const url = out.split('\n')[0];
    expect(out).toContain('as owner');
    const ctx = await newContext();
    const op = await ctx.newPage();
    await acceptInvite(op, url);
    await op.waitForURL(`${base}/console`);
    await op.goto(`${base}/console/admin/users`);
    await hasCount(op.locator('[data-testid=users] tbody tr'), 3);
    await op.getByLabel('Credits to grant to bob@example.com').fill('12.5');
    await op.getByRole('button', { name: 'Grant credits to bob@example.com' }).click();
    await hasText(op.locator('[data-testid=status]'), 'Granted 12.5 credits');
    expect((await owner.req('GET', `/api/admin/users/${customer.id}/keys`)).body.data).toEqual([
      expect.objectContaining({ name: 'shop', scope: 'full' }),
    ]);
    // Bob's key, revoked from the Users page, stops working.
    op.once('dialog', (d) => void d.accept());
    await op.getByRole('button', { name: 'Show keys of bob@example.com' }).click();
    await op.getByRole('button', { name: /^Revoke key .* of bob@example.com$/ }).click();
    await hasText(op.locator('[data-testid=status]'), 'Key revoked.');
    expect((await bobApi.req('GET', '/api/v2/me')).status).toBe(401);
    await op.getByLabel('Email').fill('carol@example.com');
    await op.getByRole('button', { name: 'Invite', exact: true }).click();
    await hasText(op.locator('[data-testid=invite-url]'), /\/console\/invite\?token=/);
    await check(op, 'admin-users');
    await op.goto(`${base}/console/admin/jobs`);
    await check(op, 'admin-jobs');
    await op.goto(`${base}/console/admin/queue`);
    await hasSome(op.locator('[data-testid=queue] tbody tr'));
    await check(op, 'admin-queue');
    // The owner-role session acts as the owner key.
    expect(await op.evaluate(async () => (await fetch('/api/v2/me')).json())).toMatchObject({ key: { type: 'owner' } });
    // Phone size: the owner pages signed in, the sign-in pages signed out.
    await phonePass(await ctx.cookies(), (n) => n.startsWith('admin-'));
    await phonePass([], (n) => n === 'login');
  });
});
