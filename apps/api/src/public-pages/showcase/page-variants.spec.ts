import type { ItemVariant } from '@app/persistence';
import { artwork } from '../artwork';
import { itemPage } from './item-page';
import { fromPrice, priceValue, selectedVariant, variantName, variantResult, variantSelector } from './page-variants';
import type { PageItem, PageVariant, ReadyItem } from './showcase-items';
import type { PageShowcase } from './showcase-page';

const CM = { locale: 'en', units: 'cm' } as const;

function stored(over: Partial<ItemVariant> = {}): ItemVariant {
  return {
    id: 'var_aaaa',
    sku: 'A',
    name: '',
    default: false,
    price: null,
    link_url: null,
    call_to_action: null,
    availability: 'available',
    sent: {},
    spec: { width_inches: 50 / 2.54, height_inches: 70 / 2.54 },
    build: null,
    main: false,
    pending_job_id: null,
    error: null,
    ...over,
  };
}

const ready = (sku: string, over: Partial<ReadyItem> = {}): PageItem & { ready: ReadyItem } => ({
  id: 1,
  status: 'completed',
  progress: 100,
  title: 'Street',
  ready: {
    posterUrl: `https://x/files/${sku}/poster.jpg`,
    glbUrl: `https://x/files/${sku}/model.glb`,
    usdzUrl: `https://x/files/${sku}/model.usdz`,
    embedUrl: `https://x/embed/emb_1?variant=${sku}`,
    widthInches: 20,
    heightInches: 30,
    itemUrl: `https://x/showcase/shw_1/items/1?variant=${sku}`,
    wallUrl: `https://x/showcase/shw_1/items/1/wall?variant=${sku}`,
    thumbs: [],
    presentation: { placement: 'wall', allowScaling: false, banner: { title: 'Street', price: '€10', link_url: 'https://shop/p' } },
    ...over,
  },
});

describe('variant names and prices', () => {
  it('names a variant by its size in the page unit and its frame, unless the shop named it', () => {
    expect(variantName(stored(), null, CM)).toBe('70 × 50 cm');
    expect(variantName(stored({ spec: { ...stored().spec, frame: { style: 'classic', color: 'oak' } } }), null, CM)).toBe(
      '70 × 50 cm, oak',
    );
    expect(
      variantName(stored({ spec: { ...stored().spec, frame: { style: 'thin', color: 'black' }, mat: { width_inches: 2 } } }), null, CM),
    ).toBe('70 × 50 cm, black with mat');
    expect(variantName(stored({ spec: { ...stored().spec, frame: 'canvas' } }), null, { locale: 'de', units: 'cm' })).toBe(
      '70 × 50 cm, Leinwand auf Keilrahmen',
    );
    expect(
      variantName(stored({ spec: { ...stored().spec, frame: { style: 'classic', color: 'oak' } } }), null, { locale: 'ja', units: 'cm' }),
    ).toBe('70 × 50 cm、オーク');
    expect(variantName(stored({ name: ' A3 print ' }), null, CM)).toBe('A3 print');
    expect(variantName(stored({ spec: {} }), null, CM)).toBe('A');
  });

  it('reads the number a price states, whatever its marks', () => {
    expect(priceValue('€ 9.500')).toBe(9500);
    expect(priceValue('$1,200.50')).toBe(1200.5);
    expect(priceValue('1.200,50 €')).toBe(1200.5);
    expect(priceValue('¥1,200,000')).toBe(1200000);
    expect(priceValue('12,50 €')).toBe(12.5);
    expect(priceValue('CHF 3’000')).toBe(3000);
    expect(priceValue('120.000,- €')).toBe(120000);
    expect(priceValue('Price on request')).toBeUndefined();
  });

  it('"from" the lowest price for sale, as that variant writes it; the price alone when all are the same', () => {
    const v = (sku: string, price: string | null, availability: PageVariant['availability'] = 'available'): PageVariant => ({
      id: sku,
      sku,
      name: sku,
      default: false,
      price,
      availability,
      state: 'ready',
    });
    expect(fromPrice([v('a', '€1,249'), v('b', '€39'), v('c', '€25', 'sold'), v('d', null)], 'en')).toBe('from €39');
    expect(fromPrice([v('a', '€39'), v('b', '€39')], 'de')).toBe('€39');
    expect(fromPrice([v('a', '1.200 €'), v('b', '900 €')], 'de')).toBe('ab 900 €');
    expect(fromPrice([v('a', '¥30,000'), v('b', '¥12,000', 'sold')], 'ja')).toBe('¥30,000');
    expect(fromPrice([v('a', 'POA')], 'en')).toBeUndefined();
  });

  it("overlays a variant's files and commerce fields on the item's result, never the default's price for one without", () => {
    const files = (k: string) => ({ glb: { key: `${k}.glb` }, usdz: { key: `${k}.usdz` }, poster: { key: `${k}.jpg` } });
    const def = stored({ sku: 'D', default: true, price: '€10', link_url: 'https://shop/d' });
    const other = stored({
      sku: 'O',
      price: null,
      link_url: 'https://shop/o',
      build: {
        job_id: 'v2_1',
        files: files('o') as never,
        dimensions: { width_inches: 5, height_inches: 7 },
        outer_dimensions: {} as never,
      },
    });
    const result = {
      files: files('d'),
      dimensions: { width_inches: 1 },
      fit: { mode: 'crop' },
      banner: { title: 'T', price: '€10', link_url: 'https://shop/d' },
    };
    const r = variantResult(result, other, def);
    expect(r.files).toEqual(files('o'));
    expect(r.dimensions).toEqual({ width_inches: 5, height_inches: 7 });
    expect(r.fit).toBeUndefined();
    expect(r.banner).toEqual({ title: 'T', link_url: 'https://shop/o' });
    expect(result.banner.price).toBe('€10');
  });
});

