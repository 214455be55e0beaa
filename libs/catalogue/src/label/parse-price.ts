/** A price read from free text: the amount as a plain decimal string ("1200", "1200.50") and an ISO 4217 code. */
export interface ParsedPrice {
  amount: string;
  currency: string;
}

const DOLLARS = ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'TWD'] as const;
const YEN_YUAN = ['JPY', 'CNY'] as const;
const KRONER = ['SEK', 'NOK', 'DKK', 'ISK'] as const;

/**
 * Currency marks a price may carry, and what each can mean. A string is one currency; a list means
 * the mark alone does not say which (a "$" is as Canadian as it is American): the showcase's currency
 * settles it when it is in the list, otherwise the price stays unread.
 */
const MARKS: Readonly<Record<string, string | readonly string[]>> = {
  '€': 'EUR',
  '£': 'GBP',
  '₹': 'INR',
  '₩': 'KRW',
  '₺': 'TRY',
  '₪': 'ILS',
  '₽': 'RUB',
  '₫': 'VND',
  '₱': 'PHP',
  '฿': 'THB',
  円: 'JPY',
  元: 'CNY',
  zł: 'PLN',
  Kč: 'CZK',
  Ft: 'HUF',
  US$: 'USD',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  MX$: 'MXN',
  R$: 'BRL',
  $: DOLLARS,
  '¥': YEN_YUAN,
  '￥': YEN_YUAN,
  kr: KRONER,
  'kr.': KRONER,
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so "US$" is read as one mark and not as "US" and "$".
const MARK = `(?:${Object.keys(MARKS)
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|')}|[A-Z]{3})`;
// Digits with grouping or decimal marks between them, ending in a digit or in the ",-" / ",–" German
// catalogues write for "no cents".
const NUMBER = `\\d(?:[\\d.,' ’]*\\d)?(?:[.,][-–—])?`;
const PRICE = new RegExp(`^(?:(${MARK}) ?)?(${NUMBER})(?: ?(${MARK}))?$`);

let isoCodes: ReadonlySet<string> | undefined;
/** ISO 4217 codes the runtime knows: "EUR" is a currency, "POA" and "TBC" are not. */
const isCurrency = (code: string): boolean => (isoCodes ??= new Set(Intl.supportedValuesOf('currency'))).has(code);

/** What one mark says, given the code the text or the showcase settles ambiguities with. */
function currencyOf(mark: string, hint: string | undefined): string | undefined {
  const meaning = MARKS[mark];
  if (meaning === undefined) return isCurrency(mark) ? mark : undefined;
  if (typeof meaning === 'string') return meaning;
  return hint && meaning.includes(hint) ? hint : undefined;
}

/**
 * The amount as a plain decimal, or undefined when the marks leave it open. Decides which mark is the
 * decimal one: with both "." and "," the last is; a mark used more than once groups thousands; a single
 * mark followed by exactly three digits groups thousands ("1.200 €", "$1,200": art is not priced to a
 * tenth of a cent), by one or two digits is the decimal mark ("12,50"). Groups must be three digits.
 */
function amountOf(raw: string): string | undefined {
  const s = raw.replace(/[.,][-–—]$/, '');
  const tail = /[.,](\d+)$/.exec(s);
  let integer = s;
  let fraction = '';
  if (tail) {
    const mark = tail[0][0]!;
    const before = s.slice(0, -tail[0].length);
    const grouping = before.includes(mark) || (!/[^\d]/.test(before) && tail[1]!.length === 3);
    if (!grouping) {
      if (tail[1]!.length > 2) return undefined;
      integer = before;
      fraction = tail[1]!;
    }
  }
  const groupMarks = new Set(integer.replace(/\d/g, ''));
  if (groupMarks.size > 1) return undefined;
  if (groupMarks.size === 1) {
    const g = escapeRe([...groupMarks][0]!);
    // A leading zero before a group ("0.500") is no way to write a thousand: unread.
    if (!new RegExp(`^[1-9]\\d{0,2}(?:${g}\\d{3})+$`).test(integer)) return undefined;
  }
  const digits = integer.replace(/\D/g, '');
  return fraction ? `${digits}.${fraction}` : digits;
}

/**
 * Reads a price the gallery typed ("$1,200", "1.200 €", "EUR 1 200,50", "¥120,000", "120.000,- €") into an
 * amount and a currency, but only when that is unambiguous: anything else in the text ("from", "POA",
 * "incl. VAT", a range), a mark that could be several currencies without `currency` to settle it, marks
 * that disagree, or digits that could be read two ways give undefined, and the caller shows the text as
 * written. `currency` (the showcase's ISO code) fills in a price with no mark and settles "$", "¥" and
 * "kr"; it never overrides an explicit mark ("€ 900" in a USD showcase is EUR).
 *
 * @example
 * parsePrice('$1,200', 'USD'); // { amount: '1200', currency: 'USD' }
 * parsePrice('$1,200'); // undefined: US, Canadian, Australian…?
 * parsePrice('1.200,50 €'); // { amount: '1200.50', currency: 'EUR' }
 * parsePrice('CHF 3’000'); // { amount: '3000', currency: 'CHF' }
 * parsePrice('Price on request', 'EUR'); // undefined
 */
export function parsePrice(text: string, currency?: string): ParsedPrice | undefined {
  const hint = currency?.trim().toUpperCase();
  const fallback = hint && isCurrency(hint) ? hint : undefined;
  // No-break, narrow and thin spaces group thousands in French and Swiss prices: one ordinary space will do.
  const s = text.replace(/[\s\u00a0\u202f\u2009\u2007]+/g, ' ').trim();
  const m = PRICE.exec(s);
  if (!m) return undefined;
  const [, before, number, after] = m;
  const marks = [before, after].filter((x): x is string => x !== undefined);
  // "$1,200 USD": a code in the text settles a symbol beside it, before the showcase's currency does.
  const settle = marks.find(isCurrency) ?? fallback;
  const read = marks.map((mark) => currencyOf(mark, settle));
  // Two marks that disagree (or one that means nothing) settle nothing.
  const found = marks.length ? (read.every((c) => c && c === read[0]) ? read[0] : undefined) : fallback;
  const amount = amountOf(number!);
  return found && amount ? { amount, currency: found } : undefined;
}
