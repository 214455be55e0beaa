import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Api, ROOT, waitFor } from './support/app-process';
import { DESKTOP, PHONE, axeFindings, hasCount, hasText, watchedContext } from './support/browser-page';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { launchChromium, quadrantPicture } from '@app/testing';

/**
 * The console's catalogue tools on a showcase page, in headless Chromium against the running service:
 * editing an item's label and presentation inline (PATCH with only what changed, field errors, a rebuild),
 * marking it sold, reordering by keyboard and by drag and drop (PUT .../items/order), and importing a CSV
 * (preview, dry run, import with its progress, the error report). axe on the page; screenshots at desktop
 * and phone size in test-artifacts/screenshots/console-catalogue-*.png.
 */

const OWNER = 'owner-key-for-console-catalogue-e2e';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const PASSWORD = 'a long and fine passphrase';

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
  return watchedContext(browser, { viewport, errors: pageErrors });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startServiceApp(
    OWNER,
    {},
    // The console's catalogue pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  const pictures = await Promise.all([
    quadrantPicture(96, 64),
    quadrantPicture(64, 96),
    quadrantPicture(80, 80),
    quadrantPicture(120, 60),
    quadrantPicture(60, 90),
  ]);
  media = await startMediaServer(Object.fromEntries(pictures.map((p, i) => [`/p${i + 1}.png`, p.png])));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.close();
  await media?.stop();
});