describe('the selector', () => {
  const variants: PageVariant[] = [
    { id: '1', sku: 'A', name: '50 × 70 cm', default: true, price: '€10', availability: 'available', state: 'ready', item: ready('A') },
    {
      id: '2',
      sku: 'B<',
      name: 'B <b>',
      default: false,
      price: '€20',
      availability: 'sold',
      state: 'ready',
      // A sold variant is a work with a label (sold): its AR banner offers nothing to buy.
      item: { ...ready('B'), artwork: artwork({ label: {}, availability: 'sold', title: 'Street', price: '€20', result: {} }, CM) },
    },
    { id: '3', sku: 'C', name: 'C', default: false, price: null, availability: 'available', state: 'building' },
    { id: '4', sku: 'D', name: 'D', default: false, price: '€5', availability: 'available', state: 'failed' },
  ];

  it('is a fieldset of native radios; a sold one says so, one without files yet is disabled "Preparing…"', () => {
    const html = variantSelector(variants, variants[0]!, 'en');
    expect(html).toContain('<fieldset class="variants" id="variants" data-selected="A"><legend>Size and frame</legend>');
    expect(html).toContain('<input type="radio" name="variant" value="A" autocomplete="off" checked>');
    expect(html).toContain('value="B&lt;"');
    expect(html).toContain('<span class="name">B &lt;b&gt;</span> <span class="vprice">€20</span> <span class="state sold">Sold</span>');
    expect(html).toContain('value="C" autocomplete="off" disabled><span class="name">C</span> <span class="state">Preparing…</span>');
    expect(html).toContain(
      'value="D" autocomplete="off" disabled><span class="name">D</span> <span class="vprice">€5</span> <span class="state">Not available</span>',
    );
    expect(variantSelector(variants, variants[0]!, 'de')).toContain('<span class="state">Wird vorbereitet…</span>');
  });

  it('shows the asked variant when it is ready, else the default', () => {
    expect(selectedVariant(variants, 'B<')?.sku).toBe('B<');
    expect(selectedVariant(variants, 'C')?.sku).toBe('A');
    expect(selectedVariant(variants, 'nope')?.sku).toBe('A');
    expect(selectedVariant(undefined)).toBeUndefined();
  });

  it('renders the item page with the JSON block, the variant chosen, and nothing unescaped', () => {
    const item: PageItem = { ...ready('A'), ready: { ...ready('A').ready, itemUrl: 'https://x/showcase/shw_1/items/1' }, variants };
    const showcase: PageShowcase = {
      layout: 'grid',
      logoUrl: null,
      description: null,
      links: [],
      tagline: null,
      primary: null,
      secondary: null,
      pageUrl: 'https://x/showcase/shw_1',
      indexable: false,
      items: [item],
    };
    const html = itemPage({ showcase, index: 0, platform: 'ios', variant: 'B<' });
    expect(html).toContain('value="B&lt;" autocomplete="off" checked');
    expect(html).not.toContain('<b>');
    const data = JSON.parse(/<script type="application\/json" id="variant-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(data.map((d: { sku: string }) => d.sku)).toEqual(['A', 'B<']);
    expect(html).not.toMatch(/id="variant-data">[^<]*B</);
    expect(data[1].links.usdz).toBe('https://x/files/B/model.usdz');
    // The Quick Look link is the chosen one's, its banner link there (empty) for the script to fill.
    expect(html).toContain(
      '<a class="ar" rel="ar" href="https://x/files/B/model.usdz#allowsContentScaling=0&amp;checkoutTitle=Street&amp;checkoutSubtitle=Sold"',
    );
    expect(html).toContain('data-v-href="ar" data-link=""');
    expect(html).toContain('<a class="buy" data-v="buy" rel="noopener" hidden></a>');
    expect(html).toContain('<link rel="canonical" href="https://x/showcase/shw_1/items/1">');
  });
});
