import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Api, ROOT, waitFor } from './support/app-process';
import { DESKTOP, PHONE, axeFindings, hasSaid, hasText, recordTexts, watchedContext } from './support/browser-page';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { launchChromium, quadrantPicture } from '@app/testing';

/**
 * The console's gallery walls on a showcase page, in headless Chromium against the running service: the
 * arranger laid out by the API (Row), drawn to scale (every picture at its outer size and place, the sofa
 * 84 in wide at the same scale), a picture dragged with the mouse and moved with the arrow keys (0.5 in
 * steps, the wall becomes custom), an overlap blocking Save, the save (POST …/walls with the dragged
 * positions) polled until built, the share link copied, a rename (PATCH {name}), an API 400 shown in the
 * arranger, a touch drag at phone size, delete. axe at desktop and phone size; screenshots in
 * test-artifacts/screenshots/console-walls-*.png (and /tmp/console-walls-*.png).
 */

const OWNER = 'owner-key-for-console-walls-e2e';
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
  return watchedContext(browser, { viewport, errors: pageErrors, clipboardOrigin: base });
}

/** Screenshots go to the usual folder and to /tmp/console-walls-*.png. */
async function shot(loc: Locator | Page, name: string): Promise<void> {
  const path = join(ARTIFACTS, `console-walls-${name}.png`);
  await loc.screenshot({ path });
  copyFileSync(path, `/tmp/console-walls-${name}.png`);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startServiceApp(
    OWNER,
    {},
    // The console's walls pages are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new Api(base, OWNER);
  const [wide, tall, square] = await Promise.all([quadrantPicture(160, 120), quadrantPicture(120, 150), quadrantPicture(100, 100)]);
  media = await startMediaServer({ '/wide.png': wide.png, '/tall.png': tall.png, '/square.png': square.png });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await app?.close();
  await media?.stop();
});

interface Place {
  item_id: number;
  variant_sku: string | null;
  x_inches: number;
  y_inches: number;
  width_inches: number;
  height_inches: number;
  missing?: boolean;
}
/** A picture as drawn: its rectangle in the stage (px, from the stage's padding box) and the place it says it is at. */
interface Drawn {
  index: number;
  itemId: number;
  left: number;
  top: number;
  width: number;
  height: number;
  x: number;
  y: number;
  overlap: boolean;
  label: string;
}

