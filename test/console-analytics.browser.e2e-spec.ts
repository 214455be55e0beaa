import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Api, ROOT, waitFor } from './support/app-process';
import { DESKTOP, PHONE, axeFindings, hasText, watchedContext } from './support/browser-page';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { launchChromium, quadrantPicture } from '@app/testing';

/**
 * The console's Analytics page in headless Chromium against the running service: beacons sent to POST
 * /api/events as the public pages send them (text/plain JSON, a phone's user agent), counted, then read on
 * the page: the funnel with its rates, the daily chart's point for today (and its data table), pictures
 * ranked by AR launches, AR platforms, referrers, the showcase filter (kept in the URL), the quick ranges,
 * the CSV downloads, the empty state, and the owner's view of every account. axe at desktop and phone
 * size, no CSP violation; screenshots in test-artifacts/screenshots/console-analytics-*.png.
 */

const OWNER = 'owner-key-for-console-analytics-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const PASSWORD = 'a long and fine passphrase';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.parse(`${today()}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

let app: TestApp;
let base: string;
let owner: Api;
let browser: Browser;
let media: { base: string; stop: () => Promise<void> };
const pageErrors: string[] = [];

async function axe(page: Page, name: string): Promise<void> {
  expect(await axeFindings(page, name)).toEqual([]);
}

async function newContext(viewport = DESKTOP): Promise<BrowserContext> {
  return watchedContext(browser, { viewport, errors: pageErrors, acceptDownloads: true });
}

const cspViolations = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__csp ?? []);

async function acceptInvite(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL(`${base}/console`);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startServiceApp(
    OWNER,
    {
      ANALYTICS_FLUSH_MS: '100',
      ANALYTICS_EVENTS_PER_MINUTE: '1000',
    },
    // The console's analytics pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  media = await startMediaServer({
    '/dunes.png': (await quadrantPicture(160, 120)).png,
    '/harbour.png': (await quadrantPicture(120, 160)).png,
    '/meadow.png': (await quadrantPicture(140, 140)).png,
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.close();
  await media?.stop();
});

