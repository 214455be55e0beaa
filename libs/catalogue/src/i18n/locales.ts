/**
 * The locales the public pages speak. Plain ISO 639-1 language codes, no regions: a gallery in Vienna and
 * one in Berlin label a work the same way, and every region of a language gets the same catalogue.
 */
export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'ja'] as const;

/** One of {@link SUPPORTED_LOCALES}. */
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** What a page speaks when nothing better is known: the language the pages were written in. */
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * Whether a string is exactly one of the supported codes (lower case, no region). Use
 * {@link resolveLocale} for anything a visitor or an owner typed.
 *
 * @example
 * isLocale('de'); // true
 * isLocale('de-DE'); // false
 */
export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(v);