describe('console: gallery walls of a showcase', () => {
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let showcaseId: number;
  let ids: number[];
  let wallId: string;
  /** Where the pictures were left before saving (inches), by item id. */
  const placed = new Map<number, { x: number; y: number }>();
  const section = () => page.locator('[data-testid=walls]');
  const arranger = () => page.locator('[data-testid=wall-arranger]');
  const pics = () => arranger().locator('[data-testid=wall-pic]');
  const save = () => arranger().locator('[data-action=save-wall]');
  const problem = () => arranger().locator('[data-testid=wall-problem]');
  const status = () => page.locator('[data-testid=status]');

  const drawn = (p: Page = page): Promise<Drawn[]> =>
    p.locator('[data-testid=wall-stage]').evaluate((stage) => {
      const s = stage.getBoundingClientRect();
      return Array.from(stage.querySelectorAll<HTMLElement>('[data-testid=wall-pic]')).map((el) => {
        const r = el.getBoundingClientRect();
        return {
          index: Number(el.dataset.index),
          itemId: Number(el.dataset.itemId),
          left: r.left - s.left - stage.clientLeft,
          top: r.top - s.top - stage.clientTop,
          width: r.width,
          height: r.height,
          x: Number(el.dataset.x),
          y: Number(el.dataset.y),
          overlap: el.classList.contains('overlap'),
          label: el.getAttribute('aria-label') ?? '',
        };
      });
    });
  /** The stage's px per inch, from the drawing itself: a picture's drawn width over its outer width. */
  const scaleOf = (d: Drawn, p: Place) => d.width / p.width_inches;

  /** Drags a picture by (dx, dy) px with the mouse, in steps (pointer events, as a person drags). */
  async function mouseDrag(index: number, dx: number, dy: number): Promise<void> {
    const box = (await pics().nth(index).boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y + dy, { steps: 8 });
    await page.mouse.up();
  }
  const snap = (v: number) => Math.round(v * 2) / 2;
  /** Inches as the console writes them: at most two decimals, a true minus sign. */
  const inch = (v: number) => String(Math.round(v * 100) / 100).replace('-', '−');
  // A size as every page writes one (height × width, one decimal): the console's too.
  const one = (v: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(v);

  it('signs in, makes a showcase of three pictures and opens the arranger', async () => {
    const user = (await owner.req('POST', '/api/admin/users', { email: 'hanger@example.com', credits: 100, showcase_slots: 1 })).body;
    const key = (await owner.req('POST', `/api/admin/users/${user.id}/keys`)).body.key;
    api = new Api(base, key);
    const invite = (await owner.req('POST', `/api/admin/users/${user.id}/invite`, {})).body.invite_url;
    context = await newContext();
    page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(invite);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(`${base}/console`);

    const created = await api.req('POST', '/api/v2/showcases', {
      items: [
        { image_url: `${media.base}/wide.png`, title: 'Dunes', width_inches: 24, height_inches: 18, frame: 'classic' },
        { image_url: `${media.base}/tall.png`, title: 'Tower', width_inches: 16, height_inches: 20 },
        { image_url: `${media.base}/square.png`, title: 'Square', width_inches: 12, height_inches: 12, frame: 'thin' },
      ],
    });
    expect(created.status).toBe(201);
    showcaseId = created.body.id;
    ids = created.body.queued_jobs.map((j: { item_id: number }) => j.item_id);
    await waitFor(
      async () =>
        (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items.every((i: { status: string }) => i.status === 'completed'),
      90_000,
      'the pictures to convert',
    );

    await page.goto(`${base}/console/showcases/${showcaseId}`);
    await page.locator('[data-testid=item][data-status=completed]').nth(2).waitFor({ timeout: 15_000 });
    await hasText(section().locator('[data-testid=wall-list]'), 'No gallery walls yet');
    await section().getByRole('button', { name: 'New wall' }).click();
    await arranger().waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('arranger-title');
    await hasText(page.locator('#arranger-title'), 'New gallery wall');
    // Every completed picture is offered, with its thumbnail; nothing is drawn before two are ticked.
    expect(await arranger().locator('[data-testid=wall-pick]').count()).toBe(3);
    await hasText(arranger().locator('[data-testid=wall-stage]'), 'Tick 2 to 12 pictures');
    expect(await save().isDisabled()).toBe(true);
  });

  it('Row: the API lays the ticked pictures out and the console draws them to scale', async () => {
    await arranger().getByLabel('Wall name').fill('Over the sofa');
    for (const id of ids) await page.locator(`#wall-pick-${id}`).check();
    // The last tick's layout answer is what gets drawn; Row asks again, explicitly.
    const answer = page.waitForResponse(
      (r) => r.url().endsWith(`/showcases/${showcaseId}/walls/layout`) && r.request().method() === 'POST',
    );
    await arranger().getByRole('button', { name: 'Row' }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    expect(res.request().postDataJSON()).toEqual({
      arrangement: 'row',
      gap_inches: 3,
      align: 'center',
      items: ids.map((item_id) => ({ item_id })),
    });
    const layout = (await res.json()) as { items: Place[]; outer_dimensions: { width_inches: number; height_inches: number } };
    expect(layout.items.map((p) => p.item_id)).toEqual(ids);
    // The framed picture is larger than its print; the row's centres share y = 0.
    expect(layout.items[0].width_inches).toBeGreaterThan(24);
    expect(layout.items.map((p) => p.y_inches)).toEqual([0, 0, 0]);
    expect(await arranger().getByRole('button', { name: 'Row' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(async () => (await pics().count()) === 3, 10_000, 'three pictures drawn');
    await waitFor(async () => (await drawn()).every((d, i) => d.x === layout.items[i].x_inches), 10_000, 'the layout drawn');

    const d = await drawn();
    const s = scaleOf(d[0], layout.items[0]);
    expect(s).toBeGreaterThan(2);
    d.forEach((p, i) => {
      const want = layout.items[i];
      expect(p.itemId).toBe(want.item_id);
      // Every picture at the same px per inch: its outer size ...
      expect(Math.abs(p.width - want.width_inches * s)).toBeLessThan(1);
      expect(Math.abs(p.height - want.height_inches * s)).toBeLessThan(1);
      // ... and its centre where the layout puts it, relative to the first one's (y up on the wall, down on screen).
      const cx = p.left + p.width / 2 - (d[0].left + d[0].width / 2);
      const cy = p.top + p.height / 2 - (d[0].top + d[0].height / 2);
      expect(Math.abs(cx - (want.x_inches - layout.items[0].x_inches) * s)).toBeLessThan(1);
      expect(Math.abs(cy + (want.y_inches - layout.items[0].y_inches) * s)).toBeLessThan(1);
      // Neighbours 3 in apart, edge to edge.
      if (i > 0) expect(Math.abs(p.left - (d[i - 1].left + d[i - 1].width) - 3 * s)).toBeLessThan(1);
    });
    // The sofa beneath is 84 in at the same scale; the stage says its scale and the outer size.
    const sofa = (await page.locator('[data-testid=wall-sofa]').boundingBox())!;
    expect(Math.abs(sofa.width - 84 * s)).toBeLessThan(1);
    expect(Math.abs(Number(await page.locator('[data-testid=wall-stage]').getAttribute('data-scale')) - s)).toBeLessThan(0.01);
    const W = layout.outer_dimensions.width_inches;
    expect(W).toBeCloseTo(
      layout.items[2].x_inches + layout.items[2].width_inches / 2 - (layout.items[0].x_inches - layout.items[0].width_inches / 2),
      5,
    );
    await hasText(
      arranger().locator('[data-testid=wall-size]'),
      `Outer size: ${one(layout.outer_dimensions.height_inches)} × ${one(W)} in (`,
    );
    await hasText(arranger().locator('[data-testid=wall-scale]'), /ft|in/);
    const first = layout.items[0];
    expect(d[0].label).toBe(`Dunes, ${one(first.height_inches)} × ${one(first.width_inches)} in, at x ${inch(first.x_inches)} in, y 0 in`);
    expect(await save().isDisabled()).toBe(false);
    await shot(section(), 'row-desktop');
  });

  it('drags a picture with the mouse (0.5 in steps) and moves one with the arrow keys; the wall becomes custom', async () => {
    const before = await drawn();
    const s = Number(await page.locator('[data-testid=wall-stage]').getAttribute('data-scale'));
    // Dunes (the leftmost) up and to the left, away from the others.
    await mouseDrag(0, -47, -61);
    const x = snap(before[0].x - 47 / s);
    const y = snap(before[0].y + 61 / s);
    await waitFor(async () => (await drawn())[0].x === x, 5_000, 'the dragged picture placed');
    let d = await drawn();
    expect([d[0].x, d[0].y]).toEqual([x, y]);
    expect(Number.isInteger(x * 2) && Number.isInteger(y * 2)).toBe(true);
    // Drawn where it now is, by the pixels the pointer moved (give or take the 0.5 in snap).
    expect(Math.abs(d[0].left - before[0].left + 47)).toBeLessThanOrEqual(0.5 * s + 1);
    expect(Math.abs(d[0].top - before[0].top + 61)).toBeLessThanOrEqual(0.5 * s + 1);
    // The others stayed; the arrangement is custom now.
    expect([d[1].x, d[2].x]).toEqual([before[1].x, before[2].x]);
    await hasText(arranger().locator('[data-testid=wall-arrangement]'), 'Custom: your own positions.');
    expect(await arranger().locator('[aria-pressed=true]').count()).toBe(0);

    // Keyboard: Tower 1 in left, then 1 + 6 in up; the position is announced.
    await pics().nth(1).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Shift+ArrowUp');
    d = await drawn();
    expect([d[1].x, d[1].y]).toEqual([before[1].x - 1, 7]);
    const live = arranger().locator('[data-testid=wall-live]');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    await hasText(live, `Tower: x ${inch(before[1].x - 1)} in, y 7 in.`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-index'))).toBe('1');
    expect(d.every((p) => !p.overlap)).toBe(true);
    expect(await save().isDisabled()).toBe(false);
  });

  it('an overlap is outlined in red and blocks Save until it is gone', async () => {
    const before = await drawn();
    // Square onto Tower's centre.
    const dx = before[1].left + before[1].width / 2 - (before[2].left + before[2].width / 2);
    const dy = before[1].top + before[1].height / 2 - (before[2].top + before[2].height / 2);
    await mouseDrag(2, dx, dy);
    await waitFor(async () => (await drawn())[2].overlap, 5_000, 'the overlap marked');
    let d = await drawn();
    expect(d.map((p) => p.overlap)).toEqual([false, true, true]);
    expect(
      await pics()
        .nth(2)
        .evaluate((e) => getComputedStyle(e).outlineColor),
    ).toBe('rgb(179, 38, 30)');
    expect(await save().isDisabled()).toBe(true);
    await hasText(problem(), 'Tower and Square overlap: move them apart to save.');
    expect(await save().getAttribute('aria-describedby')).toContain('wall-problem');
    expect(await arranger().locator('[data-testid=wall-stage]').getAttribute('data-overlaps')).toBe('1');
    await shot(arranger(), 'overlap-desktop');

    // Back where it was (the keyboard finishes what the snap left): Save is open again.
    await mouseDrag(2, -dx, -dy);
    d = await drawn();
    await pics().nth(2).focus();
    for (let i = 0; i < Math.round(Math.abs(before[2].x - d[2].x)); i++)
      await page.keyboard.press(before[2].x > d[2].x ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.round(Math.abs(before[2].y - d[2].y)); i++)
      await page.keyboard.press(before[2].y > d[2].y ? 'ArrowUp' : 'ArrowDown');
    d = await drawn();
    expect(d.every((p) => !p.overlap)).toBe(true);
    expect(await problem().textContent()).toBe('');
    expect(await save().isDisabled()).toBe(false);
    d.forEach((p) => placed.set(p.itemId, { x: p.x, y: p.y }));
    await axe(page, 'arranger');
    await shot(section(), 'desktop');
  });

  it('saves the custom wall (1 credit), polls it until built and shows its poster and share link', async () => {
    // Every text of the status line: when the wall builds quickly, "is ready" replaces "saved" before a poll sees it.
    await recordTexts(status());
    const answer = page.waitForResponse((r) => r.url().endsWith(`/showcases/${showcaseId}/walls`) && r.request().method() === 'POST');
    await save().click();
    const res = await answer;
    const sent = res.request().postDataJSON();
    expect(sent).toEqual({
      arrangement: 'custom',
      gap_inches: 3,
      align: 'center',
      name: 'Over the sofa',
      items: ids.map((item_id) => ({ item_id, x_inches: placed.get(item_id)!.x, y_inches: placed.get(item_id)!.y })),
    });
    expect(res.status()).toBe(202);
    const body = await res.json();
    expect(body.credits_charged).toBe(1);
    wallId = body.id;
    expect(wallId).toMatch(/^wall_/);
    await arranger().waitFor({ state: 'hidden' });
    await hasSaid(page, 'Gallery wall "Over the sofa" saved (1 credit charged)');

    const result = section().locator('[data-testid=wall-result]');
    await waitFor(async () => (await result.getAttribute('data-status')) === 'completed', 150_000, 'the wall built');
    // The wall as the API has it: the pictures exactly where they were dragged (0.5 in steps), framed sizes kept.
    const wall = (await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${wallId}`)).body;
    expect(wall.status).toBe('completed');
    expect(wall.arrangement).toBe('custom');
    expect(wall.items.map((p: Place) => [p.item_id, p.x_inches, p.y_inches])).toEqual(
      ids.map((id) => [id, placed.get(id)!.x, placed.get(id)!.y]),
    );
    expect(wall.items.every((p: Place) => Number.isInteger(p.x_inches * 2) && Number.isInteger(p.y_inches * 2))).toBe(true);
    const poster = result.locator('[data-testid=wall-poster]');
    expect(await poster.getAttribute('src')).toBe(wall.preview_url);
    await waitFor(async () => poster.evaluate((i) => (i as HTMLImageElement).naturalWidth > 0), 10_000, 'the poster loaded');
    expect(await result.locator('[data-testid=wall-link]').inputValue()).toBe(wall.page_url);
    expect(wall.page_url).toMatch(new RegExp(`^${base}/showcase/shw_[^/]+/walls/${wallId}$`));

    // Copy link: the clipboard has the page's address, and the status line says so.
    await result.getByRole('button', { name: 'Copy link' }).click();
    await hasText(status(), `Link copied: ${wall.page_url}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wall.page_url);

    // The list: its card with the poster, status, outer size, page link, Copy link, Edit and Delete.
    const card = section().locator(`[data-testid=wall][data-id="${wallId}"]`);
    await waitFor(async () => (await card.getAttribute('data-status')) === 'completed', 10_000, 'the card completed');
    await hasText(card, 'Over the sofa');
    await hasText(
      card.locator('[data-testid=wall-meta]'),
      `Outer size ${one(wall.outer_dimensions.height_inches)} × ${one(wall.outer_dimensions.width_inches)} in (`,
    );
    expect(await card.locator('[data-testid=wall-page]').getAttribute('href')).toBe(wall.page_url);
    expect(await card.locator('img').getAttribute('src')).toBe(wall.preview_url);
    await card.getByRole('button', { name: 'Copy link (Over the sofa)' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wall.page_url);
    await axe(page, 'saved wall');
    await shot(section(), 'saved-desktop');
  }, 200_000);

  it('Edit opens the wall where it was left; a new name alone is a PATCH {name} (200, no rebuild)', async () => {
    const card = section().locator(`[data-testid=wall][data-id="${wallId}"]`);
    await card.getByRole('button', { name: 'Edit (Over the sofa)' }).click();
    await arranger().waitFor({ state: 'visible' });
    await hasText(page.locator('#arranger-title'), 'Edit "Over the sofa"');
    expect(await arranger().getByLabel('Wall name').inputValue()).toBe('Over the sofa');
    await waitFor(async () => (await pics().count()) === 3, 5_000, 'three pictures drawn');
    expect((await drawn()).map((p) => [p.itemId, p.x, p.y])).toEqual(ids.map((id) => [id, placed.get(id)!.x, placed.get(id)!.y]));
    await hasText(arranger().locator('[data-testid=wall-arrangement]'), 'Custom');

    await arranger().getByLabel('Wall name').fill('Above the sofa');
    const answer = page.waitForResponse((r) => r.url().endsWith(`/walls/${wallId}`) && r.request().method() === 'PATCH');
    await save().click();
    const res = await answer;
    expect(res.request().postDataJSON()).toEqual({ name: 'Above the sofa' });
    expect(res.status()).toBe(200);
    await arranger().waitFor({ state: 'hidden' });
    await hasText(section().locator(`[data-testid=wall][data-id="${wallId}"]`), 'Above the sofa');
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${wallId}`)).body).toMatchObject({
      name: 'Above the sofa',
      status: 'completed',
    });
  });

  it("shows the API's 400 next to the arranger, on the picture it names", async () => {
    await section().getByRole('button', { name: 'New wall' }).click();
    await page.locator(`#wall-pick-${ids[0]}`).check();
    await page.locator(`#wall-pick-${ids[2]}`).check();
    await waitFor(async () => (await pics().count()) === 2, 10_000, 'two pictures drawn');
    const err = arranger().locator('[data-testid=wall-error]');
    // A gap the API refuses (at most 48 in): its message under the wall, the field marked.
    const gap = arranger().getByLabel('Gap (in)');
    await gap.fill('60');
    await hasText(err, '(gap_inches)');
    expect(await gap.getAttribute('aria-invalid')).toBe('true');
    await gap.fill('3');
    await waitFor(async () => (await err.isHidden()) && (await gap.getAttribute('aria-invalid')) === null, 10_000, 'the gap accepted');
    // Square goes while the arranger still offers it: the API refuses the wall and names the item.
    expect((await api.req('DELETE', `/api/v2/showcases/${showcaseId}/items/${ids[2]}`)).status).toBe(204);
    const answer = page.waitForResponse((r) => r.url().endsWith(`/showcases/${showcaseId}/walls`) && r.request().method() === 'POST');
    await save().click();
    expect((await answer).status()).toBe(400);
    await hasText(err, `items[1].item_id: showcase ${showcaseId} has no item ${ids[2]}`);
    expect(await err.getAttribute('role')).toBe('alert');
    await hasText(err, '(items[1].item_id)');
    expect(
      await pics()
        .nth(1)
        .evaluate((e) => e.classList.contains('invalid')),
    ).toBe(true);
    expect(await arranger().isVisible()).toBe(true);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls`)).body.data).toHaveLength(1);
    await arranger().getByRole('button', { name: 'Cancel' }).click();
    await arranger().waitFor({ state: 'hidden' });
  });

  it('is readable at 390 px: controls stacked, the wall scaled to the width, no sideways scroll; a touch drag moves a picture', async () => {
    const phone = await newContext(PHONE);
    await phone.addCookies((await context.cookies()).filter((c) => c.name === 'console_session'));
    const pp = await phone.newPage();
    pp.on('dialog', (d) => void d.accept());
    await pp.goto(`${base}/console/showcases/${showcaseId}`);
    const card = pp.locator(`[data-testid=wall][data-id="${wallId}"]`);
    await card.waitFor({ timeout: 15_000 });
    // The deleted picture shows on the wall's card (its files still show it).
    await hasText(card, 'A picture of it was deleted.');
    await pp.locator('[data-testid=item]').first().waitFor();
    await pp.locator('[data-testid=walls]').getByRole('button', { name: 'New wall' }).click();
    for (const id of ids.slice(0, 2)) await pp.locator(`#wall-pick-${id}`).check();
    await pp.locator('[data-testid=wall-arranger]').getByRole('button', { name: 'Grid' }).click();
    await waitFor(async () => (await pp.locator('[data-testid=wall-pic]').count()) === 2, 10_000, 'two pictures drawn');
    await waitFor(async () => (await pp.locator('#wall-columns').isDisabled()) === false, 5_000, 'columns enabled for grid');
    const stage = (await pp.locator('[data-testid=wall-stage]').boundingBox())!;
    expect(stage.width).toBeLessThanOrEqual(PHONE.width - 24);
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Stacked: the wall comes below the controls, as wide as they are.
    const side = (await pp.locator('.ar-side').boundingBox())!;
    expect(stage.y).toBeGreaterThan(side.y + side.height - 1);
    expect(Math.abs(stage.width - side.width)).toBeLessThan(2);

    // A touch drag (touchstart, touchmove, touchend as a phone sends them) moves the first picture.
    const before = await drawn(pp);
    const s = Number(await pp.locator('[data-testid=wall-stage]').getAttribute('data-scale'));
    const box = (await pp.locator('[data-testid=wall-pic]').first().boundingBox())!;
    const cdp = await phone.newCDPSession(pp);
    const at = (dx: number) => [{ x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(-4 * i) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await waitFor(async () => (await drawn(pp))[0].x !== before[0].x, 5_000, 'the picture moved by touch');
    expect((await drawn(pp))[0].x).toBe(snap(before[0].x - 20 / s));
    expect(await pp.evaluate(() => window.scrollX)).toBe(0);
    await hasText(pp.locator('[data-testid=wall-arrangement]'), 'Custom');
    await axe(pp, 'arranger (phone)');
    await shot(pp.locator('[data-testid=walls]'), 'phone');
    expect(await pp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await pp.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
    await phone.close();
  });

  it('deletes the wall', async () => {
    const card = section().locator(`[data-testid=wall][data-id="${wallId}"]`);
    await card.getByRole('button', { name: 'Delete (Above the sofa)' }).click();
    await hasText(status(), 'Gallery wall "Above the sofa" deleted.');
    await hasText(section().locator('[data-testid=wall-list]'), 'No gallery walls yet');
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${wallId}`)).status).toBe(404);
    expect(await page.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
  });
});
