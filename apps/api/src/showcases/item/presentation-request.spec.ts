import { UserError } from '@app/pipeline';
import { acceptPresentation, mergeItemPresentation, type PresentationInput } from './presentation-request';

const paramOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as UserError).param;
  }
  throw new Error('did not throw');
};

describe('acceptPresentation', () => {
  it('keeps the presentation fields as sent, leaving out null ones and every other field', () => {
    const body = {
      image_url: 'https://x.example/a.jpg',
      frame: 'classic',
      mat: { width_inches: 2 },
      title: ' Dunes ',
      finish: null,
      width_inches: 10,
    };
    expect(acceptPresentation(body)).toEqual({ frame: 'classic', mat: { width_inches: 2 }, title: ' Dunes ' });
  });

  it('refuses bad values naming the parameter', () => {
    expect(paramOf(() => acceptPresentation({ placement: 'ceiling' }))).toBe('placement');
    expect(paramOf(() => acceptPresentation({ frame: { style: 'wavy' } }))).toBe('frame.style');
    expect(paramOf(() => acceptPresentation({ frame: 'canvas', mat: { width_inches: 2 } }))).toBe('mat');
    expect(paramOf(() => acceptPresentation({ link_url: 'http://shop.example/x' }))).toBe('link_url');
    expect(paramOf(() => acceptPresentation({ title: 'x'.repeat(61) }))).toBe('title');
    expect(paramOf(() => acceptPresentation({ call_to_action: 'Buy' }))).toBe('call_to_action');
  });

  it("reads only the fields it is given (a showcase's defaults)", () => {
    expect(acceptPresentation({ frame: 'thin', title: 'not a default' }, ['placement', 'allow_scaling', 'finish', 'frame', 'mat'])).toEqual(
      { frame: 'thin' },
    );
  });
});

describe('mergeItemPresentation', () => {
  const defaults: PresentationInput = { placement: 'floor', frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } };

  it('lays the item over the defaults field by field; a frame object replaces the default frame whole', () => {
    expect(mergeItemPresentation({ image_url: 'u', title: 'Dunes', frame: { style: 'thin' } }, defaults, 'items[0].')).toEqual({
      placement: 'floor',
      frame: { style: 'thin' },
      mat: { width_inches: 2 },
      title: 'Dunes',
    });
    expect(mergeItemPresentation({}, defaults, 'items[0].')).toEqual(defaults);
  });

  it('drops a default the item sends as null', () => {
    expect(mergeItemPresentation({ frame: 'canvas', mat: null }, defaults, 'items[2].')).toEqual({ placement: 'floor', frame: 'canvas' });
  });

  it('names items[i].field, also for a conflict with an inherited default', () => {
    expect(paramOf(() => mergeItemPresentation({ frame: { style: 'thin', color: 'mauve' } }, defaults, 'items[1].'))).toBe(
      'items[1].frame.color',
    );
    let err: UserError | undefined;
    try {
      mergeItemPresentation({ frame: 'canvas' }, defaults, 'items[3].');
    } catch (e) {
      err = e as UserError;
    }
    expect(err?.param).toBe('items[3].mat');
    expect(err?.message).toContain('send items[3].mat: null');
  });
});
