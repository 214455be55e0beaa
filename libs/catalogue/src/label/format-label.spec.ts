import type { LabelItem } from './label-item';
import { formatLabel } from './format-label';
import { describeAvailability } from './describe-availability';

const cradle: LabelItem = {
  artist: ' Berthe Morisot ',
  title: 'The Cradle',
  year: '1872',
  medium: 'Oil on canvas',
  width_inches: 25.6,
  height_inches: 21.7,
  availability: 'available',
  price: '$1,200',
};

describe('formatLabel', () => {
  it('gives every part, trimmed, and the headline in gallery order with the title in italics', () => {
    expect(formatLabel(cradle, { units: 'cm', locale: 'en' })).toEqual({
      artist: 'Berthe Morisot',
      title: 'The Cradle',
      year: '1872',
      medium: 'Oil on canvas',
      dimensions: '55.1 × 65 cm (21.7 × 25.6 in)',
      price: '$1,200',
      availability: { kind: 'available', text: 'Available', sold: false },
      headline: [
        { text: 'Berthe Morisot', italic: false },
        { text: ', ', italic: false },
        { text: 'The Cradle', italic: true },
        { text: ', ', italic: false },
        { text: '1872', italic: false },
      ],
    });
  });

  it('leaves out what the item does not have, in the parts and in the headline', () => {
    const label = formatLabel({ title: 'Untitled', year: '  ', medium: '' }, { units: 'in', locale: 'en' });
    expect(label).toEqual({
      title: 'Untitled',
      availability: { kind: 'available', text: 'Available', sold: false },
      headline: [{ text: 'Untitled', italic: true }],
    });
    expect(formatLabel({ artist: 'Anonymous', year: 'c. 1890' }, { units: 'in', locale: 'en' }).headline).toEqual([
      { text: 'Anonymous', italic: false },
      { text: ', ', italic: false },
      { text: 'c. 1890', italic: false },
    ]);
    expect(formatLabel({}, { units: 'in', locale: 'en' }).headline).toEqual([]);
  });

  it('leaves the size out when it is missing or not a positive number, instead of throwing', () => {
    expect(formatLabel({ width_inches: 10 }, { units: 'in', locale: 'en' }).dimensions).toBeUndefined();
    expect(formatLabel({ width_inches: 10, height_inches: 0 }, { units: 'in', locale: 'en' }).dimensions).toBeUndefined();
    expect(formatLabel({ width_inches: 10, height_inches: null }, { units: 'in', locale: 'en' }).dimensions).toBeUndefined();
  });

  it('includes the depth', () => {
    expect(formatLabel({ width_inches: 12, height_inches: 20, depth_inches: 1.5 }, { units: 'in', locale: 'de' }).dimensions).toBe(
      '20 × 12 × 1,5 in (50,8 × 30,5 × 3,8 cm)',
    );
  });

  it('words a bare copy number for the locale and keeps any other edition text as written', () => {
    expect(formatLabel({ edition: '3/25' }, { units: 'in', locale: 'en' }).edition).toBe('Edition 3/25');
    expect(formatLabel({ edition: '3 / 25' }, { units: 'in', locale: 'de' }).edition).toBe('Exemplar 3/25');
    expect(formatLabel({ edition: '3/25' }, { units: 'in', locale: 'ja' }).edition).toBe('エディション 3/25');
    expect(formatLabel({ edition: 'Edition of 25 + 2 AP' }, { units: 'in', locale: 'fr' }).edition).toBe('Edition of 25 + 2 AP');
  });

  it('localises availability and marks only sold works as sold', () => {
    const of = (availability: LabelItem['availability'], locale: 'en' | 'de' | 'fr' | 'ja') =>
      formatLabel({ availability }, { units: 'cm', locale }).availability;
    expect(of('sold', 'en')).toEqual({ kind: 'sold', text: 'Sold', sold: true });
    expect(of('reserved', 'en')).toEqual({ kind: 'reserved', text: 'Reserved', sold: false });
    expect(of('not_for_sale', 'en')).toEqual({ kind: 'not_for_sale', text: 'Not for sale', sold: false });
    expect(of('sold', 'de')).toEqual({ kind: 'sold', text: 'Verkauft', sold: true });
    expect(of('reserved', 'fr')).toEqual({ kind: 'reserved', text: 'Réservé', sold: false });
    expect(of('sold', 'ja')).toEqual({ kind: 'sold', text: '売約済', sold: true });
    expect(of('not_for_sale', 'ja')).toEqual({ kind: 'not_for_sale', text: '非売品', sold: false });
    expect(of(undefined, 'en')).toEqual({ kind: 'available', text: 'Available', sold: false });
    expect(of(null, 'de')).toEqual({ kind: 'available', text: 'Verfügbar', sold: false });
  });

  it('reads an availability it does not know (stored JSON) as available', () => {
    expect(describeAvailability('on_loan', 'en')).toEqual({ kind: 'available', text: 'Available', sold: false });
  });

  it('shows the price for available and reserved works only', () => {
    const price = (availability: LabelItem['availability']) =>
      formatLabel({ ...cradle, availability }, { units: 'in', locale: 'en' }).price;
    expect(price('available')).toBe('$1,200');
    expect(price('reserved')).toBe('$1,200');
    expect(price('sold')).toBeUndefined();
    expect(price('not_for_sale')).toBeUndefined();
  });

  it('sets a Japanese title in 《》, not italics, without commas beside the brackets', () => {
    const label = formatLabel({ artist: '葛飾北斎', title: '神奈川沖浪裏', year: '1831年頃' }, { units: 'cm', locale: 'ja' });
    expect(label.title).toBe('神奈川沖浪裏');
    expect(label.headline).toEqual([
      { text: '葛飾北斎', italic: false },
      { text: '《神奈川沖浪裏》', italic: false },
      { text: '1831年頃', italic: false },
    ]);
    expect(formatLabel({ artist: '作者不詳', year: '江戸時代' }, { units: 'cm', locale: 'ja' }).headline).toEqual([
      { text: '作者不詳', italic: false },
      { text: '、', italic: false },
      { text: '江戸時代', italic: false },
    ]);
  });
});
