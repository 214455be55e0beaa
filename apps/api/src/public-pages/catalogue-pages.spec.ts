import { runInNewContext } from 'node:vm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUES } from '@app/catalogue';
import { artwork } from './artwork';
import { interactivePage, type ReadyModel } from './embed/embed-page';
import { askedLocale, pageLocale, withLang, type PageLocale } from './page-locale';
import { arBanner, launchPresentation } from './platform';
import { itemPage, wallPage } from './showcase/item-page';
import { frameLabel, type PageItem } from './showcase/showcase-items';
import { showcasePage, type PageShowcase } from './showcase/showcase-page';
import { referenceLabel, PERSON, SOFA } from './showcase/wall-preview';
import { widgetMessages, widgetScript } from './widget-script';

const BASE = 'https://ar.example.com';
const DE: PageLocale = { locale: 'de', units: 'cm' };
const JA: PageLocale = { locale: 'ja', units: 'cm' };
const EN_CM: PageLocale = { locale: 'en', units: 'cm' };

/** A job result of a picture given a real size (76.2 × 101.6 cm = 30 × 40 in, portrait) with a banner. */
const result = (extra: Record<string, unknown> = {}) => ({
  dimensions: { width_inches: 30, height_inches: 40 },
  outer_dimensions: { width_inches: 30, height_inches: 40, depth_inches: 0.04 },
  fit: { requested: { width_inches: 30, height_inches: 40 }, applied: 'none' },
  placement: 'wall',
  allow_scaling: false,
  frame: { style: 'none', width_inches: 0, depth_inches: 0.04, color: 'white' },
  banner: { title: 'Der Schwan', price: '€ 9.500', call_to_action: 'Kaufen', link_url: 'https://shop.example/swan' },
  ...extra,
});
const label = {
  artist: 'Hilma af Klint',
  year: '1915',
  medium: 'Öl auf Leinwand',
  edition: '3/25',
  description: 'Aus der Serie „Der Schwan“.',
};

function item(id: number, availability: string, loc: PageLocale, r = result()): PageItem {
  const presentation = launchPresentation(r);
  return {
    id,
    status: 'completed',
    progress: 100,
    title: `Bild ${id}`,
    artwork: artwork({ label, availability, title: presentation?.banner.title, price: presentation?.banner.price, result: r }, loc),
    ready: {
      posterUrl: `${BASE}/p.png`,
      glbUrl: `${BASE}/m.glb`,
      usdzUrl: `${BASE}/m.usdz`,
      embedUrl: withLang(`${BASE}/embed/emb_${id}`, loc.lang),
      widthInches: 30,
      heightInches: 40,
      presentation,
      itemUrl: withLang(`${BASE}/showcase/shw_x/items/${id}`, loc.lang),
      wallUrl: withLang(`${BASE}/showcase/shw_x/items/${id}/wall`, loc.lang),
      thumbs: [{ url: `${BASE}/showcase/shw_x/items/${id}/thumb/480.webp`, width: 480 }],
    },
  };
}

const showcase = (items: PageItem[], loc: PageLocale): PageShowcase => ({
  layout: 'branded',
  logoUrl: null,
  description: null,
  links: [],
  tagline: 'Galerie Nord',
  primary: null,
  secondary: null,
  pageUrl: `${BASE}/showcase/shw_x`,
  indexable: true,
  items,
  loc,
});

describe('page locale', () => {
  it('takes a valid ?lang= (any spelling of a supported language), else the showcase’s locale', () => {
    expect(pageLocale('fr', 'de', 'cm')).toEqual({ locale: 'fr', units: 'cm', lang: 'fr' });
    expect(pageLocale('ja-JP', 'de')).toEqual({ locale: 'ja', units: 'in', lang: 'ja' });
    for (const bad of [undefined, '', 'xx', 'sv', 'de,fr', 'de;q=1', ['de', 'fr'], 'd'.repeat(40), '*'])
      expect(pageLocale(bad, 'de', 'cm')).toEqual({ locale: 'de', units: 'cm' });
    // A stored locale the catalogues do not know reads English.
    expect(pageLocale(undefined, 'sv')).toEqual({ locale: 'en', units: 'in' });
    expect(askedLocale('NL')).toBe('nl');
  });

  it('carries ?lang= on links, before any fragment and after any query', () => {
    expect(withLang(`${BASE}/showcase/shw_x`, undefined)).toBe(`${BASE}/showcase/shw_x`);
    expect(withLang(`${BASE}/showcase/shw_x#item-3`, 'de')).toBe(`${BASE}/showcase/shw_x?lang=de#item-3`);
    expect(withLang(`${BASE}/embed/emb_1?platform=ios`, 'ja')).toBe(`${BASE}/embed/emb_1?platform=ios&lang=ja`);
  });
});

