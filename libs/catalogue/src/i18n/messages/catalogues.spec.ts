import { SUPPORTED_LOCALES, type Locale } from '../locales';
import { CATALOGUES, type MessageKey } from './catalogues';
import { en } from './en';

/**
 * Translations that are the English text by nature. Each entry is checked both ways: a value equal to
 * English must be listed here, and a listed value must still equal English (so the list cannot go stale).
 */
const SAME_AS_ENGLISH: Partial<Record<MessageKey, readonly Locale[]>> = {
  // The technology's name: every locale's AR UIs (Apple, Google) show the Latin letters.
  'ar.badge': ['de', 'fr', 'es', 'it', 'nl', 'ja'],
  // "Logo" is the word itself in German, French, Italian and Dutch.
  'page.logoAlt': ['de', 'fr', 'it', 'nl'],
  // "Links" is the everyday German and Dutch word for web links.
  'page.linksLabel': ['de', 'nl'],
  // A variant's default name is its size and frame with the comma those languages write too (Japanese: 、).
  'variant.name': ['de', 'fr', 'es', 'it', 'nl'],
};

const keys = Object.keys(en) as MessageKey[];
const others = SUPPORTED_LOCALES.filter((l) => l !== 'en');
const placeholders = (s: string) => [...s.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  it('has a catalogue for every supported locale, with exactly the English keys', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    for (const locale of SUPPORTED_LOCALES)
      expect({ locale, keys: Object.keys(CATALOGUES[locale]).sort() }).toEqual({ locale, keys: [...keys].sort() });
  });

  it.each(others)('%s translates every message (only the listed ones equal English)', (locale) => {
    const same = keys.filter((k) => CATALOGUES[locale][k] === en[k]);
    const allowed = keys.filter((k) => SAME_AS_ENGLISH[k]?.includes(locale));
    expect(same).toEqual(allowed);
  });

  it.each(SUPPORTED_LOCALES)('%s keeps every placeholder of the English message, and no other', (locale) => {
    for (const k of keys) expect({ k, p: placeholders(CATALOGUES[locale][k]) }).toEqual({ k, p: placeholders(en[k]) });
  });

  it.each(SUPPORTED_LOCALES)('%s has no empty, padded or three-dot values', (locale) => {
    for (const k of keys) {
      const v = CATALOGUES[locale][k];
      expect({ k, v: v.trim() === v && v.length > 0 }).toEqual({ k, v: true });
      // The ellipsis character, as in English: "..." would wrap apart and reads as typed by hand.
      expect({ k, v: v.includes('...') }).toEqual({ k, v: false });
    }
  });

  it('writes Japanese in Japanese script, not romaji', () => {
    const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
    // Messages with no words of their own (placeholders and punctuation: variant.name) have nothing to write.
    const words = (v: string) => /\p{L}/u.test(v.replace(/\{[A-Za-z0-9_]+\}/g, ''));
    for (const k of keys) {
      if (SAME_AS_ENGLISH[k]?.includes('ja') || !words(en[k])) continue;
      expect({ k, japanese: japanese.test(CATALOGUES.ja[k]) }).toEqual({ k, japanese: true });
    }
  });

  it('puts a no-break space before French colons and semicolons', () => {
    for (const k of keys) expect({ k, bad: /[^\u00a0][:;]/.test(CATALOGUES.fr[k]) }).toEqual({ k, bad: false });
    expect(CATALOGUES.fr['wall.caption']).toContain('\u00a0:');
  });
});
