import { interpolate } from './interpolate';
import type { Locale } from './locales';
import { t } from './translate';
import { translateCount } from './translate-count';

describe('t', () => {
  it('looks the message up in the locale', () => {
    expect(t('en', 'ar.viewInYourSpace')).toBe('View in your space');
    expect(t('de', 'ar.viewInYourSpace')).toBe('In Ihrem Raum ansehen');
    expect(t('ja', 'availability.sold')).toBe('売約済');
    expect(t('fr', 'availability.not_for_sale')).toBe('Hors vente');
  });

  it('fills placeholders', () => {
    expect(t('en', 'price.from', { price: '$1,200' })).toBe('from $1,200');
    expect(t('ja', 'price.from', { price: '¥120,000' })).toBe('¥120,000から');
    expect(t('fr', 'item.largerView', { title: 'Nymphéas' })).toBe('Nymphéas\u00a0: vue agrandie');
    expect(
      t('en', 'wall.caption', { size: '24 × 36 in (61 × 91 cm)', reference: t('en', 'wall.referenceSofa', { size: '84 in (213 cm)' }) }),
    ).toBe('Drawn to scale: the picture is 24 × 36 in (61 × 91 cm); next to it, a sofa 84 in (213 cm) wide.');
  });

  it('reads English for a locale it does not know (untyped callers) instead of throwing', () => {
    expect(t('sv' as Locale, 'item.buy')).toBe('Buy');
  });
});

describe('interpolate', () => {
  it('formats numbers for the locale and inserts text as given', () => {
    expect(interpolate('{n} sizes', { n: 1200 }, 'en')).toBe('1,200 sizes');
    expect(interpolate('{n} Größen', { n: 1200 }, 'de')).toBe('1.200 Größen');
    expect(interpolate('{a} & {b}', { a: '<b>', b: '1.5' }, 'de')).toBe('<b> & 1.5');
  });

  it('leaves a placeholder without a value visible, and any braces that are no placeholder', () => {
    expect(interpolate('from {price}', {}, 'en')).toBe('from {price}');
    expect(interpolate('from {price}', undefined, 'en')).toBe('from {price}');
    expect(interpolate('{not a name} {x}', { x: 'y' }, 'en')).toBe('{not a name} y');
  });

  it('does not read placeholders off the object prototype', () => {
    expect(interpolate('{toString}', {}, 'en')).toBe('{toString}');
  });

  it('does not expand placeholders inside inserted values', () => {
    expect(interpolate('{a}{b}', { a: '{b}', b: 'x' }, 'en')).toBe('{b}x');
  });
});

describe('translateCount', () => {
  it('picks the plural form by the locale’s rules', () => {
    expect(translateCount('en', 'count.sizes', 1)).toBe('1 size');
    expect(translateCount('en', 'count.sizes', 0)).toBe('0 sizes');
    expect(translateCount('en', 'count.sizes', 3)).toBe('3 sizes');
    expect(translateCount('de', 'count.sizes', 1)).toBe('1 Größe');
    expect(translateCount('de', 'count.sizes', 1000)).toBe('1.000 Größen');
    // French: zero is singular.
    expect(translateCount('fr', 'count.sizes', 0)).toBe('0 format');
    expect(translateCount('fr', 'count.sizes', 2)).toBe('2 formats');
    // French "many" (millions) has no form of its own here: it reads "other".
    expect(translateCount('fr', 'count.sizes', 1_000_000)).toBe('1\u202f000\u202f000 formats');
    expect(translateCount('ja', 'count.sizes', 1)).toBe('1サイズ');
    expect(translateCount('ja', 'count.sizes', 4)).toBe('4サイズ');
  });
});
