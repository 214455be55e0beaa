import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Api, ROOT, waitFor } from './support/app-process';
import { DESKTOP, PHONE, axeFindings, hasSaid, hasText, recordTexts, watchedContext } from './support/browser-page';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { launchChromium, quadrantPicture } from '@app/testing';

/**
 * The console's variants table on a showcase page, in headless Chromium against the running service: an
 * item's sizes and frames added, duplicated, reordered (keyboard and drag and drop) and deleted in the
 * browser, then saved as one PATCH {variants} in table order; the live framed preview (a canvas) following
 * the row's values as they are typed; a 400 shown on the row and cell it names; "Rebuilding…" while a
 * variant's files are built. axe at desktop and phone size; screenshots in
 * test-artifacts/screenshots/console-variants-*.png.
 */

const OWNER = 'owner-key-for-console-variants-e2e';
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
    // The console's variants pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  const picture = await quadrantPicture(160, 120);
  media = await startMediaServer({ '/dunes.png': picture.png });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.close();
  await media?.stop();
});

interface VariantView {
  id: string;
  sku: string;
  name: string | null;
  default: boolean;
  price: string | null;
  availability: string;
  status: 'ready' | 'building' | 'failed';
  width_cm?: number;
  height_cm?: number;
  frame: { style: string; color?: string } | string | null;
  mat: { width_inches: number; color?: string } | null;
  preview_url?: string;
}