describe('the label of a catalogued work', () => {
  it('states the real size height × width, the showcase’s unit first; a plain picture has no label', () => {
    const a = artwork({ label, availability: 'available', title: 'The Swan', price: '$9,500', result: result() }, EN_CM)!;
    expect(a.size).toBe('101.6 × 76.2 cm (40 × 30 in)');
    expect(a.label.headline.map((r) => r.text).join('')).toBe('Hilma af Klint, The Swan, 1915');
    expect(a.label.edition).toBe('Edition 3/25');
    expect(artwork({ label: {}, availability: 'available', result: { ...result(), fit: undefined } }, EN_CM)).toBeUndefined();
    // A label without a real size: no made-up size (the 24 in default is the AR model's).
    expect(
      artwork({ label: { artist: 'A' }, availability: 'available', result: { ...result(), fit: undefined } }, EN_CM)!.size,
    ).toBeUndefined();
  });

  it('adds a canvas’s depth, and a framed work’s framed size', () => {
    const canvas = result({
      frame: { style: 'canvas', depth_inches: 1.5 },
      outer_dimensions: { width_inches: 30, height_inches: 40, depth_inches: 1.5 },
    });
    expect(artwork({ label, availability: 'available', result: canvas }, DE)!.size).toBe('101,6 × 76,2 × 3,8 cm (40 × 30 × 1,5 in)');
    const framed = result({
      frame: { style: 'classic', width_inches: 1.5, depth_inches: 1.25, color: 'walnut' },
      outer_dimensions: { width_inches: 33, height_inches: 43, depth_inches: 1.25 },
    });
    expect(artwork({ label, availability: 'available', result: framed }, EN_CM)!.size).toBe(
      '101.6 × 76.2 cm (40 × 30 in), 109.2 × 83.8 × 3.2 cm (43 × 33 × 1.3 in) framed',
    );
  });

  it('does not call an unframed work framed because of rounding (a size in cm is stored to 4 decimals of an inch, the outer size to 3)', () => {
    const cm = result({
      dimensions: { width_inches: 14.7638, height_inches: 11.811 },
      outer_dimensions: { width_inches: 14.764, height_inches: 11.811, depth_inches: 0.04 },
    });
    expect(artwork({ label, availability: 'available', result: cm }, JA)!.size).toBe('30 × 37.5 cm (11.8 × 14.8 in)');
    expect(launchPresentation(cm)!.framed).toBeUndefined();
  });

  it('puts the label in the AR banner, and nothing to buy on a sold work', () => {
    const sold = artwork({ label, availability: 'sold', title: 'Der Schwan', price: '€ 9.500', result: result() }, DE)!;
    const b = arBanner(result().banner, sold, 'de');
    expect(b).toEqual({ title: 'Der Schwan', subtitle: 'Hilma af Klint, 1915 · 101,6 × 76,2 cm (40 × 30 in) · Verkauft' });
    const reserved = artwork({ label, availability: 'reserved', result: result() }, DE)!;
    expect(arBanner(result().banner, reserved, 'de')).toMatchObject({ call_to_action: 'Kaufen', price: '€ 9.500' });
  });

  it('describes frames in the page’s language (English as before)', () => {
    const r = { frame: { style: 'classic', color: 'walnut' }, mat: { width_inches: 2, color: 'white' } };
    expect(frameLabel(r)).toBe('Classic walnut frame, white mat 2 in');
    expect(frameLabel(r, DE)).toBe('Klassischer Rahmen in Nussbaum, Passepartout in Weiß, 5,1 cm');
    expect(frameLabel({ frame: { style: 'thin', color: '<b>' } }, DE)).toBe('Schmaler Rahmen');
    expect(frameLabel({ frame: { style: 'canvas' } }, JA)).toBe('キャンバス張り');
  });

  it('states the wall’s reference in the showcase’s unit first', () => {
    expect(referenceLabel(SOFA)).toBe('a sofa 84 in (213 cm) wide');
    expect(referenceLabel(PERSON)).toBe('a person 5 ft 7 in (170 cm) tall');
    expect(referenceLabel(SOFA, DE)).toBe('ein Sofa, 213 cm (84 in) breit');
  });
});

