import type { Locale } from './locales';

/**
 * The value for `<html lang="…">` (a BCP 47 tag). Our locales are bare language codes, which are valid
 * tags as they are; going through this function keeps the pages from hard-coding `lang="en"` and gives
 * one place to add a script or region subtag should a catalogue ever need one (e.g. `zh-Hant`).
 *
 * @example
 * `<html lang="${htmlLang('ja')}">`; // '<html lang="ja">'
 */
export const htmlLang = (locale: Locale): string => locale;
