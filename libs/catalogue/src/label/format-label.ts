import { t, type Locale } from '../i18n';
import { describeAvailability, type LabelAvailability } from './describe-availability';
import { formatDimensions } from './size-format';
import type { LabelItem, LengthUnit } from './label-item';

/** A stretch of the label's headline; `italic` runs are the work's title (render as `<i>` or `<cite>`). */
export interface LabelRun {
  text: string;
  italic: boolean;
}

/**
 * A wall label in parts, for the page to lay out: each part plain text (HTML-escape it), absent when the
 * item has nothing for it. `title` is the bare title; `headline` is the first line in gallery order
 * (Artist, *Title*, year) with the title marked for italics, so pages need not know the convention.
 */
export interface ArtworkLabel {
  artist?: string;
  title?: string;
  year?: string;
  medium?: string;
  dimensions?: string;
  edition?: string;
  /** Left out for sold and not-for-sale works: galleries do not publish what a sold work fetched. */
  price?: string;
  availability: LabelAvailability;
  headline: LabelRun[];
}

export interface LabelFormatOptions {
  units: LengthUnit;
  locale: Locale;
}

/**
 * How a headline is punctuated. Western labels italicise the title between commas. Japanese has no
 * italics: titles of works stand in double angle brackets 《》 (the museum convention), which also
 * delimit them, so no comma is needed next to them; the comma is the ideographic 、.
 */
interface HeadlineStyle {
  separator: string;
  open: string;
  close: string;
  italic: boolean;
}
const WESTERN: HeadlineStyle = { separator: ', ', open: '', close: '', italic: true };
const JAPANESE: HeadlineStyle = { separator: '、', open: '《', close: '》', italic: false };

const text = (v: string | null | undefined): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A bare copy number such as "3/25" or "3 / 25": the locale's word for a numbered copy goes in front. */
const COPY_NUMBER = /^(\d+)\s*\/\s*(\d+)$/;

function headline(artist: string | undefined, title: string | undefined, year: string | undefined, style: HeadlineStyle): LabelRun[] {
  const runs: LabelRun[] = [];
  let previousWasTitle = false;
  const push = (part: string, isTitle: boolean) => {
    // Brackets already set the title off; a separator next to them would double the punctuation.
    if (runs.length && !((isTitle || previousWasTitle) && style.open)) runs.push({ text: style.separator, italic: false });
    runs.push(isTitle ? { text: `${style.open}${part}${style.close}`, italic: style.italic } : { text: part, italic: false });
    previousWasTitle = isTitle;
  };
  if (artist) push(artist, false);
  if (title) push(title, true);
  if (year) push(year, false);
  return runs;
}

/**
 * A work's wall label, localised: trimmed text parts, the size in both units ({@link formatDimensions},
 * left out when the item has no valid size), a bare copy number worded for the locale ("3/25" becomes
 * "Edition 3/25", "Exemplar 3/25"; any other edition text is the gallery's own and stays as written),
 * the availability in words, and the headline in gallery order.
 *
 * @example
 * formatLabel(
 *   { artist: 'Berthe Morisot', title: 'The Cradle', year: '1872', width_inches: 25.6, height_inches: 21.7, availability: 'sold', price: '$1,200' },
 *   { units: 'cm', locale: 'en' },
 * );
 * // { artist: 'Berthe Morisot', title: 'The Cradle', year: '1872', dimensions: '55.1 × 65 cm (21.7 × 25.6 in)',
 * //   availability: { kind: 'sold', text: 'Sold', sold: true },
 * //   headline: [{ text: 'Berthe Morisot', italic: false }, { text: ', ', italic: false }, { text: 'The Cradle', italic: true },
 * //              { text: ', ', italic: false }, { text: '1872', italic: false }] }
 */
export function formatLabel(item: LabelItem, opts: LabelFormatOptions): ArtworkLabel {
  const availability = describeAvailability(item.availability, opts.locale);
  const artist = text(item.artist);
  const title = text(item.title);
  const year = text(item.year);
  const label: ArtworkLabel = {
    availability,
    headline: headline(artist, title, year, opts.locale === 'ja' ? JAPANESE : WESTERN),
  };
  if (artist) label.artist = artist;
  if (title) label.title = title;
  if (year) label.year = year;
  const medium = text(item.medium);
  if (medium) label.medium = medium;
  const w = item.width_inches;
  const h = item.height_inches;
  if (typeof w === 'number' && typeof h === 'number' && w > 0 && h > 0 && Number.isFinite(w) && Number.isFinite(h)) {
    label.dimensions = formatDimensions({ widthInches: w, heightInches: h, depthInches: item.depth_inches }, opts);
  }
  const edition = text(item.edition);
  if (edition) {
    const copy = COPY_NUMBER.exec(edition);
    label.edition = copy ? t(opts.locale, 'label.edition', { edition: `${copy[1]}/${copy[2]}` }) : edition;
  }
  const price = text(item.price);
  if (price && availability.kind !== 'sold' && availability.kind !== 'not_for_sale') label.price = price;
  return label;
}
