import { formatDimensions, formatLength, resolveLocale, t, type LengthUnit, type Locale } from '@app/catalogue';

/**
 * What a public page speaks and measures in: the language of every visible string (the message
 * catalogues of libs/catalogue), the unit sizes are stated in first, and the `?lang=` to carry on links.
 */
export interface PageLocale {
  locale: Locale;
  units: LengthUnit;
  /** The visitor's valid `?lang=`: links to the other public pages carry it (absent: the page's own language). */
  lang?: Locale;
}

/** Pages without a showcase (v1 embeds) and unit tests: English, inches, as the pages always were. */
export const DEFAULT_PAGE_LOCALE: PageLocale = { locale: 'en', units: 'in' };

/** A language tag as `?lang=` takes it ("de", "de-AT", "pt_BR"): not a list, no weights. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

/**
 * The supported locale a `?lang=` names, or undefined when it names none (absent, repeated, a list, an
 * unsupported language): resolveLocale's answer when it does not depend on the fallback.
 */
export function askedLocale(lang: unknown): Locale | undefined {
  if (typeof lang !== 'string' || lang.length > 35 || !LANGUAGE_TAG.test(lang.trim())) return undefined;
  const a = resolveLocale(lang, 'en');
  return a === resolveLocale(lang, 'ja') ? a : undefined;
}

/**
 * The page's language: a valid `?lang=` wins (and is carried on links), else the showcase's own locale,
 * else English. Units are the showcase's (inches where there is none).
 *
 * @example
 * pageLocale('fr', 'de', 'cm'); // { locale: 'fr', units: 'cm', lang: 'fr' }
 * pageLocale('xx', 'de', 'cm'); // { locale: 'de', units: 'cm' }
 */
export function pageLocale(lang: unknown, own: string | null | undefined, units: LengthUnit = 'in'): PageLocale {
  const asked = askedLocale(lang);
  return asked ? { locale: asked, units, lang: asked } : { locale: resolveLocale(own ?? undefined, 'en'), units };
}

/** `url` with `?lang=` (or `&lang=`) before any fragment, when the visitor chose a language. */
export function withLang(url: string, lang: Locale | undefined): string {
  if (!lang) return url;
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}lang=${lang}${fragment}`;
}

const formatters = new Map<string, Intl.NumberFormat>();
/** A number in the locale's notation with at most `digits` decimals (formatters cached: a page formats many). */
export function num(locale: Locale, v: number, digits: number): string {
  const key = `${locale}:${digits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(v);
}

/** Where a page's size says only its unit and where both: the same numbers either way (formatDimensions). */
const opts = (loc: PageLocale, oneUnit: boolean) => ({ units: loc.units, locale: loc.locale, oneUnit });

/** A length in the page's unit: "2 in", "5,1 cm" (formatLength: one decimal, as every size). */
export function length(inches: number, loc: PageLocale): string {
  return formatLength(inches, opts(loc, true));
}

/**
 * A size in the page's unit alone, as galleries write it (height × width; libs/catalogue formatDimensions, the
 * one formatter of every surface): "36 × 24 in" for a 24 in wide picture, "91,4 × 61 cm". Where a line has
 * room for one unit: the cards, badges, the label on a photo, the variant selector.
 */
export function plainSize(w: number, h: number, loc: PageLocale, depth?: number | null): string {
  return formatDimensions({ widthInches: w, heightInches: h, depthInches: depth }, opts(loc, true));
}

/** The same size in both units, the page's first: "36 × 24 in (91,4 × 61 cm)", "91,4 × 61 cm (36 × 24 in)". */
export function plainSizeBoth(w: number, h: number, loc: PageLocale, depth?: number | null): string {
  return formatDimensions({ widthInches: w, heightInches: h, depthInches: depth }, opts(loc, false));
}

/**
 * The picture's size and its framed (outer) size, labelled as such (size.withFramed: "36 × 24 in, 40 × 28 in
 * framed"; "60 × 80 cm, gerahmt 67,6 × 87,6 × 3,2 cm"), or the picture's alone: the one way every page
 * states both.
 */
export function framedSize(picture: string, framed: string | undefined, loc: PageLocale): string {
  return framed ? t(loc.locale, 'size.withFramed', { picture, framed }) : picture;
}