describe('pages with labels', () => {
  const items = (loc: PageLocale) => [item(1, 'available', loc), item(2, 'sold', loc), item(3, 'not_for_sale', loc)];

  it('showcase cards: the label in gallery order; a sold work shows the red dot and no buy link', () => {
    for (const platform of ['ios', 'android', 'desktop'] as const) {
      const html = showcasePage(showcase(items(DE), DE), platform, false);
      expect(html).toContain('<html lang="de">');
      const cards = html.split('<article').slice(1);
      expect(cards[0]).toContain(
        '<span class="headline"><span class="artist">Hilma af Klint</span>, <cite class="title">Der Schwan</cite>, <span class="year">1915</span></span>' +
          '<span class="medium">Öl auf Leinwand</span><span class="dims">101,6 × 76,2 cm (40 × 30 in)</span><span class="edition">Exemplar 3/25</span><span class="price">€ 9.500</span>',
      );
      expect(cards[0]).toContain('shop.example/swan');
      expect(cards[1]).toContain(
        '<span class="availability sold" data-availability="sold"><span class="dot" aria-hidden="true"></span>Verkauft</span>',
      );
      expect(cards[2]).toContain('<span class="availability not_for_sale" data-availability="not_for_sale">Unverkäuflich</span>');
      for (const c of cards.slice(1)) {
        expect(c).not.toContain('shop.example');
        expect(c).not.toContain('Kaufen');
        expect(c).not.toContain('9.500');
        expect(c).not.toMatch(/callToAction|price=/);
      }
      // A work with a real size states it in its label: no size chip.
      expect(html).not.toContain('class="size"');
    }
    // Only the available work's banner link needs the Quick Look tap script.
    const ios = showcasePage(showcase(items(DE), DE), 'ios', false);
    expect(ios.match(/data-link=/g)).toHaveLength(1);
    expect(ios).toContain(
      'checkoutSubtitle=Hilma%20af%20Klint%2C%201915%20%C2%B7%20101%2C6%20%C3%97%2076%2C2%20cm%20(40%20%C3%97%2030%20in)%20%C2%B7%20Verkauft',
    );
    const android = showcasePage(showcase(items(DE), DE), 'android', false);
    expect(android).toContain('&amp;title=Hilma%20af%20Klint%2C%20Der%20Schwan%2C%201915&amp;resizable=false');
  });

  it('item page: the label, JSON-LD of a VisualArtwork, and ?lang= on every link between pages', () => {
    const loc: PageLocale = { ...DE, lang: 'de' };
    const s = showcase(items(loc), loc);
    const html = itemPage({ showcase: s, index: 1, platform: 'desktop' });
    expect(html).toContain('<h1 class="headline"><span class="artist">Hilma af Klint</span>, <cite class="title">Der Schwan</cite>');
    expect(html).toContain(
      '<p class="availability sold" data-availability="sold"><span class="dot" aria-hidden="true"></span>Verkauft</p>',
    );
    expect(html).not.toContain('class="buy"');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(ld).toMatchObject({
      '@type': 'VisualArtwork',
      name: 'Der Schwan',
      url: `${BASE}/showcase/shw_x/items/2`,
      artist: { '@type': 'Person', name: 'Hilma af Klint' },
      dateCreated: '1915',
      artMedium: 'Öl auf Leinwand',
      height: { value: 101.6, unitCode: 'CMT' },
      width: { value: 76.2, unitCode: 'CMT' },
      offers: { availability: 'https://schema.org/SoldOut' },
    });
    expect(ld.offers.price).toBeUndefined();
    for (const href of [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!))
      expect([href, href.includes('lang=de')]).toEqual([href, true]);
    expect(html).toContain(`<link rel="canonical" href="${BASE}/showcase/shw_x/items/2?lang=de">`);
    expect(html).toContain(`<link rel="alternate" hreflang="ja" href="${BASE}/showcase/shw_x/items/2?lang=ja">`);
    const wall = wallPage({ showcase: s, index: 0, platform: 'desktop' });
    expect(wall).toContain('Maßstabsgetreu gezeichnet: Das Bild misst 101,6 × 76,2 cm (40 × 30 in); daneben <span class="reference"');
    expect(wall).toContain('ein Sofa, 213 cm (84 in) breit');
  });

  it('sets a Japanese title in 《》, upright', () => {
    const html = itemPage({ showcase: showcase(items(JA), JA), index: 0, platform: 'desktop' });
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain(
      '<span class="artist">Hilma af Klint</span><cite class="title upright">《Der Schwan》</cite><span class="year">1915</span>',
    );
  });

  it('embed page of a catalogued work: the label in the banner, nothing to buy once sold', () => {
    const r = result();
    const m = (availability: string): ReadyModel => ({
      pageUrl: `${BASE}/embed/emb_1`,
      posterUrl: `${BASE}/p.png`,
      glbUrl: `${BASE}/m.glb`,
      usdzUrl: `${BASE}/m.usdz`,
      widthInches: 30,
      heightInches: 40,
      qrSvg: '<svg></svg>',
      assetBase: BASE,
      presentation: launchPresentation(r),
      artwork: artwork({ label, availability, title: 'Der Schwan', price: '€ 9.500', result: r }, DE),
      loc: DE,
    });
    const sold = interactivePage(m('sold'), 'ios');
    expect(sold).toContain('<html lang="de">');
    expect(sold).toContain('<span class="dot" aria-hidden="true"></span>Verkauft</span>');
    expect(sold).not.toMatch(/class="cta"|data-link|callToAction|<script>/);
    expect(sold).toContain('In Ihrem Raum ansehen');
    const available = interactivePage(m('available'), 'desktop');
    expect(available).toContain('<a class="cta" href="https://shop.example/swan" target="_top" rel="noopener">Kaufen</a>');
    expect(available).toContain('alt="3D-Vorschau: Der Schwan"');
    expect(available).toContain('Scannen Sie den Code');
  });
});

