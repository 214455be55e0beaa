import { UserError } from '@app/pipeline';
import { outerDimensions, parsePresentation } from './presentation';

const err = (fn: () => unknown): UserError => {
  try {
    fn();
  } catch (e) {
    return e as UserError;
  }
  throw new Error('expected a UserError');
};

describe('parsePresentation', () => {
  it('defaults to a picture hung on a wall at its true size, unlit, unframed, no banner', () => {
    expect(parsePresentation({})).toEqual({
      placement: 'wall',
      allow_scaling: false,
      finish: 'unlit',
      frame: { style: 'none', width_inches: 0, depth_inches: 0.04, color: 'white' },
      mat: null,
      banner: {},
    });
  });

  it('resolves frame styles with their defaults, colours and the canvas edge', () => {
    expect(parsePresentation({ frame: 'classic' }).frame).toEqual({
      style: 'classic',
      width_inches: 1.5,
      depth_inches: 1.25,
      color: 'walnut',
    });
    expect(parsePresentation({ frame: { style: 'thin', color: '#AABBCC', width_inches: 0.75 } }).frame).toEqual({
      style: 'thin',
      width_inches: 0.75,
      depth_inches: 0.75,
      color: '#aabbcc',
    });
    expect(parsePresentation({ frame: { style: 'canvas', edge: 'black', depth_inches: 2 } }).frame).toEqual({
      style: 'canvas',
      width_inches: 0,
      depth_inches: 2,
      color: 'white',
      edge: 'black',
    });
    expect(parsePresentation({ frame: 'canvas' }).frame.edge).toBe('mirror');
    // A float frame always shows a reveal: the mat, or a default one.
    expect(parsePresentation({ frame: 'float' }).mat).toEqual({ width_inches: 0.5, color: 'white' });
  });

  it('names the parameter at fault, with the prefix of a showcase item', () => {
    expect(err(() => parsePresentation({ placement: 'ceiling' })).param).toBe('placement');
    expect(err(() => parsePresentation({ frame: { style: 'wavy' } })).message).toContain(
      'frame.style: must be one of "none", "thin", "classic", "float", "canvas"',
    );
    expect(err(() => parsePresentation({ frame: { style: 'thin', colour: 'red' } })).param).toBe('frame.colour');
    expect(err(() => parsePresentation({ frame: 'canvas', mat: { width_inches: 2 } })).param).toBe('mat');
    expect(err(() => parsePresentation({ frame: { style: 'thin', color: 'mauve' } }, {}, 'items[1].')).param).toBe('items[1].frame.color');
    expect(err(() => parsePresentation({ allow_scaling: 'yes' })).param).toBe('allow_scaling');
    expect(err(() => parsePresentation({ finish: 'satin' })).param).toBe('finish');
    expect(err(() => parsePresentation({ frame: { style: 'thin', depth_inches: 12 } })).message).toContain('between 0.04 and 6 inches');
  });

  it('checks the banner: lengths, https link, no control characters, a call to action needs a link', () => {
    const b = parsePresentation({
      title: '  Sunset <b>& Co</b> ',
      subtitle: 'Giclée print',
      price: '€120',
      call_to_action: 'Buy',
      link_url: 'https://shop.example/p/1?x=1&y=2',
    }).banner;
    expect(b).toEqual({
      title: 'Sunset <b>& Co</b>',
      subtitle: 'Giclée print',
      price: '€120',
      call_to_action: 'Buy',
      link_url: 'https://shop.example/p/1?x=1&y=2',
    });
    expect(err(() => parsePresentation({ title: 'x'.repeat(61) })).param).toBe('title');
    expect(parsePresentation({ title: 'é'.repeat(60) }).banner.title).toHaveLength(60);
    expect(err(() => parsePresentation({ link_url: 'http://shop.example' })).code).toBe('https_required');
    expect(err(() => parsePresentation({ link_url: 'https://u:p@shop.example' })).param).toBe('link_url');
    expect(err(() => parsePresentation({ title: 'a\nb' })).param).toBe('title');
    expect(err(() => parsePresentation({ call_to_action: 'Buy' })).code).toBe('parameter_missing');
  });

  it("takes a showcase's defaults for absent fields; an item's own fields win", () => {
    const defaults = { placement: 'floor', frame: { style: 'thin', color: 'gold' }, finish: 'gloss' };
    const p = parsePresentation({ frame: 'classic' }, defaults);
    expect(p.placement).toBe('floor');
    expect(p.finish).toBe('gloss');
    expect(p.frame).toEqual({ style: 'classic', width_inches: 1.5, depth_inches: 1.25, color: 'walnut' });
    // An error in a default is the showcase's, not the item's.
    expect(err(() => parsePresentation({}, { placement: 'x' }, 'items[0].')).param).toBe('placement');
  });
});

describe('outerDimensions', () => {
  it('adds 2 x (frame + mat) per side; canvas and unframed keep the picture size', () => {
    const pic = { width_inches: 24, height_inches: 36 };
    expect(outerDimensions(pic, parsePresentation({ frame: { style: 'classic', width_inches: 1.5 }, mat: { width_inches: 3 } }))).toEqual({
      width_inches: 33,
      height_inches: 45,
      depth_inches: 1.25,
    });
    expect(outerDimensions(pic, parsePresentation({ frame: 'canvas' }))).toEqual({
      width_inches: 24,
      height_inches: 36,
      depth_inches: 1.5,
    });
    expect(outerDimensions(pic, parsePresentation({}))).toEqual({ width_inches: 24, height_inches: 36, depth_inches: 0.04 });
    expect(outerDimensions(pic, parsePresentation({ frame: 'float' }))).toEqual({
      width_inches: 26.5,
      height_inches: 38.5,
      depth_inches: 1.5,
    });
  });
});
