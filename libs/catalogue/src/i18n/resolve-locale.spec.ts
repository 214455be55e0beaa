import { htmlLang } from './html-lang';
import { isLocale, SUPPORTED_LOCALES } from './locales';
import { resolveLocale } from './resolve-locale';

describe('resolveLocale', () => {
  it.each([
    ['de', 'de'],
    ['de-DE', 'de'],
    ['de-AT', 'de'],
    ['DE', 'de'],
    ['de_DE', 'de'],
    [' fr-CA ', 'fr'],
    ['ja-JP', 'ja'],
    ['JA-jp', 'ja'],
    ['es-419', 'es'],
    ['nl-BE', 'nl'],
    ['it', 'it'],
    ['en-GB', 'en'],
  ] as const)('reads %p as %p', (input, expected) => {
    expect(resolveLocale(input, 'en')).toBe(expected);
  });

  it.each([undefined, '', '   ', 'sv', 'pt-BR', 'zh-Hant-TW', '*', 'deu', 'd', 'x-klingon', '-de'])(
    'gives the fallback for %p',
    (input) => {
      expect(resolveLocale(input, 'fr')).toBe('fr');
    },
  );

  it('falls back to English when no fallback is given', () => {
    expect(resolveLocale('sv')).toBe('en');
  });

  it('reads an Accept-Language header: highest q first, ties in order, q=0 refused', () => {
    expect(resolveLocale('pt-BR,fr;q=0.8,de;q=0.9', 'en')).toBe('de');
    expect(resolveLocale('sv, nl, de', 'en')).toBe('nl');
    expect(resolveLocale('ja;q=0, it;q=0.1', 'en')).toBe('it');
    expect(resolveLocale('ja;q=0', 'en')).toBe('en');
    expect(resolveLocale('de;q=nonsense, fr;q=0.5', 'en')).toBe('fr');
    expect(resolveLocale('*;q=0.5, es;Q=0.4', 'en')).toBe('es');
  });
});

describe('htmlLang and isLocale', () => {
  it('gives each locale’s BCP 47 tag', () => {
    expect(SUPPORTED_LOCALES.map(htmlLang)).toEqual(['en', 'de', 'fr', 'es', 'it', 'nl', 'ja']);
  });

  it('accepts only the exact codes', () => {
    expect(isLocale('ja')).toBe(true);
    expect(isLocale('ja-JP')).toBe(false);
    expect(isLocale('JA')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