describe('console: the Analytics page', () => {
  let api: Api;
  let userId: string;
  let context: BrowserContext;
  let page: Page;
  /** Showcase A (Dunes, Harbour) and B (Meadow): ids, shw_ site ids, item ids by title. */
  const sc = { a: 0, b: 0, siteA: '', siteB: '' };
  const item: Record<string, number> = {};
  const step = (s: string) => page.locator(`[data-testid=funnel-step][data-step=${s}]`);
  const itemRows = () => page.locator('[data-testid=items-rows] tbody tr');
  /** A row's cells as shown (the phone's per-cell labels are not shown at desktop size). */
  const cells = async (row: Locator) => (await row.locator('th, td').allInnerTexts()).map((t) => t.trim());

  async function showcase(pictures: { file: string; title: string }[]) {
    const s = await api.req('POST', '/api/v2/showcases', {
      items: pictures.map((p) => ({ image_url: `${media.base}/${p.file}`, title: p.title })),
    });
    expect(s.status).toBe(201);
    return s.body.id as number;
  }
  async function converted(id: number, titles: string[]) {
    const done = await waitFor(
      async () => {
        const r = (await api.req('GET', `/api/v2/showcases/${id}`)).body;
        return r.items.every((i: { status: string }) => i.status === 'completed') && r;
      },
      90_000,
      `showcase ${id}'s pictures`,
    );
    // The pictures in the order they were sent.
    const items = [...done.items].sort((x: { position: number }, y: { position: number }) => x.position - y.position);
    titles.forEach((t, k) => (item[t] = items[k].id));
    return new URL(done.url).pathname.split('/').pop() as string;
  }

  let seq = 0;
  /** One beacon as a page sends it (text/plain JSON, no key, no cookie), from a phone. */
  async function beacon(site: string, ua: string, events: Record<string, unknown>[], referrer?: string) {
    for (let i = 0; i < events.length; i += 20) {
      const r = await fetch(`${base}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': ua },
        body: JSON.stringify({
          site,
          ...(referrer ? { referrer } : {}),
          events: events.slice(i, i + 20).map((e) => ({ id: `cae2e${Date.now()}x${seq++}`, surface: 'item', ...e })),
        }),
      });
      expect(r.status).toBe(204);
    }
  }
  const times = (n: number, e: Record<string, unknown>) => Array.from({ length: n }, () => e);

  it('counts beacons from the public pages of two showcases', async () => {
    const user = (await owner.req('POST', '/api/admin/users', { email: 'curator@example.com', credits: 100, showcase_slots: 2 })).body;
    userId = user.id;
    api = new Api(base, (await owner.req('POST', `/api/admin/users/${user.id}/keys`)).body.key);
    sc.a = await showcase([
      { file: 'dunes.png', title: 'Dunes' },
      { file: 'harbour.png', title: 'Harbour' },
    ]);
    sc.b = await showcase([{ file: 'meadow.png', title: 'Meadow' }]);
    sc.siteA = await converted(sc.a, ['Dunes', 'Harbour']);
    sc.siteB = await converted(sc.b, ['Meadow']);
    expect(Object.keys(item).sort()).toEqual(['Dunes', 'Harbour', 'Meadow']);

    // Showcase A. Dunes: 8 views, 5 turns, 4 AR launches (3 Quick Look, 1 Scene Viewer), 2 banner taps.
    // Harbour: 12 views, 2 turns, 1 AR launch (Scene Viewer). The showcase page itself: 2 views, a QR opening.
    const dunes = item.Dunes;
    const harbour = item.Harbour;
    await beacon(sc.siteA, IPHONE, [
      ...times(5, { kind: 'view', item_id: dunes }),
      ...times(3, { kind: 'interact', item_id: dunes }),
      ...times(3, { kind: 'ar_launch', item_id: dunes, platform: 'quick_look' }),
      ...times(2, { kind: 'banner_tap', item_id: dunes }),
      ...times(2, { kind: 'view', surface: 'showcase' }),
      { kind: 'qr_open', surface: 'qr', item_id: dunes },
    ]);
    await beacon(
      sc.siteA,
      PIXEL,
      [
        ...times(3, { kind: 'view', item_id: dunes }),
        ...times(2, { kind: 'interact', item_id: dunes }),
        { kind: 'ar_launch', item_id: dunes, platform: 'scene_viewer' },
        ...times(12, { kind: 'view', item_id: harbour }),
        ...times(2, { kind: 'interact', item_id: harbour }),
        { kind: 'ar_launch', item_id: harbour, platform: 'scene_viewer' },
      ],
      'https://www.gallery.example/shop?ref=1',
    );
    // Showcase B. Meadow: 5 views, 1 turn, 2 AR launches in WebXR.
    await beacon(sc.siteB, IPHONE, [
      ...times(5, { kind: 'view', item_id: item.Meadow }),
      { kind: 'interact', item_id: item.Meadow },
      ...times(2, { kind: 'ar_launch', item_id: item.Meadow, platform: 'webxr' }),
    ]);
    // Not counted: a headless browser.
    await beacon(
      sc.siteA,
      'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/124.0 Safari/537.36',
      times(5, { kind: 'view', item_id: dunes }),
    );

    const r = await waitFor(
      async () => {
        const a = (await api.req('GET', '/api/v2/analytics')).body;
        return a.totals.views >= 27 && a;
      },
      15_000,
      'the views to be counted',
    );
    expect(r.totals).toEqual({
      views: 27,
      interactions: 8,
      ar_launches: 7,
      banner_taps: 2,
      qr_opens: 1,
      variant_selects: 0,
      room_views: 0,
      unique_visitors: 3,
    });
  }, 180_000);

  it('shows the funnel, the daily chart with today, pictures ranked by AR launches, platforms and referrers', async () => {
    const invite = (await owner.req('POST', `/api/admin/users/${userId}/invite`, {})).body.invite_url;
    context = await newContext();
    page = await context.newPage();
    await acceptInvite(page, invite);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(`${base}/console/analytics`);
    expect(await page.getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page');

    // Defaults: all showcases, the last 30 days (the 30 days button pressed).
    expect(await page.getByLabel('Showcase', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(daysAgo(29));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(today());
    expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');

    // The funnel: counts, the share of views, and the rate from the step before.
    await hasText(step('views').locator('[data-testid=funnel-count]'), '27');
    expect(await step('interactions').locator('[data-testid=funnel-count]').textContent()).toBe('8');
    expect(await step('ar_launches').locator('[data-testid=funnel-count]').textContent()).toBe('7');
    expect(await step('banner_taps').locator('[data-testid=funnel-count]').textContent()).toBe('2');
    expect(await step('interactions').locator('[data-testid=funnel-rate]').textContent()).toBe('30 % of views'); // 8/27
    expect(await step('ar_launches').locator('[data-testid=funnel-rate]').textContent()).toBe('26 % of views · 88 % of interactions'); // 7/27, 7/8
    expect(await step('banner_taps').locator('[data-testid=funnel-rate]').textContent()).toBe('7.4 % of views · 29 % of AR launches'); // 2/27, 2/7
    // The bars are as long as the share of views (the first: all of it).
    const width = (s: string) =>
      step(s)
        .locator('.fill')
        .evaluate((e) => (e as HTMLElement).style.width);
    expect(await width('views')).toBe('100%');
    expect(parseFloat(await width('ar_launches'))).toBeCloseTo((7 / 27) * 100, 1);
    expect(await page.locator('[data-testid=unique-visitors] dd').textContent()).toBe('3');
    expect(await page.locator('[data-testid=qr-opens] dd').textContent()).toBe('1');
    expect(await page.locator('[data-testid=variant-selects] dd').textContent()).toBe('0');
    expect(await page.locator('[data-testid=room-views] dt').textContent()).toBe('Room views (from a photo)');
    expect(await page.locator('[data-testid=room-views] dd').textContent()).toBe('0');

    // The daily chart: 30 days, today's point with its numbers, zero on the days before; an accessible name.
    const svg = page.locator('[data-testid=daily-svg]');
    expect(await svg.getAttribute('role')).toBe('img');
    expect(await page.locator('#an-chart-title').textContent()).toMatch(/^Views and AR launches per day, /);
    expect(await page.locator('#an-chart-desc').textContent()).toMatch(/^27 views and 7 AR launches over 30 days; most views on /);
    expect(await svg.locator('circle.pt-views').count()).toBe(30);
    const todayPoint = svg.locator(`circle.pt-views[data-day="${today()}"]`);
    expect(await todayPoint.getAttribute('data-views')).toBe('27');
    expect(await svg.locator(`rect.pt-ar[data-day="${today()}"]`).getAttribute('data-ar-launches')).toBe('7');
    expect(await svg.locator(`circle.pt-views[data-day="${daysAgo(1)}"]`).getAttribute('data-views')).toBe('0');
    // Today is the highest point: at the top gridline's height or below it, above every other day.
    const cy = async (d: string) => Number(await svg.locator(`circle.pt-views[data-day="${d}"]`).getAttribute('cy'));
    expect(await cy(today())).toBeLessThan(await cy(daysAgo(1)));
    // Both axes are labelled: value gridlines and days.
    const ticks = await svg.locator('text.tick').allTextContents();
    expect(ticks).toEqual(expect.arrayContaining(['0', '30']));
    expect(ticks).toContain(new Date(`${today()}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }));

    // Its numbers as a table, on request.
    const toggle = page.getByRole('button', { name: 'Show as a table' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('[data-testid=daily-table]').isHidden()).toBe(true);
    await toggle.click();
    expect(await page.getByRole('button', { name: 'Hide the table' }).getAttribute('aria-expanded')).toBe('true');
    const dayRows = page.locator('[data-testid=daily-rows] tbody tr');
    expect(await dayRows.count()).toBe(30);
    expect((await cells(page.locator(`[data-testid=daily-rows] tbody tr[data-key="${today()}"]`))).slice(1)).toEqual([
      '27',
      '8',
      '7',
      '2',
      '3',
    ]);

    // Pictures ranked by AR launches (not by views): Dunes 4, Meadow 2, Harbour 1.
    expect(await page.locator('[data-testid=items-rows] thead th').allTextContents()).toEqual([
      '#',
      'Picture',
      'Showcase',
      'Views',
      '3D interactions',
      'AR launches',
      'Banner taps',
      'AR rate',
      'Unique visitors',
    ]);
    expect(await itemRows().count()).toBe(3);
    expect(await cells(itemRows().nth(0))).toEqual(['1', 'Dunes', `Showcase ${sc.a}`, '8', '5', '4', '2', '50 %', '2']);
    expect(await cells(itemRows().nth(1))).toEqual(['2', 'Meadow', `Showcase ${sc.b}`, '5', '1', '2', '0', '40 %', '1']);
    expect(await cells(itemRows().nth(2))).toEqual(['3', 'Harbour', `Showcase ${sc.a}`, '12', '2', '1', '0', '8.3 %', '1']);
    expect(await itemRows().nth(0).getByRole('link', { name: 'Dunes' }).getAttribute('href')).toBe(
      `/console/showcases/${sc.a}#item-${item.Dunes}`,
    );

    // AR launches by platform, and where visitors came from.
    const platformRows = page.locator('[data-testid=platform-rows] tbody tr');
    expect(await Promise.all((await platformRows.all()).map(cells))).toEqual([
      ['AR Quick Look (iOS)', '3', '43 %'],
      ['Scene Viewer (Android)', '2', '29 %'],
      ['WebXR (browser)', '2', '29 %'],
    ]);
    const referrerRows = page.locator('[data-testid=referrer-rows] tbody tr');
    expect(await Promise.all((await referrerRows.all()).map(cells))).toEqual([
      ['gallery.example', '15', '2'],
      ['None (direct, or your own pages)', '12', '5'],
    ]);
    expect(await page.locator('[data-testid=analytics-empty]').isHidden()).toBe(true);

    await axe(page, 'analytics');
    expect(await cspViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'console-analytics-desktop.png'), fullPage: true });
  }, 60_000);

  it('narrows to one showcase (kept in the URL) and downloads the same query as CSV', async () => {
    await page.getByLabel('Showcase', { exact: true }).selectOption(String(sc.a));
    await page.waitForURL((u) => u.searchParams.get('showcase_id') === String(sc.a));
    await hasText(step('views').locator('[data-testid=funnel-count]'), '22');
    expect(await step('ar_launches').locator('[data-testid=funnel-count]').textContent()).toBe('5');
    expect(await step('ar_launches').locator('[data-testid=funnel-rate]').textContent()).toBe('23 % of views · 71 % of interactions'); // 5/22, 5/7
    expect(await page.locator('[data-testid=unique-visitors] dd').textContent()).toBe('2');
    await waitFor(async () => (await itemRows().count()) === 2, 10_000, "showcase A's 2 pictures");
    expect((await cells(itemRows().nth(0))).slice(1, 2)).toEqual(['Dunes']);
    expect((await cells(itemRows().nth(1))).slice(1, 2)).toEqual(['Harbour']);
    expect(await Promise.all((await page.locator('[data-testid=platform-rows] tbody tr').all()).map(cells))).toEqual([
      ['AR Quick Look (iOS)', '3', '60 %'],
      ['Scene Viewer (Android)', '2', '40 %'],
      ['WebXR (browser)', '0', '0 %'],
    ]);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ from: daysAgo(29), to: today(), showcase_id: String(sc.a) });

    // The items' CSV: the page's query with format=csv, the same as the API gives a key.
    const link = page.getByRole('link', { name: 'Download CSV of the pictures' });
    const href = (await link.getAttribute('href'))!;
    expect(Object.fromEntries(new URL(href, base).searchParams)).toEqual({
      from: daysAgo(29),
      to: today(),
      showcase_id: String(sc.a),
      group_by: 'item',
      format: 'csv',
    });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`analytics-${daysAgo(29)}-${today()}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'item,showcase_id,title,views,interactions,ar_launches,banner_taps,qr_opens,variant_selects,room_views,unique_visitors',
    );
    expect(lines.slice(1)).toEqual([`${item.Dunes},${sc.a},Dunes,8,5,4,2,1,0,0,2`, `${item.Harbour},${sc.a},Harbour,12,2,1,0,0,0,0,1`]);
    const viaKey = await fetch(`${base}${href}`, { headers: { 'x-api-key': api.key } });
    expect(await viaKey.text()).toBe(csv);
    // The daily CSV: today's line.
    const [daily] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV of the daily counts' }).click(),
    ]);
    expect(readFileSync((await daily.path())!, 'utf8')).toContain(`\r\n${today()},22,7,5,2,1,0,0,2\r\n`);

    // A bookmark of the view opens it as it was.
    await page.goto(page.url());
    await hasText(step('views').locator('[data-testid=funnel-count]'), '22');
    expect(await page.getByLabel('Showcase', { exact: true }).inputValue()).toBe(String(sc.a));
    expect(await page.getByLabel('Showcase', { exact: true }).locator('option').allTextContents()).toEqual([
      'All showcases',
      `Showcase ${sc.b}`,
      `Showcase ${sc.a}`,
    ]);

    // Back to all showcases: the browser's Back button restores the previous view.
    await page.getByLabel('Showcase', { exact: true }).selectOption('');
    await hasText(step('views').locator('[data-testid=funnel-count]'), '27');
    await page.goBack();
    await hasText(step('views').locator('[data-testid=funnel-count]'), '22');
    expect(await page.getByLabel('Showcase', { exact: true }).inputValue()).toBe(String(sc.a));
    expect(await cspViolations(page)).toEqual([]);
  }, 60_000);

  it('quick ranges, a range with nothing counted (the empty state), a wrong range', async () => {
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.waitForURL((u) => u.searchParams.get('from') === daysAgo(6));
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(daysAgo(6));
    expect(await page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('false');
    await waitFor(async () => (await page.locator('[data-testid=daily-svg] circle.pt-views').count()) === 7, 10_000, '7 days');
    await hasText(step('views').locator('[data-testid=funnel-count]'), '22');

    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await waitFor(async () => (await page.locator('[data-testid=daily-svg] circle.pt-views').count()) === 90, 10_000, '90 days');
    await page.locator('[data-testid=daily-chart]').screenshot({ path: join(ARTIFACTS, 'console-analytics-chart-90-days.png') });

    // One day: one point per series, in the middle.
    await page.getByLabel('From', { exact: true }).fill(today());
    await waitFor(async () => (await page.locator('[data-testid=daily-svg] circle.pt-views').count()) === 1, 10_000, 'one day');
    expect(await page.locator(`[data-testid=daily-svg] circle.pt-views[data-day="${today()}"]`).getAttribute('data-views')).toBe('22');
    expect(await page.locator('#an-chart-desc').textContent()).toMatch(/^22 views and 5 AR launches over 1 day; /);
    await page.locator('[data-testid=daily-chart]').screenshot({ path: join(ARTIFACTS, 'console-analytics-chart-1-day.png') });

    // Days before anything was counted: the empty state says what is counted and what is kept.
    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await page.getByLabel('To', { exact: true }).fill('2024-01-31');
    const emptyState = page.locator('[data-testid=analytics-empty]');
    await emptyState.waitFor({ state: 'visible' });
    expect(await page.locator('[data-testid=analytics-results]').isHidden()).toBe(true);
    await hasText(page.locator('[data-testid=empty-range]'), `Nothing was counted for showcase ${sc.a} from Jan 1, 2024 to Jan 31, 2024.`);
    expect(await page.locator('#an-empty-title').textContent()).toBe('Nothing counted in this range');
    const text = (await emptyState.textContent())!;
    expect(text).toContain('AR launches');
    expect(text).toContain('No cookies, no IP address stored');
    expect(text).toContain('Do Not Track or Global Privacy Control are not counted');
    expect(await emptyState.getByRole('link', { name: 'the API reference' }).getAttribute('href')).toBe('/docs#/analytics');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ from: '2024-01-01', to: '2024-01-31' });
    await axe(page, 'analytics empty');
    await page.screenshot({ path: join(ARTIFACTS, 'console-analytics-empty-desktop.png'), fullPage: true });

    // From after To: said next to the dates, nothing asked.
    await page.getByLabel('From', { exact: true }).fill('2024-02-10');
    await hasText(page.locator('#an-range-err'), 'From must not be after To.');
    expect(await page.getByLabel('From', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).searchParams.get('from')).toBe('2024-01-01');
    expect(await cspViolations(page)).toEqual([]);
  }, 60_000);

  it("opens a ranked picture's card in its showcase", async () => {
    await page.goto(`${base}/console/analytics`);
    await page.getByRole('link', { name: 'Harbour' }).click();
    await page.waitForURL(`${base}/console/showcases/${sc.a}#item-${item.Harbour}`);
    const card = page.locator(`#item-${item.Harbour}`);
    await card.waitFor();
    expect(await card.getAttribute('data-id')).toBe(String(item.Harbour));
  });

  it('is readable on a phone: cards stack, pictures as cards, nothing wider than the screen, axe clean', async () => {
    const phone = await newContext(PHONE);
    await phone.addCookies((await context.cookies()).filter((c) => c.name === 'console_session'));
    const pp = await phone.newPage();
    await pp.goto(`${base}/console/analytics`);
    await hasText(pp.locator('[data-testid=funnel-step][data-step=views] [data-testid=funnel-count]'), '27');
    // Nothing wider than the screen but the tables' own scrolling boxes.
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const chartWidth = Number(await pp.locator('[data-testid=daily-svg]').getAttribute('width'));
    expect(chartWidth).toBeLessThanOrEqual(PHONE.width - 24);
    expect(chartWidth).toBeGreaterThan(300);
    // The pictures ranked: a card each, every number on screen with its name.
    const first = pp.locator('[data-testid=items-rows] tbody tr').first();
    const ar = first.locator('[data-col=ar_launches]');
    expect(await ar.innerText()).toBe('AR launches\n4');
    const box = (await ar.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // The other tables fit too, or scroll in their own box.
    for (const t of await pp.locator('[data-testid=analytics-results] .table-wrap:not(.stack)').all())
      expect(await t.evaluate((e) => e.getBoundingClientRect().right)).toBeLessThanOrEqual(PHONE.width);
    await axe(pp, 'analytics (phone)');
    expect(await cspViolations(pp)).toEqual([]);
    await pp.screenshot({ path: join(ARTIFACTS, 'console-analytics-phone.png'), fullPage: true });
    await phone.close();
  }, 60_000);

  it("the owner sees every account's counts, or one account's", async () => {
    const invite = (await owner.req('POST', '/api/admin/invites', { email: 'operator@example.com', role: 'owner' })).body.invite_url;
    const oc = await newContext();
    const op = await oc.newPage();
    await acceptInvite(op, invite);
    await op.goto(`${base}/console/analytics`);
    const views = op.locator('[data-testid=funnel-step][data-step=views] [data-testid=funnel-count]');
    await hasText(views, '27');
    // The showcases counted are the choices; the other account's pictures are not linked (the console opens the owner's own).
    await waitFor(async () => (await op.getByLabel('Showcase', { exact: true }).locator('option').count()) === 3, 10_000, 'the showcases');
    expect(await op.locator('[data-testid=items-rows] tbody tr').first().getByRole('link').count()).toBe(0);
    await waitFor(async () => (await op.getByLabel('Account', { exact: true }).locator('option').count()) >= 2, 10_000, 'the accounts');
    await op.getByLabel('Account', { exact: true }).selectOption(userId);
    await op.waitForURL((u) => u.searchParams.get('account_id') === userId);
    await hasText(views, '27');
    await op.getByLabel('Showcase', { exact: true }).selectOption(String(sc.b));
    await hasText(views, '5');
    expect(Object.fromEntries(new URL(op.url()).searchParams)).toMatchObject({ account_id: userId, showcase_id: String(sc.b) });
    await axe(op, 'analytics (owner)');
    expect(await cspViolations(op)).toEqual([]);
    await op.screenshot({ path: join(ARTIFACTS, 'console-analytics-owner-desktop.png'), fullPage: true });
    await oc.close();
    await context.close();
  }, 60_000);
});
