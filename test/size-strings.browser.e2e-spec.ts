import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SUPPORTED_LOCALES, t, type Locale } from '@app/catalogue';
import { launchChromium, quadrantPicture } from '@app/testing';
import type { Api } from './support/app-process';
import { SCREENSHOTS } from './support/browser-page';
import { createShowcase, type ShowcaseFixture, startShowcaseFixture } from './support/showcase-fixture';

/**
 * One way of writing a size (issue 42, item 7). One framed work (80 cm wide, 60 cm tall, a classic oak frame)
 * and one plain one, in a showcase in centimetres, rendered on every public surface that states a size (the
 * showcase card, the item page, the wall page, the room view, the item's embed page, the together page of the
 * two) in each of the 7 locales: every size those pages write for the framed work is one of the four strings
 * computed here from the API's numbers (picture and framed size, centimetres and inches, height × width (×
 * depth), one decimal, the locale's decimal mark), and each page states the picture's size; the framed size is
 * labelled where it is stated, and the set's overall size too.
 */

const OWNER = 'owner-key-for-size-strings-e2e';

let fixture: ShowcaseFixture;
let owner: Api;
let browser: Browser;
let showcaseUrl: string;
const items: Record<'framed' | 'plain', any> = {} as never;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  fixture = await startShowcaseFixture({
    ownerKey: OWNER,
    files: { '/framed.png': (await quadrantPicture(800, 600)).png, '/plain.png': (await quadrantPicture(400, 600)).png },
  });
  owner = fixture.owner;
  const done = await createShowcase(owner, {
    layout_choice: 'grid',
    units: 'cm',
    locale: 'de',
    analytics: false,
    items: [
      {
        image_url: `${fixture.media.base}/framed.png`,
        title: 'Framed',
        width_cm: 80,
        height_cm: 60,
        placement: 'wall',
        frame: { style: 'classic', color: 'oak' },
      },
      { image_url: `${fixture.media.base}/plain.png`, title: 'Plain', width_cm: 20, height_cm: 30, placement: 'wall' },
    ],
  });
  showcaseUrl = done.url;
  for (const i of done.items) items[/framed\.png$/.test(i.source_url) ? 'framed' : 'plain'] = i;
  browser = await launchChromium({ webgl: false });
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

/** Every "a × b (× c) unit" a text states, in the order written. */
const sizesIn = (text: string): string[] => [...text.matchAll(/\d[\d.,]*(?: × \d[\d.,]*){1,2} (?:cm|in)\b/g)].map((m) => m[0]);

/** The four strings a size of the framed work may be, computed here from the API's numbers (not by the formatter). */
function expected(locale: Locale) {
  const f = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const cm = (v: number) => f.format(Math.round(v * 2.54 * 100) / 100);
  const inch = (v: number) => f.format(v);
  const d = items.framed.dimensions;
  const o = items.framed.outer_dimensions;
  const pic = [d.height_inches, d.width_inches];
  const out = [o.height_inches, o.width_inches, ...(o.depth_inches ? [o.depth_inches] : [])];
  return {
    pictureCm: `${pic.map(cm).join(' × ')} cm`,
    pictureIn: `${pic.map(inch).join(' × ')} in`,
    framedCm: `${out.map(cm).join(' × ')} cm`,
    framedIn: `${out.map(inch).join(' × ')} in`,
  };
}

/** The texts that state a size on a page (visible or not: the room's label waits for a photo). */
async function sizeTexts(p: Page, selector: string): Promise<string[]> {
  return p.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
}

