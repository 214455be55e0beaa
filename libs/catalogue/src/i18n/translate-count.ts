import type { MessageParams } from './interpolate';
import type { Locale } from './locales';
import type { MessageKey } from './messages/catalogues';
import { t } from './translate';

/** Keys that come as a plural pair, `<base>.one` and `<base>.other`: their common base. */
export type CountedMessage = MessageKey extends infer K ? (K extends `${infer Base}.one` ? Base : never) : never;

/**
 * A counted message: "1 size", "3 sizes". The form comes from `Intl.PluralRules(locale)`, because the
 * rule is not "n === 1" everywhere (French says "0 format", "1,5 format"; Japanese has a single form).
 * Our catalogues hold `one` and `other`; other categories a language has (French "many" for millions)
 * read `other`. `n` is also available as `{n}`, formatted for the locale.
 *
 * @example
 * translateCount('en', 'count.sizes', 1); // '1 size'
 * translateCount('en', 'count.sizes', 3); // '3 sizes'
 * translateCount('fr', 'count.sizes', 0); // '0 format'
 */
export function translateCount(locale: Locale, base: CountedMessage, n: number, params?: MessageParams): string {
  const form = new Intl.PluralRules(locale).select(n) === 'one' ? 'one' : 'other';
  return t(locale, `${base}.${form}` as MessageKey, { ...params, n });
}
