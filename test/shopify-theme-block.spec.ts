import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { toLiquidHtmlAST } from '@shopify/liquid-html-parser';
import { renderShopifyBlock, SHOPIFY_EXTENSION as EXT } from './support/shopify-block';

const ROOT = join(__dirname, '..');

/**
 * The Shopify theme app extension (integrations/shopify/extensions/image-ar), without a shop: its blocks
 * rendered by liquidjs against a product fixture and the output read back by Shopify's own HTML+Liquid parser
 * (the one theme-check uses), their schemas' settings validated against the setting schema Shopify publishes
 * for themes (bundled with theme-check), and Shopify's linter run over the folder (`npm run lint:shopify`).
 */

const SETTING_SCHEMA = join(ROOT, 'node_modules/@shopify/theme-check-docs-updater/data/setting.json');

interface BlockSchema {
  name: string;
  target: string;
  settings: { id: string; type: string; default?: unknown }[];
}

/** A block file's {% schema %} JSON. */
function schemaOf(file: string): BlockSchema {
  const source = readFileSync(join(EXT, 'blocks', file), 'utf8');
  const m = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source);
  if (!m) throw new Error(`${file}: no schema`);
  return JSON.parse(m[1]) as BlockSchema;
}

/** A product as Shopify's Liquid sees it: three variants, one without a SKU, a title and SKUs that need escaping. */
const product = {
  id: 8123456789,
  title: 'Dunes "at dusk" & dawn',
  handle: 'dunes',
  variants: [
    { id: 44001, title: 'A3 unframed', sku: 'DUNES-A3' },
    { id: 44002, title: '50 × 70 cm "oak"', sku: `DUNES-50x70-OAK'&"<>` },
    { id: 44003, title: 'Gift card', sku: '' },
  ],
};

function settings(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { service_url: 'https://ar.example.com/', showcase_id: 'shw_abc123', sku: '', height: 520, show_label: false, label: '', ...over };
}

function render(
  file: 'ar-viewer' | 'ar-widget-embed',
  blockSettings: Record<string, unknown>,
  page: Record<string, unknown> = {},
): Promise<string> {
  return renderShopifyBlock(file, blockSettings, page, 'de');
}

interface Element {
  name: string;
  attrs: Record<string, string>;
  text: string;
}

/** Character references as an HTML parser decodes them in attribute values (the ones `escape` writes, and numeric ones). */
function decode(raw: string): string {
  const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
  return raw.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1].toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return named[ref.toLowerCase()] ?? whole;
  });
}

/** Every element of a rendered page, attributes decoded; the parser throws on malformed HTML (an unescaped quote breaks it). */
function elements(html: string): Element[] {
  const found: Element[] = [];
  const visit = (node: any): void => {
    if (node.type === 'HtmlElement' || node.type === 'HtmlRawNode' || node.type === 'HtmlVoidElement') {
      const attrs: Record<string, string> = {};
      for (const a of node.attributes) {
        const name = a.name.map((n: { value: string }) => n.value).join('');
        if (a.type !== 'AttrEmpty' && a.value.some((v: { type: string }) => v.type !== 'TextNode'))
          throw new Error(`Liquid left in ${name}`);
        attrs[name] = a.type === 'AttrEmpty' ? '' : decode(a.value.map((v: { value: string }) => v.value).join(''));
      }
      const name = typeof node.name === 'string' ? node.name : node.name.map((n: { value: string }) => n.value).join('');
      const text = (node.children ?? []).map((c: { type: string; value?: string }) => (c.type === 'TextNode' ? c.value : '')).join('');
      found.push({ name, attrs, text });
    }
    if (node.type !== 'HtmlRawNode') for (const child of node.children ?? []) visit(child);
  };
  visit(toLiquidHtmlAST(html));
  return found;
}

function viewerOf(html: string): Element {
  const viewers = elements(html).filter((e) => 'data-service-showcase' in e.attrs);
  expect(viewers).toHaveLength(1);
  return viewers[0];
}

