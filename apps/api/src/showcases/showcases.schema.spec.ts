import { parseShowcasePatch, type StoredShowcaseFields } from './showcases.schema';

const stored: StoredShowcaseFields = {
  layout: 'dark',
  logoUrl: 'https://shop.example.com/logo.png',
  description: 'Spring',
  customLinks: [{ title: 'Shop', url: 'https://shop.example.com/' }],
  branding: { tagline: 'Art', primary_color: '#112233' },
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
      layout: 'dark',
      logoUrl: null,
      description: 'Summer',
      customLinks: stored.customLinks,
      branding: { secondary_color: '#fff' },
      defaults: {},
    });
    expect(parseShowcasePatch({ layout_choice: null }, stored).layout).toBe('branded');
    expect(parseShowcasePatch({}, stored)).toMatchObject({ layout: 'dark', description: 'Spring', defaults: { frame: 'classic' } });
  });

  it('validates the result as a create would, and sends pictures to their own routes', () => {
    expect(paramOf(() => parseShowcasePatch({ image_urls: ['https://x.example/a.jpg'] }, stored))).toBe('image_urls');
    expect(paramOf(() => parseShowcasePatch({ items: [] }, stored))).toBe('items');
    expect(paramOf(() => parseShowcasePatch({ branding: { primary_color: 'red' } }, stored))).toBe('branding.primary_color');
    expect(paramOf(() => parseShowcasePatch({ custom_links: [{ title: 'x', url: 'javascript:alert(1)' }] }, stored))).toBe(
      'custom_links[0].url',
    );
    expect(paramOf(() => parseShowcasePatch({ title: 'x' }, stored))).toBe('title');
    expect(paramOf(() => parseShowcasePatch('x', stored))).toBeUndefined();
  });
});
