import { createHash } from 'node:crypto';
import { CATALOGUES, SUPPORTED_LOCALES, type Locale, type MessageKey } from '@app/catalogue';
import type { StaticAsset } from '../http/static-asset';

/** The widget's message names (apps/api/assets/widget.js) and the catalogue keys they come from. */
const WIDGET_KEYS = {
  submitting: 'widget.submitting',
  waiting: 'widget.waiting',
  converting: 'widget.converting',
  error: 'widget.error',
  conversionFailed: 'widget.conversionFailed',
  viewerTitle: 'widget.viewerTitle',
} as const satisfies Record<string, MessageKey>;

/** The table in widget.js that the service fills: `/*messages*\/ {…}; /*end messages*\/` (the `;` as prettier puts it). */
const TABLE = /\/\*messages\*\/\s*\{[\s\S]*?\}\s*;?\s*\/\*end messages\*\//;

/** Every locale's widget messages, as the widget reads them: `{ en: { submitting: 'Submitting', … }, de: … }`. */
export function widgetMessages(): Record<Locale, Record<keyof typeof WIDGET_KEYS, string>> {
  const out = {} as Record<Locale, Record<keyof typeof WIDGET_KEYS, string>>;
  for (const locale of SUPPORTED_LOCALES) {
    out[locale] = Object.fromEntries(Object.entries(WIDGET_KEYS).map(([name, key]) => [name, CATALOGUES[locale][key]])) as Record<
      keyof typeof WIDGET_KEYS,
      string
    >;
  }
  return out;
}

/**
 * The widget as served: its source with the message table replaced by every locale's catalogue, so the
 * one file speaks all seven languages and its strings have one source, libs/catalogue. Throws when the
 * source has no table (a broken build must not ship an English-only widget silently).
 */
export function widgetScript(source: string): string {
  if (!TABLE.test(source)) throw new Error('widget.js: no /*messages*/ … /*end messages*/ table to fill');
  return source.replace(TABLE, () => `/*messages*/ ${JSON.stringify(widgetMessages())}; /*end messages*/`);
}

/** The served widget with an ETag of the served bytes. */
export function widgetAsset(source: string): StaticAsset {
  return servedAsset(Buffer.from(widgetScript(source)));
}

/** Bytes as served, with their ETag. */
export function servedAsset(body: Buffer): StaticAsset {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 24)}"` };
}

/**
 * Where `npm run build` writes the widget as served, minified (scripts/build.js: widgetScript, then esbuild; the
 * source's comments and names are half its gzipped weight, and it is on every product page of a shop).
 */
export const BUILT_WIDGET = 'dist/widget/widget.js';
