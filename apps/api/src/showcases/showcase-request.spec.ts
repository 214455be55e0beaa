import { decodeCursor, encodeCursor, parseLimit } from '../http/list-query';
import { parseShowcasePatch, type StoredShowcaseFields } from './showcase-request';

const stored: StoredShowcaseFields = {
  layout: 'dark', logoUrl: 'https://shop.example.com/logo.png', description: 'Spring',
  customLinks: [{ title: 'Shop', url: 'https://shop.example.com/' }], branding: { tagline: 'Art', primary_color: '#112233' },
  presentationDefaults: { frame: 'classic' },
};

const paramOf = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { param?: string }).param;
  }
};

describe('parseShowcasePatch', () => {
  it('keeps what is left out, replaces what is sent and clears what is null', () => {
    const out = parseShowcasePatch({ description: 'Summer', branding: { secondary_color: '#FFF' }, frame: null, logo_url: null }, stored);
    expect(out).toMatchObject({
      layout: 'dark', logoUrl: null, description: 'Summer', customLinks: stored.customLinks, branding: { secondary_color: '#fff' }, defaults: {},
    });
    expect(parseShowcasePatch({ layout_choice: null }, stored).layout).toBe('branded');
    expect(parseShowcasePatch({}, stored)).toMatchObject({ layout: 'dark', description: 'Spring', defaults: { frame: 'classic' } });
  });

  it('validates the result as a create would, and sends pictures to their own routes', () => {
    expect(paramOf(() => parseShowcasePatch({ image_urls: ['https://x.example/a.jpg'] }, stored))).toBe('image_urls');
    expect(paramOf(() => parseShowcasePatch({ items: [] }, stored))).toBe('items');
    expect(paramOf(() => parseShowcasePatch({ branding: { primary_color: 'red' } }, stored))).toBe('branding.primary_color');
    expect(paramOf(() => parseShowcasePatch({ custom_links: [{ title: 'x', url: 'javascript:alert(1)' }] }, stored))).toBe('custom_links[0].url');
    expect(paramOf(() => parseShowcasePatch({ title: 'x' }, stored))).toBe('title');
    expect(paramOf(() => parseShowcasePatch('x', stored))).toBeUndefined();
  });
});

describe('list cursors and limits', () => {
  it('round-trips a position and refuses anything it did not make', () => {
    const c = encodeCursor(['1764000000123456', 'v2_abc']);
    expect(decodeCursor(c, /^([0-9]+)\.([a-z0-9_]+)$/)).toEqual(['1764000000123456', 'v2_abc']);
    expect(decodeCursor(undefined, /x/)).toBeUndefined();
    for (const bad of ['%%%', encodeCursor(['1', "v2_'; drop"]), 'x'.repeat(201)]) expect(paramOf(() => decodeCursor(bad, /^([0-9]+)\.([a-z0-9_]+)$/))).toBe('cursor');
  });

  it('takes limits from 1 to the maximum', () => {
    expect(parseLimit(undefined, 20, 100)).toBe(20);
    expect(parseLimit('100', 20, 100)).toBe(100);
    for (const bad of ['0', '101', '1.5', '-1', 'ten']) expect(paramOf(() => parseLimit(bad, 20, 100))).toBe('limit');
  });
});