describe('console: the catalogue on a showcase page', () => {
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let showcaseId: number;
  /** Item ids by title. */
  const ids: Record<string, number> = {};
  const card = (title: string) => page.locator('[data-testid=item]', { has: page.locator('.name strong', { hasText: title }) });
  const status = () => page.locator('[data-testid=status]');
  const showcase = async () => (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body;
  const order = async () => (await showcase()).items.map((i: { id: number }) => i.id);

  it('signs in and opens a showcase of three pictures made through the API', async () => {
    const user = (await owner.req('POST', '/api/admin/users', { email: 'gallery@example.com', credits: 200, showcase_slots: 2 })).body;
    api = new Api(base, (await owner.req('POST', `/api/admin/users/${user.id}/keys`)).body.key);
    const invite = (await owner.req('POST', `/api/admin/users/${user.id}/invite`, {})).body.invite_url;
    context = await newContext();
    page = await context.newPage();
    await page.goto(invite);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(`${base}/console`);

    const created = await api.req('POST', '/api/v2/showcases', {
      description: 'Spring catalogue',
      items: [
        { image_url: `${media.base}/p1.png`, title: 'Dunes', artist: 'Ann Lee', year: '2019', width_inches: 24, height_inches: 16 },
        { image_url: `${media.base}/p2.png`, title: 'Harbour', medium: 'Oil on canvas' },
        { image_url: `${media.base}/p3.png`, title: 'Orchard', edition: '3/25' },
      ],
    });
    expect(created.status).toBe(201);
    showcaseId = created.body.id;
    await waitFor(
      async () => (await showcase()).items.every((i: { status: string }) => i.status === 'completed'),
      60_000,
      'the pictures to convert',
    );
    for (const i of (await showcase()).items) ids[i.banner.title] = i.id;
    await page.goto(`${base}/console/showcases/${showcaseId}`);
    await hasCount(page.locator('[data-testid=item][data-status=completed]'), 3);
    expect(await page.locator('[data-testid=item] .name strong').allTextContents()).toEqual(['Dunes', 'Harbour', 'Orchard']);
  });

  it('edits an item inline: a PATCH with only the changed fields; field errors from a 400; a rebuild after a new size', async () => {
    const dunes = card('Dunes');
    await dunes.locator('summary').click();
    const form = dunes.locator('form.edit-form');
    expect(await form.getByLabel('Artist').inputValue()).toBe('Ann Lee');
    expect(await form.getByLabel('Width').inputValue()).toBe('24');
    await form.getByLabel('Artist').fill('Hilma af Klint');
    await form.getByLabel('Price').fill('€ 1,200');
    const sent = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/items/${ids.Dunes}`));
    await form.getByRole('button', { name: 'Save' }).click();
    expect((await sent).postDataJSON()).toEqual({ artist: 'Hilma af Klint', price: '€ 1,200' });
    await hasText(status(), `Saved picture ${ids.Dunes}.`);
    let item = (await showcase()).items.find((i: { id: number }) => i.id === ids.Dunes);
    expect(item).toMatchObject({
      artist: 'Hilma af Klint',
      year: '2019',
      banner: expect.objectContaining({ price: '€ 1,200', title: 'Dunes' }),
    });
    await hasText(dunes.locator('.meta').first(), 'Hilma af Klint · 2019');
    // Focus went back to the (closed) Edit disclosure.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(`Edit picture ${ids.Dunes}`);

    // A size out of range: the API's 400 names the field, shown next to it.
    await dunes.locator('summary').click();
    await form.getByLabel('Width').fill('500');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('[aria-invalid=true]').first().waitFor({ timeout: 10_000 });
    const invalid = await form.locator('[aria-invalid=true]').getAttribute('name');
    expect(['width', 'height']).toContain(invalid);
    await hasText(form.locator(`#e${ids.Dunes}-${invalid}-err`), /\S/);
    expect(await form.locator(`#e${ids.Dunes}-${invalid}-err`).isVisible()).toBe(true);

    // In centimetres (the numbers shown convert with the unit), a new size and a frame: 202, rebuilt.
    await form.getByLabel('Width').fill('24');
    await form.getByLabel('Unit').selectOption('cm');
    expect(await form.getByLabel('Width').inputValue()).toBe('60.96');
    await form.getByLabel('Width').fill('50');
    await form.getByLabel('Height').fill('40');
    await form.getByLabel('Frame').selectOption('thin');
    const rebuild = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/items/${ids.Dunes}`));
    await form.getByRole('button', { name: 'Save' }).click();
    const answer = await rebuild;
    expect(answer.request().postDataJSON()).toEqual({ width_cm: 50, height_cm: 40, frame: 'thin' });
    expect(answer.status()).toBe(202);
    await dunes.locator('[data-testid=rebuilding]').waitFor({ timeout: 10_000 });
    await hasText(dunes.locator('[data-testid=rebuilding]'), 'Rebuilding…');
    await page.screenshot({ path: join(ARTIFACTS, 'console-catalogue-rebuilding-desktop.png'), fullPage: true });
    await dunes.locator('[data-testid=rebuilding]').waitFor({ state: 'detached', timeout: 60_000 });
    item = (await showcase()).items.find((i: { id: number }) => i.id === ids.Dunes);
    expect(item.dimensions_cm).toEqual({ width_cm: 50, height_cm: 40 });
    expect(item.frame).toMatchObject({ style: 'thin' });
    expect(item.rebuild_job_id).toBeUndefined();
    await hasText(dunes.locator('.meta').nth(1), /^15\.7 × 19\.7 in · € 1,200$/);
  });

  it('marks a picture sold in one click: a red dot and "Sold" on its card', async () => {
    const harbour = card('Harbour');
    expect(await harbour.locator('[data-testid=availability]').count()).toBe(0);
    await harbour.getByLabel(/^Sold/).check();
    await hasText(harbour.locator('[data-testid=availability]'), 'Sold');
    expect(await harbour.locator('[data-testid=availability] .dot').evaluate((d) => getComputedStyle(d).backgroundColor)).toBe(
      'rgb(209, 36, 47)',
    );
    expect((await showcase()).items.find((i: { id: number }) => i.id === ids.Harbour).availability).toBe('sold');
    expect(await harbour.getByLabel(/^Sold/).isChecked()).toBe(true);
  });

  it('reorders with the keyboard (Move up / Move down) and by drag and drop; PUT .../items/order', async () => {
    const puts: unknown[] = [];
    page.on('request', (r) => void (r.method() === 'PUT' && r.url().endsWith('/items/order') && puts.push(r.postDataJSON())));
    await card('Dunes')
      .getByRole('button', { name: `Move down: picture ${ids.Dunes}` })
      .focus();
    await page.keyboard.press('Enter');
    await hasText(status(), `Picture ${ids.Dunes} moved to position 2 of 3.`);
    expect(await order()).toEqual([ids.Harbour, ids.Dunes, ids.Orchard]);
    // Focus follows the card.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Move down: picture ${ids.Dunes}`);
    await page.keyboard.press('Enter');
    await hasText(status(), `Picture ${ids.Dunes} moved to position 3 of 3.`);
    expect(await order()).toEqual([ids.Harbour, ids.Orchard, ids.Dunes]);
    // At the end of the list Move down is disabled: focus is on Move up.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Move up: picture ${ids.Dunes}`);
    expect(
      await card('Dunes')
        .getByRole('button', { name: /^Move down/ })
        .isDisabled(),
    ).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await hasText(status(), `Picture ${ids.Dunes} moved to position 2 of 3.`);
    expect(await order()).toEqual([ids.Harbour, ids.Dunes, ids.Orchard]);

    // Drag Orchard onto Harbour: it takes Harbour's place at the top.
    await card('Orchard').dragTo(card('Harbour'), { sourcePosition: { x: 30, y: 30 }, targetPosition: { x: 30, y: 30 } });
    await hasText(status(), `Picture ${ids.Orchard} moved to position 1 of 3.`);
    expect(await order()).toEqual([ids.Orchard, ids.Harbour, ids.Dunes]);
    expect(await page.locator('[data-testid=item] .name strong').allTextContents()).toEqual(['Orchard', 'Harbour', 'Dunes']);
    expect(puts).toEqual([
      { item_ids: [ids.Harbour, ids.Dunes, ids.Orchard] },
      { item_ids: [ids.Harbour, ids.Orchard, ids.Dunes] },
      { item_ids: [ids.Harbour, ids.Dunes, ids.Orchard] },
      { item_ids: [ids.Orchard, ids.Harbour, ids.Dunes] },
    ]);
    // Reloaded, the page shows the saved order.
    await page.reload();
    await hasCount(page.locator('[data-testid=item]'), 3);
    expect(await page.locator('[data-testid=item] .name strong').allTextContents()).toEqual(['Orchard', 'Harbour', 'Dunes']);
  });

  it('imports a CSV: preview, dry run with its error, the import with its progress, the error report', async () => {
    const csv = [
      'image_url;external_id;title;artist;year;price;availability;width_cm;height_cm',
      `${media.base}/p1.png;INV-1;"Tide; at dusk";Ann Lee;2021;€ 800;available;50;40`,
      `${media.base}/p2.png;INV-2;Quarry;"Bo ""Stone"" Berg";2020;€ 650;reserved;30;45`,
      `${media.base}/p3.png;INV-3;Fog;Ann Lee;2018;€ 900;maybe;40;40`,
      `${media.base}/p4.png;INV-4;Pier;Cy Twombly;2022;€ 1200;available;60;30`,
      `${media.base}/p5.png;INV-5;Ridge;Ann Lee;2023;€ 400;sold;20;30`,
    ].join('\r\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'catalogue.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // The preview: the first rows as the browser read them (quotes and the ";" delimiter).
    await hasText(page.locator('[data-testid=csv-summary]'), 'catalogue.csv: 5 rows, separated by ";".');
    const preview = page.locator('[data-testid=csv-preview] table');
    await hasCount(preview.locator('tbody tr'), 5);
    expect(await preview.locator('thead th').allTextContents()).toEqual([
      'Row',
      'image_url',
      'external_id',
      'title',
      'artist',
      'year',
      'price',
      'availability',
      'width_cm',
      'height_cm',
    ]);
    expect(await preview.locator('tbody tr').nth(0).locator('td').nth(3).textContent()).toBe('Tide; at dusk');
    expect(await preview.locator('tbody tr').nth(1).locator('td').nth(4).textContent()).toBe('Bo "Stone" Berg');
    // The dry run: counts, price, the invalid row.
    await hasText(page.locator('[data-testid=import-price]'), /^Price: \d+\.\d\d credits$/, 20_000);
    const counts = async (testid: string) =>
      Object.fromEntries(
        await page
          .locator(`[data-testid=${testid}] > div`)
          .evaluateAll((ds) => ds.map((d) => [d.querySelector('dt')!.textContent, Number(d.querySelector('dd')!.textContent)])),
      );
    expect(await counts('dry-run-counts')).toMatchObject({ Rows: 5, 'With errors': 1, 'New pictures': 4 });
    const errors = page.locator('[data-testid=csv-check] table tbody tr');
    await hasCount(errors, 1);
    expect(await errors.locator('td').allTextContents()).toEqual(['3', 'availability', expect.any(String)]);
    const button = page.getByRole('button', { name: 'Import 4 rows' });
    await button.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'console-catalogue-dry-run-desktop.png'), fullPage: true });

    await button.click();
    const bar = page.locator('[data-testid=import-bar]');
    await bar.waitFor({ timeout: 10_000 });
    await hasText(page.locator('[data-testid=import-status]'), /^completed$/, 90_000);
    expect(await bar.evaluate((b) => (b as HTMLProgressElement).value)).toBe(100);
    expect(await counts('import-counts-list')).toMatchObject({ Rows: 5, 'With errors': 1, 'New pictures': 4, Converted: 4, Failed: 0 });
    await hasCount(page.locator('[data-testid=item]'), 7, 20_000);
    await hasCount(page.locator('[data-testid=item][data-status=completed]'), 7, 60_000);
    const imported = (await showcase()).items.find((i: { external_id: string | null }) => i.external_id === 'INV-2');
    expect(imported).toMatchObject({
      artist: 'Bo "Stone" Berg',
      availability: 'reserved',
      banner: expect.objectContaining({ title: 'Quarry' }),
    });
    await hasText(card('Ridge').locator('[data-testid=availability]'), 'Sold');

    // The error report: a CSV download through the link.
    const link = page.getByRole('link', { name: 'Download the error report (CSV)' });
    expect(await link.getAttribute('href')).toMatch(/^\/api\/v2\/imports\/imp_[^/?]+\?format=csv$/);
    const download = page.waitForEvent('download');
    await link.click();
    const report = readFileSync((await (await download).path())!, 'utf8');
    expect(report).toMatch(/availability/);
    expect(report.split(/\r?\n/).some((l) => /(^|[,;])"?3"?[,;]/.test(l))).toBe(true);
    expect(await page.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
  });

  it('is axe clean and readable at desktop and phone size', async () => {
    await card('Dunes').locator('summary').click();
    await axe(page, 'catalogue');
    await page.screenshot({ path: join(ARTIFACTS, 'console-catalogue-desktop.png'), fullPage: true });

    const phone = await newContext(PHONE);
    await phone.addCookies((await context.cookies()).filter((c) => c.name === 'console_session'));
    const pp = await phone.newPage();
    await pp.goto(`${base}/console/showcases/${showcaseId}`);
    await hasCount(pp.locator('[data-testid=item]'), 7);
    await pp
      .locator('[data-testid=item]', { has: pp.locator('.name strong', { hasText: 'Dunes' }) })
      .locator('summary')
      .click();
    await pp.getByLabel('CSV file').setInputFiles({
      name: 'more.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`image_url,title,artist\n${media.base}/p1.png,Tide,Ann Lee\n${media.base}/p2.png,"Quarry, north",Bo Berg\n`),
    });
    await pp.locator('[data-testid=import-price]').waitFor({ timeout: 20_000 });
    await axe(pp, 'catalogue (phone)');
    // Nothing wider than the screen.
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await pp.screenshot({ path: join(ARTIFACTS, 'console-catalogue-phone.png'), fullPage: true });
    expect(await pp.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    await phone.close();
  });
});