describe('widget messages', () => {
  const source = readFileSync(join(__dirname, '../../assets/widget.js'), 'utf8');

  it('fills the table with every locale’s catalogue strings', () => {
    const built = widgetScript(source);
    const m = widgetMessages();
    expect(Object.keys(m)).toEqual(Object.keys(CATALOGUES));
    expect(m.de.error).toBe(CATALOGUES.de['widget.error']);
    expect(built).toContain(JSON.stringify(m));
    expect(() => widgetScript('(function(){})()')).toThrow(/no \/\*messages\*\//);
  });

  it('speaks data-service-lang, else the page’s lang, else English; the embed page gets ?lang=', () => {
    const built = widgetScript(source);
    type El = { lang: string | null; service: string | null };
    const run = (el: El) => {
      const iframe: Record<string, string> = {};
      const box = { innerHTML: '', firstChild: { textContent: '' }, appendChild() {}, querySelector: () => ({ textContent: '' }) };
      const element = {
        style: {} as Record<string, string>,
        attrs: {} as Record<string, string>,
        shadowRoot: null,
        attachShadow: () => ({ set innerHTML(_: string) {}, querySelector: () => box }),
        getBoundingClientRect: () => ({ height: 300 }),
        getAttribute: (n: string) => (n === 'data-service-lang' ? el.service : null),
        setAttribute() {},
        hasAttribute: () => false,
        closest: () => (el.lang ? { getAttribute: () => el.lang } : null),
      };
      const window: Record<string, any> = {};
      const fetches: string[] = [];
      runInNewContext(built, {
        window,
        document: {
          currentScript: { src: `${BASE}/api/v1/widget.js` },
          readyState: 'complete',
          querySelectorAll: () => [],
          createElement: () => iframe,
        },
        Element: Object,
        fetch: (url: string) => {
          fetches.push(url);
          const body = url.includes('/status/') ? { status: 'completed' } : { embed_url: `${BASE}/embed/emb_1` };
          return Promise.resolve({ ok: true, json: () => Promise.resolve(body) });
        },
        setTimeout,
      });
      window.ARWidget.mount(element, { jobId: 'api_1', apiKey: 'k' });
      return new Promise<Record<string, string>>((resolve) => setTimeout(() => resolve(iframe), 20));
    };
    return Promise.all([
      run({ lang: null, service: 'de-AT' }),
      run({ lang: 'ja', service: null }),
      run({ lang: null, service: null }),
      run({ lang: 'sv', service: null }),
    ]).then(([de, ja, none, sv]) => {
      expect([de!.title, de!.src]).toEqual(['AR-Ansicht', `${BASE}/embed/emb_1?lang=de`]);
      expect([ja!.title, ja!.src]).toEqual(['ARビューア', `${BASE}/embed/emb_1?lang=ja`]);
      expect([none!.title, none!.src]).toEqual(['AR viewer', `${BASE}/embed/emb_1`]);
      // An unsupported language reads English; the embed page is told so.
      expect([sv!.title, sv!.src]).toEqual(['AR viewer', `${BASE}/embed/emb_1?lang=en`]);
    });
  });
});
