import { DEFAULT_LOCALE, isLocale, type Locale } from './locales';

/**
 * The supported locale for a language tag, a sloppy spelling of one, or an `Accept-Language` header:
 * only the primary language subtag counts (`de-AT`, `DE`, `de_DE` are all `de`), because the catalogues
 * are per language. In a header the highest `q` wins, ties in the order given; `q=0` means "not this".
 * Anything unsupported, empty or absent gives `fallback`.
 *
 * @example
 * resolveLocale('de-DE', 'en'); // 'de'
 * resolveLocale('JA-jp', 'en'); // 'ja'
 * resolveLocale('pt-BR,fr;q=0.8,de;q=0.9', 'en'); // 'de'
 * resolveLocale('sv', 'fr'); // 'fr'
 * resolveLocale(undefined, 'en'); // 'en'
 */
export function resolveLocale(input: string | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  if (!input) return fallback;
  const candidates = input
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=(.*)$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q.trim() || NaN), order };
    })
    // A malformed q reads as NaN: drop the entry rather than guess its weight.
    .filter((c) => c.tag && c.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const c of candidates) {
    const primary = c.tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(primary)) return primary;
  }
  return fallback;
}