async function surfaces(locale: Locale): Promise<Record<string, string[]>> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await ctx.newPage();
  const lang = `lang=${locale}`;
  const item = `${showcaseUrl}/items/${items.framed.id}`;
  // Screenshots of every surface in German and Japanese (the longest sizes and the other script), to be looked at.
  const shot = async (surface: string) => {
    if (locale === 'de' || locale === 'ja')
      await p.screenshot({ path: join(SCREENSHOTS, `size-strings-${surface}-${locale}.png`), fullPage: true });
  };
  const read = async (surface: string, url: string, selector: string) => {
    const res = await p.goto(url);
    expect(res?.status()).toBe(200);
    await shot(surface);
    return sizeTexts(p, selector);
  };
  const out: Record<string, string[]> = {};
  try {
    // The framed work's card (the showcase page's first card).
    await p.goto(`${showcaseUrl}?${lang}`);
    await shot('card');
    out.card = await p
      .locator(`article[data-item="${items.framed.id}"]`)
      .locator('.dims, .size')
      .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    out.item = await read('item', `${item}?${lang}`, '.details .dims, .details .size, .size.muted, p.dims');
    out.wall = await read('wall', `${item}/wall?${lang}`, 'figure.wall figcaption, figure.wall svg[aria-label]');
    out.room = await read('room', `${item}/room?${lang}`, '[data-room-label]');
    out.embed = await read(
      'embed',
      `${items.framed.embed_url}${items.framed.embed_url.includes('?') ? '&' : '?'}${lang}&platform=desktop`,
      '.size, .dims, .banner .sub',
    );
    out.together = await read(
      'together',
      `${showcaseUrl}/together?items=${items.framed.id},${items.plain.id}&${lang}`,
      `.chosen-list li[data-item="${items.framed.id}"] .dims`,
    );
  } finally {
    await ctx.close();
  }
  // What each surface wrote, beside the screenshots, for whoever reads them.
  writeFileSync(join(SCREENSHOTS, `size-strings-${locale}.json`), JSON.stringify(out, null, 2));
  return out;
}

describe.each(SUPPORTED_LOCALES.map((l) => [l]))('in %s', (locale) => {
  it('every surface writes the framed work’s sizes the same way: height × width, one decimal, the locale’s mark, framed labelled', async () => {
    const want = expected(locale);
    const allowed = new Set(Object.values(want));
    const got = await surfaces(locale);
    for (const [surface, texts] of Object.entries(got)) {
      const text = texts.join(' | ');
      const sizes = sizesIn(text);
      // Each surface states the picture's size in the showcase's unit, and nothing but the four strings.
      expect({ surface, has: sizes.includes(want.pictureCm) }).toEqual({ surface, has: true });
      expect({ surface, other: sizes.filter((s) => !allowed.has(s)) }).toEqual({ surface, other: [] });
      // The framed size, where stated, comes after the picture's and is labelled as the framed one.
      if (sizes.includes(want.framedCm)) {
        expect({ surface, before: text.indexOf(want.pictureCm) < text.indexOf(want.framedCm) }).toEqual({ surface, before: true });
        // Labelled in the locale's words (size.withFramed), in one unit or in both.
        const labelled = [
          t(locale, 'size.withFramed', { picture: want.pictureCm, framed: want.framedCm }),
          t(locale, 'size.withFramed', { picture: `${want.pictureCm} (${want.pictureIn})`, framed: `${want.framedCm} (${want.framedIn})` }),
        ];
        expect({ surface, labelled: labelled.some((l) => text.includes(l)) }).toEqual({ surface, labelled: true });
      }
    }
    // The pages with room for both units state both, in the same numbers.
    for (const surface of ['card', 'item', 'wall', 'embed']) {
      const sizes = sizesIn(got[surface]!.join(' | '));
      expect({ surface, sizes: [...new Set(sizes)].sort() }).toEqual({ surface, sizes: Object.values(want).sort() });
    }
  }, 120_000);
});

it('the together page labels the set’s overall size, height × width, as the room view of the set does', async () => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  try {
    await p.goto(`${showcaseUrl}/together?items=${items.framed.id},${items.plain.id}&lang=de`);
    const overall = (await p.locator('.overall').innerText()).trim();
    expect(overall).toMatch(/^Gesamtmaß: \d[\d,]* × \d[\d,]* cm \(\d[\d,]* × \d[\d,]* in\)$/);
    await p.goto(`${showcaseUrl}/together/room?items=${items.framed.id},${items.plain.id}&lang=de`);
    const label = await p.locator('[data-room-label]').evaluate((e) => e.textContent ?? '');
    // The room view's label: the same overall size in the showcase's unit, labelled.
    expect(label).toBe(overall.replace(/ \(.*\)$/, ''));
  } finally {
    await ctx.close();
  }
}, 60_000);
