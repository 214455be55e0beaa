import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Liquid } from 'liquidjs';

/** The Shopify theme app extension's folder. */
export const SHOPIFY_EXTENSION = join(__dirname, '../../integrations/shopify/extensions/image-ar');

/**
 * liquidjs with what Shopify adds and the extension's blocks use: the {% schema %} tag (the theme editor's
 * JSON, never output) and the `t` filter reading the extension's locales/en.default.json.
 */
export function shopifyLiquid(): Liquid {
  const locale = JSON.parse(readFileSync(join(SHOPIFY_EXTENSION, 'locales/en.default.json'), 'utf8')) as Record<string, unknown>;
  const liquid = new Liquid({ root: join(SHOPIFY_EXTENSION, 'blocks'), extname: '.liquid', strictFilters: true });
  liquid.registerTag('schema', {
    parse(_token, remainTokens) {
      while (remainTokens.length) {
        const t = remainTokens.shift() as unknown as { name?: string };
        if (t.name === 'endschema') return;
      }
      throw new Error('{% schema %} without {% endschema %}');
    },
    *render() {
      return '';
    },
  });
  liquid.registerFilter('t', (key: string) => {
    const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], locale);
    if (typeof value !== 'string') throw new Error(`translation missing: ${key}`);
    return value;
  });
  return liquid;
}

/**
 * A block of the extension ('ar-viewer', 'ar-widget-embed') rendered as a shop would: its settings as
 * `block.settings`, the storefront's language, and whatever else the page has (`product`: {variants:
 * [{id, sku}], selected_or_first_available_variant}). Usable as the markup of a Shopify-like test page.
 */
export function renderShopifyBlock(
  file: 'ar-viewer' | 'ar-widget-embed',
  blockSettings: Record<string, unknown>,
  page: Record<string, unknown> = {},
  lang = 'en',
): Promise<string> {
  return shopifyLiquid().renderFile(file, {
    block: { settings: blockSettings, id: 'AbC123' },
    request: { locale: { iso_code: lang } },
    ...page,
  });
}
