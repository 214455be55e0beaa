// Messages of the public pages in seven locales: catalogues, lookup, locale negotiation. Pure functions.
export { htmlLang } from './html-lang';
export { interpolate, type MessageParams } from './interpolate';
export { DEFAULT_LOCALE, isLocale, SUPPORTED_LOCALES, type Locale } from './locales';
export { CATALOGUES, type MessageKey } from './messages/catalogues';
export { resolveLocale } from './resolve-locale';
export { t } from './translate';
export { translateCount, type CountedMessage } from './translate-count';
