import { interpolate, type MessageParams } from './interpolate';
import { DEFAULT_LOCALE, type Locale } from './locales';
import { CATALOGUES, type MessageKey } from './messages/catalogues';

/**
 * The message `key` in `locale`, placeholders filled ({@link interpolate}: numbers formatted for the
 * locale, a missing value left as `{name}`). Plain text: HTML-escape it where it goes into a page.
 * An unknown locale (from untyped code) reads English rather than throwing on a public page.
 *
 * @example
 * t('de', 'ar.viewInYourSpace'); // 'In Ihrem Raum ansehen'
 * t('fr', 'price.from', { price: '1 200 €' }); // 'à partir de 1 200 €'
 * t('ja', 'availability.sold'); // '売約済'
 */
export function t(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const catalogue = CATALOGUES[locale] ?? CATALOGUES[DEFAULT_LOCALE];
  return interpolate(catalogue[key] ?? CATALOGUES[DEFAULT_LOCALE][key] ?? key, params, locale);
}
