import { t, type Locale } from '../i18n';
import { AVAILABILITY_KINDS, type AvailabilityKind } from './label-item';

/** A work's availability for a label: the kind, its text in the locale, and whether to show the sold mark. */
export interface LabelAvailability {
  kind: AvailabilityKind;
  text: string;
  /** True only for `sold`: the page's red dot (galleries mark sold works, not reserved ones, with it). */
  sold: boolean;
}

/**
 * The availability to show. An item without one (or with a value this version does not know, from
 * stored JSON) reads `available`: a work listed in a showcase is on offer unless the gallery says
 * otherwise, and a label must always say something about availability.
 *
 * @example
 * describeAvailability('sold', 'de'); // { kind: 'sold', text: 'Verkauft', sold: true }
 * describeAvailability(undefined, 'ja'); // { kind: 'available', text: '販売中', sold: false }
 */
export function describeAvailability(value: AvailabilityKind | string | null | undefined, locale: Locale): LabelAvailability {
  const kind: AvailabilityKind = (AVAILABILITY_KINDS as readonly string[]).includes(value ?? '')
    ? (value as AvailabilityKind)
    : 'available';
  return { kind, text: t(locale, `availability.${kind}`), sold: kind === 'sold' };
}