describe('Shopify app block ar-viewer.liquid', () => {
  it('renders the widget container for the selected variant, with every SKU by variant id', async () => {
    const html = await render('ar-viewer', settings(), {
      product: { ...product, selected_or_first_available_variant: product.variants[1] },
    });
    const viewer = viewerOf(html);

    expect(viewer.attrs['data-service-showcase']).toBe('shw_abc123');
    expect(viewer.attrs['data-service-sku']).toBe(`DUNES-50x70-OAK'&"<>`);
    expect(viewer.attrs['data-service-lang']).toBe('de');
    expect(viewer.attrs.style).toMatch(/height: 520px/);
    // Keys are the variant ids as strings; the variant without a SKU has no entry (nothing to look up).
    expect(JSON.parse(viewer.attrs['data-service-variants'])).toEqual({ '44001': 'DUNES-A3', '44002': `DUNES-50x70-OAK'&"<>` });
    // Nothing the SKU carried escaped the attribute: the raw output holds no bare quote or angle bracket from it.
    expect(html).not.toContain(`OAK'&"<>`);

    const scripts = elements(html).filter((e) => e.name === 'script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].attrs.src).toBe('https://ar.example.com/api/v1/widget.js'); // the trailing slash dropped
    expect('defer' in scripts[0].attrs).toBe(true);
  });

  it('follows the first available variant when none is selected, and a merchant SKU overrides it', async () => {
    const first = await render('ar-viewer', settings(), {
      product: { ...product, selected_or_first_available_variant: product.variants[0] },
    });
    expect(viewerOf(first).attrs['data-service-sku']).toBe('DUNES-A3');

    const fixed = await render('ar-viewer', settings({ sku: ' POSTER-1 ' }), {
      product: { ...product, selected_or_first_available_variant: product.variants[0] },
    });
    expect(viewerOf(fixed).attrs['data-service-sku']).toBe('POSTER-1');
  });

  it('leaves the SKU off for a selected variant without one, and still gives the map', async () => {
    const html = await render('ar-viewer', settings(), {
      product: { ...product, selected_or_first_available_variant: product.variants[2] },
    });
    const viewer = viewerOf(html);
    expect('data-service-sku' in viewer.attrs).toBe(false);
    expect(Object.keys(JSON.parse(viewer.attrs['data-service-variants']))).toEqual(['44001', '44002']);
  });

  it('renders on a page without a product from the merchant SKU, with an empty map', async () => {
    const viewer = viewerOf(await render('ar-viewer', settings({ sku: 'DUNES-A3' })));
    expect(viewer.attrs['data-service-sku']).toBe('DUNES-A3');
    expect(JSON.parse(viewer.attrs['data-service-variants'])).toEqual({});
  });

  it('shows no heading by default, and the default or merchant heading when asked, escaped', async () => {
    const page = { product: { ...product, selected_or_first_available_variant: product.variants[0] } };
    expect(elements(await render('ar-viewer', settings(), page)).filter((e) => e.name === 'p')).toEqual([]);
    const heading = elements(await render('ar-viewer', settings({ show_label: true }), page)).find((e) => e.name === 'p');
    expect(heading?.text).toBe('See it on your wall');
  });

  it('shows the heading when asked, the merchant text escaped', async () => {
    const html = await render('ar-viewer', settings({ show_label: true, label: 'Voir <chez vous> & "au mur"' }), {
      product: { ...product, selected_or_first_available_variant: product.variants[0] },
    });
    const heading = elements(html).find((e) => e.attrs.class === 'image-ar-block__label');
    expect(heading?.text).not.toContain('<chez');
    expect(decode(heading?.text ?? '')).toBe('Voir <chez vous> & "au mur"');
  });

  it('renders nothing without a showcase id or with a service URL that is not http(s)', async () => {
    const withProduct = { product: { ...product, selected_or_first_available_variant: product.variants[0] } };
    for (const over of [
      { showcase_id: '' },
      { showcase_id: '   ' },
      { service_url: '' },
      { service_url: 'javascript:alert(1)//' },
      { service_url: 'ar.example.com' },
    ]) {
      expect((await render('ar-viewer', settings(over), withProduct)).trim()).toBe('');
    }
  });

  it('clamps the height to what a page can hold', async () => {
    const withProduct = { product: { ...product, selected_or_first_available_variant: product.variants[0] } };
    expect(viewerOf(await render('ar-viewer', settings({ height: 5000 }), withProduct)).attrs.style).toMatch(/height: 1200px/);
    expect(viewerOf(await render('ar-viewer', settings({ height: 10 }), withProduct)).attrs.style).toMatch(/height: 200px/);
  });
});

describe('Shopify app embed ar-widget-embed.liquid', () => {
  it('loads the widget script once, deferred, from the service', async () => {
    const scripts = elements(await render('ar-widget-embed', { service_url: ' http://localhost:3000/ ' })).filter(
      (e) => e.name === 'script',
    );
    expect(scripts).toHaveLength(1);
    expect(scripts[0].attrs.src).toBe('http://localhost:3000/api/v1/widget.js');
    expect('defer' in scripts[0].attrs).toBe(true);
  });

  it('loads nothing until the service URL is an http(s) address', async () => {
    expect((await render('ar-widget-embed', { service_url: '' })).trim()).toBe('');
    expect((await render('ar-widget-embed', { service_url: 'data:text/javascript,alert(1)' })).trim()).toBe('');
  });
});

describe('Shopify extension files', () => {
  it('declares an app block (target section) and an app embed (target body) whose settings match Shopify’s setting schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validSetting = ajv.compile(JSON.parse(readFileSync(SETTING_SCHEMA, 'utf8')));
    const block = schemaOf('ar-viewer.liquid');
    const embed = schemaOf('ar-widget-embed.liquid');
    expect(block.target).toBe('section');
    expect(embed.target).toBe('body');
    for (const schema of [block, embed]) {
      expect(schema.name.length).toBeLessThanOrEqual(25); // the theme editor's limit on block names
      const ids = schema.settings.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const setting of schema.settings) {
        const ok = validSetting(setting);
        expect({ id: setting.id, errors: ok ? null : validSetting.errors }).toEqual({ id: setting.id, errors: null });
      }
    }
    expect(block.settings.map((s) => s.id)).toEqual(expect.arrayContaining(['service_url', 'showcase_id', 'height']));
  });

  it('names a theme extension in shopify.extension.toml', () => {
    const toml = readFileSync(join(EXT, 'shopify.extension.toml'), 'utf8');
    expect(toml).toMatch(/^type = "theme"$/m);
    expect(toml).toMatch(/^name = "image-ar"$/m);
  });

  it('passes Shopify theme-check with no offense (npm run lint:shopify), and the check does fail a broken block', () => {
    const clean = spawnSync(process.execPath, [join(ROOT, 'scripts/theme-check.mjs')], { encoding: 'utf8' });
    expect(clean.stderr).toBe('');
    expect(clean.stdout).toMatch(/theme-check \(app, \d+ checks\): 3 files, 0 offenses/);
    expect(clean.status).toBe(0);

    // The same files with a parser-blocking script and a missing translation: the linter must say so.
    const broken = mkdtempSync(join(tmpdir(), 'theme-check-'));
    try {
      cpSync(EXT, broken, { recursive: true });
      const file = join(broken, 'blocks/ar-viewer.liquid');
      const source = readFileSync(file, 'utf8');
      writeFileSync(
        file,
        source.replace('widget.js" defer>', 'widget.js">').replace("'image_ar.viewer.label' | t", "'image_ar.viewer.missing' | t"),
      );
      const run = spawnSync(process.execPath, [join(ROOT, 'scripts/theme-check.mjs'), broken], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('ParserBlockingScript');
      expect(run.stdout).toContain('TranslationKeyExists');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