describe('console: the variants table of a showcase item', () => {
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let showcaseId: number;
  let itemId: number;
  const status = () => page.locator('[data-testid=status]');
  const panel = () => page.locator('[data-testid=variants]');
  const rows = () => panel().locator('[data-testid=variant-row]');
  const row = (n: number) => rows().nth(n);
  const control = (n: number, label: string) => row(n).getByLabel(new RegExp(`^${label} \\(row ${n + 1}\\)$`));
  const item = async () => (await api.req('GET', `/api/v2/showcases/${showcaseId}/items/${itemId}`)).body;
  const skus = async () => Promise.all((await rows().all()).map((r) => r.locator('input[data-key$="-sku"]').inputValue()));
  /** The preview canvas's pixels (it is same-origin: the item's poster is served by the service). */
  const pixels = () => page.locator('[data-testid=variant-canvas]').evaluate((c) => (c as HTMLCanvasElement).toDataURL());
  const framePx = async () => Number(await page.locator('[data-testid=variant-canvas]').getAttribute('data-frame-px'));

  it('signs in and opens the variants of a picture made through the API', async () => {
    const user = (await owner.req('POST', '/api/admin/users', { email: 'framer@example.com', credits: 100, showcase_slots: 1 })).body;
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
      units: 'cm',
      items: [{ image_url: `${media.base}/dunes.png`, title: 'Dunes', width_cm: 40, height_cm: 30 }],
    });
    expect(created.status).toBe(201);
    showcaseId = created.body.id;
    itemId = created.body.queued_jobs[0].item_id;
    await waitFor(async () => (await item()).status === 'completed', 60_000, 'the picture to convert');

    await page.goto(`${base}/console/showcases/${showcaseId}`);
    const card = page.locator('[data-testid=item][data-status=completed]');
    await card.waitFor({ timeout: 15_000 });
    const open = card.getByRole('button', { name: `Variants of picture ${itemId}` });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    await panel().waitFor({ state: 'visible' });
    await hasText(page.locator('#variants-title'), 'Variants of Dunes');
    // Focus moved to the panel's heading; the card's button says it is open.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('variants-title');
    expect(await card.getByRole('button', { name: `Variants of picture ${itemId}` }).getAttribute('aria-expanded')).toBe('true');
    await hasText(panel(), 'No variants');
  });

  it('adds three variants; the preview draws the selected row framed as it is typed', async () => {
    const add = panel().getByRole('button', { name: 'Add variant' });
    const fillRow = async (n: number, v: Record<string, string>) => {
      for (const [label, value] of Object.entries(v)) {
        const c = control(n, label);
        if ((await c.evaluate((e) => e.tagName)) === 'SELECT') await c.selectOption(value);
        else await c.fill(value);
      }
    };
    await add.click();
    // The new row's SKU has the focus; a new row starts at the item's size.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toMatch(/-sku$/);
    expect(await control(0, 'Width \\(cm\\)').inputValue()).toBe('40');
    expect(await control(0, 'Height \\(cm\\)').inputValue()).toBe('30');
    expect(await control(0, 'Default').isChecked()).toBe(true);
    await fillRow(0, { SKU: 'DUNES-S', Name: 'Small', Price: '€ 90' });
    await add.click();
    await fillRow(1, { SKU: 'DUNES-M', Name: 'Medium', 'Width \\(cm\\)': '60', 'Height \\(cm\\)': '45', Frame: 'thin', Price: '€ 150' });
    await add.click();
    await fillRow(2, {
      SKU: 'DUNES-L',
      Name: 'Large',
      'Width \\(cm\\)': '80',
      'Height \\(cm\\)': '60',
      Frame: 'classic',
      'Frame colour': 'oak',
      'Mat \\(cm\\)': '5',
      Price: '€ 290',
      Availability: 'reserved',
    });
    expect(await rows().count()).toBe(3);
    await hasText(panel().locator('[data-testid=variants-dirty]'), 'Unsaved changes');

    // The preview follows the focused row: the large one, classic oak with a 5 cm mat, drawn on the canvas.
    await hasText(
      page.locator('[data-testid=preview-caption]'),
      'DUNES-L: 60 × 80 cm, classic frame (oak), 5 cm white mat. Outer size 77.6 × 97.6 cm.',
    );
    expect(await page.locator('[data-testid=variant-canvas]').getAttribute('data-sku')).toBe('DUNES-L');
    const classic = await framePx();
    expect(await page.locator('[data-testid=variant-canvas]').getAttribute('data-mat-px')).not.toBe('0');
    // Its picture is the item's poster, drawn inside the mat: the picture's top-left quadrant colour is there.
    await waitFor(
      async () =>
        page.locator('[data-testid=variant-canvas]').evaluate((c) => {
          const cv = c as HTMLCanvasElement;
          const frame = Number(cv.getAttribute('data-frame-px')) + Number(cv.getAttribute('data-mat-px'));
          // The object is centred: its picture's top-left corner is just inside frame and mat.
          const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
          const row = Math.floor(cv.height / 2) - 20;
          for (let x = 0; x < cv.width; x++) {
            const i = (row * cv.width + x) * 4;
            // The quadrant picture's top-left is red-ish (QUADRANTS.tl) once the poster has loaded.
            if (d[i] > 180 && d[i + 1] < 90 && d[i + 2] < 90) return x > frame;
          }
          return false;
        }),
      10_000,
      'the poster drawn in the preview',
    );
    // Typing a new width changes the drawing at once.
    const before = await pixels();
    await control(2, 'Width \\(cm\\)').fill('100');
    expect(await pixels()).not.toBe(before);
    await control(2, 'Width \\(cm\\)').fill('80');
    expect(classic).toBeGreaterThan(0);
  });

  it('duplicates a row, gives the copy a SKU and frame of its own, reorders by keyboard and by drag, deletes one', async () => {
    await row(1).getByRole('button', { name: 'Duplicate: row 2 (DUNES-M)' }).click();
    expect(await skus()).toEqual(['DUNES-S', 'DUNES-M', 'DUNES-M-COPY', 'DUNES-L']);
    // The copy is selected and keeps the original's size, frame and price.
    expect(await control(2, 'Width \\(cm\\)').inputValue()).toBe('60');
    expect(await control(2, 'Frame').inputValue()).toBe('thin');
    expect(await control(2, 'Price').inputValue()).toBe('€ 150');
    expect(await control(2, 'Default').isChecked()).toBe(false);
    expect(await page.locator('[data-testid=variant-canvas]').getAttribute('data-sku')).toBe('DUNES-M-COPY');
    await control(2, 'SKU').fill('DUNES-M-WALNUT');

    // A new frame: the drawn moulding is wider (classic 1.5 in against thin 0.5 in) and the pixels change.
    const thinPx = await framePx();
    const thin = await pixels();
    await control(2, 'Frame').selectOption('classic');
    await control(2, 'Frame colour').selectOption('walnut');
    expect(await framePx()).toBeGreaterThan(thinPx);
    expect(await pixels()).not.toBe(thin);
    await hasText(page.locator('[data-testid=preview-caption]'), 'DUNES-M-WALNUT: 45 × 60 cm, classic frame (walnut)');

    // Keyboard: Move up from row 3; focus follows the row, which is now row 2.
    await row(2).getByRole('button', { name: 'Move up: row 3 (DUNES-M-WALNUT)' }).focus();
    await page.keyboard.press('Enter');
    expect(await skus()).toEqual(['DUNES-S', 'DUNES-M-WALNUT', 'DUNES-M', 'DUNES-L']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move up: row 2 (DUNES-M-WALNUT)');
    await hasText(status(), 'Row DUNES-M-WALNUT moved to position 2 of 4.');
    // To the top: Move up is disabled there, focus goes to Move down.
    await page.keyboard.press('Enter');
    expect(await skus()).toEqual(['DUNES-M-WALNUT', 'DUNES-S', 'DUNES-M', 'DUNES-L']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move down: row 1 (DUNES-M-WALNUT)');
    await page.keyboard.press('Enter');
    expect(await skus()).toEqual(['DUNES-S', 'DUNES-M-WALNUT', 'DUNES-M', 'DUNES-L']);

    // Drag and drop by the handle: DUNES-L onto DUNES-M-WALNUT takes its place.
    await row(3)
      .locator('.grip')
      .dragTo(row(1), { targetPosition: { x: 40, y: 20 } });
    expect(await skus()).toEqual(['DUNES-S', 'DUNES-L', 'DUNES-M-WALNUT', 'DUNES-M']);

    // Delete the first row (the default): the first row left becomes the default.
    await row(0).getByRole('button', { name: 'Delete: row 1 (DUNES-S)' }).click();
    expect(await skus()).toEqual(['DUNES-L', 'DUNES-M-WALNUT', 'DUNES-M']);
    expect(await control(0, 'Default').isChecked()).toBe(true);
    // The walnut one is the default instead.
    await control(1, 'Default').check();
    expect(await control(0, 'Default').isChecked()).toBe(false);
  });

  it('saves the table as one PATCH {variants} in table order; the API shows exactly those variants; rows rebuild', async () => {
    // Every row that shows "Rebuilding…" at some point, by SKU (builds may be quick: watched as they happen).
    await panel().evaluate((p) => {
      const seen = ((window as any).__rebuilding = new Set<string>());
      new MutationObserver(() =>
        p.querySelectorAll('[data-testid=variant-rebuilding]').forEach((b) => {
          const sku = b.closest('tr')?.querySelector<HTMLInputElement>('input[data-key$="-sku"]')?.value;
          if (sku && b.textContent === 'Rebuilding…') seen.add(sku);
        }),
      ).observe(p, { subtree: true, childList: true });
    });
    // Every text the status line shows: when the builds are quick, "are rebuilt" replaces "Saved …" before a poll sees it.
    await recordTexts(status());
    const answer = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/items/${itemId}`));
    await panel().getByRole('button', { name: 'Save variants' }).click();
    const res = await answer;
    expect(res.request().postDataJSON()).toEqual({
      variants: [
        {
          sku: 'DUNES-L',
          name: 'Large',
          width_cm: 80,
          height_cm: 60,
          frame: { style: 'classic', color: 'oak' },
          mat: { width_inches: 1.969, color: 'white' },
          price: '€ 290',
          availability: 'reserved',
          default: false,
        },
        {
          sku: 'DUNES-M-WALNUT',
          name: 'Medium',
          width_cm: 60,
          height_cm: 45,
          frame: { style: 'classic', color: 'walnut' },
          mat: null,
          price: '€ 150',
          availability: 'available',
          default: true,
        },
        {
          sku: 'DUNES-M',
          name: 'Medium',
          width_cm: 60,
          height_cm: 45,
          frame: 'thin',
          mat: null,
          price: '€ 150',
          availability: 'available',
          default: false,
        },
      ],
    });
    expect(res.status()).toBe(202);
    const saved = (await res.json()).item.variants as VariantView[];
    await hasSaid(page, `Saved 3 variants of picture ${itemId}`);
    expect(await panel().locator('[data-testid=variants-dirty]').textContent()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save variants');

    const variants = (await item()).variants as VariantView[];
    expect(variants.map((v) => v.sku)).toEqual(['DUNES-L', 'DUNES-M-WALNUT', 'DUNES-M']);
    expect(variants.map((v) => [v.name, v.price, v.availability, v.default, v.width_cm, v.height_cm])).toEqual([
      ['Large', '€ 290', 'reserved', false, 80, 60],
      ['Medium', '€ 150', 'available', true, 60, 45],
      ['Medium', '€ 150', 'available', false, 60, 45],
    ]);
    // Each variant that was building when the answer came showed "Rebuilding…" on its row.
    const building = saved.filter((v) => v.status === 'building').map((v) => v.sku);
    expect(building.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => [...(window as any).__rebuilding].sort())).toEqual([...building].sort());

    // Once built (the engine builds every variant from the item's texture), each row reads Ready and the
    // selected one shows its own poster next to the drawing. The page polls the item meanwhile.
    let built = false;
    await waitFor(async () => (await item()).variants.every((v: VariantView) => v.status !== 'building'), 90_000, 'the variants built')
      .then(() => (built = true))
      .catch(() => undefined);
    if (built) {
      const now = (await item()).variants as VariantView[];
      expect(now.map((v) => v.status)).toEqual(['ready', 'ready', 'ready']);
      expect(now.map((v) => (typeof v.frame === 'string' ? v.frame : v.frame?.style))).toEqual(['classic', 'classic', 'thin']);
      await waitFor(async () => (await rows().locator('[data-testid=variant-rebuilding]').count()) === 0, 15_000, 'no row rebuilding');
      expect(await rows().locator('[data-testid=variant-status]').allTextContents()).toEqual(['Ready', 'Ready', 'Ready']);
      await control(1, 'Name').focus();
      const poster = panel().locator('[data-testid=variant-poster]');
      await poster.waitFor({ timeout: 10_000 });
      expect(await poster.getAttribute('src')).toBe(now[1].preview_url);
      await waitFor(async () => poster.evaluate((i) => (i as HTMLImageElement).naturalWidth > 0), 10_000, 'the poster loaded');
    } else {
      // No engine to build them yet: the rows say so.
      expect(await rows().locator('[data-testid=variant-rebuilding]').count()).toBe(building.length);
      await hasText(rows().locator('[data-testid=variant-rebuilding]'), 'Rebuilding…');
    }
    await page.screenshot({ path: join(ARTIFACTS, 'console-variants-saved-desktop.png'), fullPage: true });
  }, 150_000);

  it('sends an unchanged variant without its size and look (not rebuilt); a duplicate SKU is shown on its row', async () => {
    // A new price only: 200, nothing rebuilt; the other rows go as SKU and shop fields.
    await control(2, 'Price').fill('€ 160');
    const answer = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/items/${itemId}`));
    await panel().getByRole('button', { name: 'Save variants' }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    const sent = res.request().postDataJSON().variants as Record<string, unknown>[];
    expect(sent.map((v) => Object.keys(v).sort())).toEqual(sent.map(() => ['availability', 'default', 'name', 'price', 'sku']));
    expect(sent[2]).toMatchObject({ sku: 'DUNES-M', price: '€ 160' });
    await hasText(status(), `Saved 3 variants of picture ${itemId}.`);

    // Row 3 takes row 1's SKU: the API's 400 names variants[2].sku, shown in row 3's SKU cell.
    await control(2, 'SKU').fill('DUNES-L');
    await panel().getByRole('button', { name: 'Save variants' }).click();
    const sku = control(2, 'SKU');
    await waitFor(async () => (await sku.getAttribute('aria-invalid')) === 'true', 10_000, 'the SKU marked invalid');
    const err = row(2).locator('.vt-sku .error');
    expect(await err.isVisible()).toBe(true);
    expect(await err.textContent()).toBe('DUNES-L is also the SKU of row 1');
    expect(await sku.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await sku.getAttribute('aria-describedby')).toBe(await err.getAttribute('id'));
    // Nothing else is marked; the API still has the saved variants.
    expect(await panel().locator('[aria-invalid=true]').count()).toBe(1);
    expect(((await item()).variants as VariantView[]).map((v) => v.sku)).toEqual(['DUNES-L', 'DUNES-M-WALNUT', 'DUNES-M']);
    await page.screenshot({ path: join(ARTIFACTS, 'console-variants-error-desktop.png'), fullPage: true });
    await axe(page, 'variants with an error');
    await panel().getByRole('button', { name: 'Discard changes' }).click();
    expect(await skus()).toEqual(['DUNES-L', 'DUNES-M-WALNUT', 'DUNES-M']);
    expect(await panel().locator('[aria-invalid=true]').count()).toBe(0);
  });

  it('is axe clean and readable at desktop and phone size', async () => {
    await control(0, 'SKU').focus();
    await axe(page, 'variants');
    await page.locator('[data-testid=variants]').screenshot({ path: join(ARTIFACTS, 'console-variants-desktop.png') });
    expect(await page.evaluate(() => (window as any).__csp ?? [])).toEqual([]);

    const phone = await newContext(PHONE);
    await phone.addCookies((await context.cookies()).filter((c) => c.name === 'console_session'));
    const pp = await phone.newPage();
    await pp.goto(`${base}/console/showcases/${showcaseId}`);
    await pp.getByRole('button', { name: `Variants of picture ${itemId}` }).click();
    const cards = pp.locator('[data-testid=variant-row]');
    await waitFor(async () => (await cards.count()) === 3, 10_000, 'three rows');
    await cards
      .nth(1)
      .getByLabel(/^Name \(row 2\)$/)
      .focus();
    await axe(pp, 'variants (phone)');
    // Nothing wider than the screen: the rows are stacked cards with their labels.
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(
      await cards
        .nth(0)
        .locator('label.vt-l')
        .first()
        .evaluate((l) => l.getBoundingClientRect().width),
    ).toBeGreaterThan(10);
    expect(await pp.locator('.vtable thead').evaluate((t) => t.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    await pp.locator('[data-testid=variants]').screenshot({ path: join(ARTIFACTS, 'console-variants-phone.png') });
    expect(await pp.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    await phone.close();
  });
});
