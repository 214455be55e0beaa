import { inchesToCm } from './convert-length';
import { describeAvailability } from './describe-availability';
import type { AvailabilityKind, LabelItem, LengthUnit } from './label-item';
import { parsePrice } from './parse-price';
import { roundDecimal } from './round-decimal';

/** A schema.org `QuantitativeValue`; `unitCode` is UN/CEFACT Common Code (INH inch, CMT centimetre). */
export interface QuantitativeValueJsonLd {
  '@type': 'QuantitativeValue';
  value: number;
  unitCode: 'INH' | 'CMT';
  unitText: LengthUnit;
}

export interface PersonJsonLd {
  '@type': 'Person';
  name: string;
}

export interface OfferJsonLd {
  '@type': 'Offer';
  availability: string;
  url: string;
  /** A plain decimal ("1200.50"), schema.org's recommended form: no symbols, "." as decimal mark. */
  price?: string;
  priceCurrency?: string;
  /** The price as the gallery wrote it, when it could not be read unambiguously. */
  description?: string;
}

export interface VisualArtworkJsonLd {
  '@context': 'https://schema.org';
  '@type': 'VisualArtwork';
  url: string;
  image: string;
  name?: string;
  description?: string;
  creator?: PersonJsonLd;
  artist?: PersonJsonLd;
  dateCreated?: string;
  artMedium?: string;
  artEdition?: string;
  height?: QuantitativeValueJsonLd;
  width?: QuantitativeValueJsonLd;
  depth?: QuantitativeValueJsonLd;
  offers?: OfferJsonLd;
}

export interface VisualArtworkJsonLdOptions {
  /** The work's own public page (the item page). */
  url: string;
  /** The picture (the poster or the share image). */
  imageUrl: string;
  /** The showcase's ISO 4217 code: reads prices with no currency mark, or with "$", "¥", "kr". */
  currency?: string;
  /** The unit sizes are given in: the showcase's. */
  units: LengthUnit;
}

/**
 * schema.org ItemAvailability per kind. `not_for_sale` has none: there is no offer to describe, and
 * every candidate says something false (Discontinued: the line was dropped; OutOfStock: more may come).
 */
const OFFER_AVAILABILITY: Readonly<Record<Exclude<AvailabilityKind, 'not_for_sale'>, string>> = {
  available: 'https://schema.org/InStock',
  // schema.org has a value for exactly this: "reserved and therefore not available".
  reserved: 'https://schema.org/Reserved',
  sold: 'https://schema.org/SoldOut',
};

const text = (v: string | null | undefined): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const positive = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

function quantity(inches: number, units: LengthUnit): QuantitativeValueJsonLd {
  // Two decimals in either unit: 0.01 in is a quarter of a millimetre, and it drops the float noise of stored inches.
  return units === 'cm'
    ? { '@type': 'QuantitativeValue', value: inchesToCm(inches), unitCode: 'CMT', unitText: 'cm' }
    : { '@type': 'QuantitativeValue', value: roundDecimal(inches, 2), unitCode: 'INH', unitText: 'in' };
}

function offer(item: LabelItem, opts: VisualArtworkJsonLdOptions): OfferJsonLd | undefined {
  const { kind } = describeAvailability(item.availability, 'en');
  if (kind === 'not_for_sale') return undefined;
  const o: OfferJsonLd = { '@type': 'Offer', availability: OFFER_AVAILABILITY[kind], url: opts.url };
  const price = text(item.price);
  // As on the label: a sold work's price is not published (it would read as what it fetched).
  if (!price || kind === 'sold') return o;
  const parsed = parsePrice(price, opts.currency);
  // A number without a sure currency would state a wrong price: then the text as written, for people to read.
  if (parsed) Object.assign(o, { price: parsed.amount, priceCurrency: parsed.currency });
  else o.description = price;
  return o;
}

/**
 * The schema.org `VisualArtwork` for an item page's `<script type="application/ld+json">` (write it with
 * {@link jsonLdScript}): name, picture, page, the artist as a `Person` under both `creator` (what general
 * consumers such as search engines read) and `artist` (VisualArtwork's own property), `dateCreated` as
 * the gallery's free text ("c. 1890"), medium, edition, height / width / depth as `QuantitativeValue`s
 * in the showcase's unit, and an `Offer` (see OFFER_AVAILABILITY; none for not-for-sale works) whose
 * price is read by {@link parsePrice} or else kept as its `description`. Absent fields are left out,
 * never written as null or "".
 *
 * @example
 * visualArtworkJsonLd(
 *   { title: 'The Cradle', artist: 'Berthe Morisot', year: '1872', width_inches: 25.6, height_inches: 21.7, availability: 'available', price: '€ 1.200' },
 *   { url: 'https://x/showcase/s/items/1', imageUrl: 'https://x/files/poster.jpg', units: 'cm' },
 * );
 * // { '@context': 'https://schema.org', '@type': 'VisualArtwork', url: …, image: …, name: 'The Cradle',
 * //   creator: { '@type': 'Person', name: 'Berthe Morisot' }, artist: { … }, dateCreated: '1872',
 * //   height: { '@type': 'QuantitativeValue', value: 55.12, unitCode: 'CMT', unitText: 'cm' }, width: { … value: 65.02 … },
 * //   offers: { '@type': 'Offer', availability: 'https://schema.org/InStock', url: …, price: '1200', priceCurrency: 'EUR' } }
 */
export function visualArtworkJsonLd(item: LabelItem, opts: VisualArtworkJsonLdOptions): VisualArtworkJsonLd {
  const ld: VisualArtworkJsonLd = { '@context': 'https://schema.org', '@type': 'VisualArtwork', url: opts.url, image: opts.imageUrl };
  const name = text(item.title);
  if (name) ld.name = name;
  const description = text(item.description);
  if (description) ld.description = description;
  const artist = text(item.artist);
  if (artist) {
    ld.creator = { '@type': 'Person', name: artist };
    ld.artist = { '@type': 'Person', name: artist };
  }
  const year = text(item.year);
  if (year) ld.dateCreated = year;
  const medium = text(item.medium);
  if (medium) ld.artMedium = medium;
  const edition = text(item.edition);
  if (edition) ld.artEdition = edition;
  if (positive(item.height_inches)) ld.height = quantity(item.height_inches, opts.units);
  if (positive(item.width_inches)) ld.width = quantity(item.width_inches, opts.units);
  if (positive(item.depth_inches)) ld.depth = quantity(item.depth_inches, opts.units);
  const offers = offer(item, opts);
  if (offers) ld.offers = offers;
  return ld;
}
