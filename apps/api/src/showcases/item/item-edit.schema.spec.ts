import { type EditableItem, parseItemEdit, renditionKey, sameJson } from './item-edit.schema';
import { itemSizeInput } from './item-fields.schema';
import { mergeItemPresentation } from './presentation-request';

/** The job input a create writes for an item body (what an edit is merged over). */
const inputOf = (sent: Record<string, unknown>) => ({
  image_url: 'https://shop.example/a.jpg',
  showcase_id: 1,
  ...itemSizeInput(sent, mergeItemPresentation(sent, {}, 'items[0].')),
});

const item = (sent: Record<string, unknown>, over: Partial<EditableItem> = {}): EditableItem => ({
  label: { artist: 'Hilma af Klint', year: '1907' },
  banner: { title: 'Dunes', link_url: 'https://shop.example/dunes', call_to_action: 'Buy' },
  latestInput: inputOf(sent),
  ...over,
});

const failure = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { param: (e as { param?: string }).param, code: (e as { code?: string }).code, message: (e as Error).message };
  }
};

describe('parseItemEdit', () => {
  const framed = item({ width_cm: 76.2, height_cm: 101.6, depth_cm: 3.81, frame: 'canvas', title: 'Dunes' });

  it('merges the label, catalogue fields and banner: left out stays, null clears, text is trimmed', () => {
    const e = parseItemEdit(
      {
        artist: '  Hilma ',
        year: null,
        edition: '3/25',
        external_id: ' INV-7 ',
        availability: null,
        position: 3,
        price: '$90',
        call_to_action: null,
      },
      framed,
    );
    expect(e.catalogue).toEqual({
      label: { artist: 'Hilma', edition: '3/25' },
      externalId: 'INV-7',
      availability: 'available',
      position: 3,
    });
    expect(e.banner).toEqual({ title: 'Dunes', link_url: 'https://shop.example/dunes', price: '$90' });
    expect(e.presentation).toBeUndefined();
    expect(parseItemEdit({}, framed)).toEqual({ catalogue: {} });
  });

  it('merges size and presentation over the latest input and keeps what was not sent (the depth too)', () => {
    const e = parseItemEdit(
      { width_inches: 40, height_inches: 30, frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } },
      framed,
    );
    expect(e.presentation).toMatchObject({
      width_inches: 40,
      height_inches: 30,
      fit: 'crop',
      frame: { style: 'classic', color: 'oak', depth_inches: 1.5 },
      mat: { width_inches: 2 },
      title: 'Dunes',
      link_url: 'https://shop.example/dunes',
      call_to_action: 'Buy',
    });
    // Only the frame: the size in centimetres stays (as the inches the job was given).
    expect(parseItemEdit({ frame: 'thin' }, framed).presentation).toMatchObject({
      width_inches: 30,
      height_inches: 40,
      frame: { style: 'thin', depth_inches: 1.5 },
    });
    // null: back to the default (no frame, the default size); a frame with its own depth replaces the old depth.
    const cleared = parseItemEdit({ frame: null, depth_cm: null, width_cm: null, height_cm: null }, framed).presentation!;
    expect(cleared).not.toHaveProperty('frame');
    expect(cleared).not.toHaveProperty('width_inches');
    expect(cleared).not.toHaveProperty('fit');
    expect(parseItemEdit({ frame: { style: 'float', depth_inches: 2 } }, framed).presentation!.frame).toEqual({
      style: 'float',
      depth_inches: 2,
    });
  });

  it('tells a change of the files from one that builds the same files', () => {
    const same = parseItemEdit({ frame: { style: 'canvas' }, width_inches: 30, height_inches: 40, fit: 'crop' }, framed).presentation!;
    expect(renditionKey(same)).toBe(renditionKey(framed.latestInput));
    const other = parseItemEdit({ fit: 'stretch' }, framed).presentation!;
    expect(renditionKey(other)).not.toBe(renditionKey(framed.latestInput));
    // The banner is not in the files.
    expect(renditionKey(parseItemEdit({ title: 'Other', frame: 'canvas' }, framed).presentation!)).toBe(renditionKey(framed.latestInput));
    expect(renditionKey({ frame: 'none' })).toBe(renditionKey({}));
    expect(sameJson({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
  });

  it('refuses what a create refuses, naming the field (with the prefix of a list)', () => {
    expect(failure(() => parseItemEdit({ image_url: 'https://x.example/b.jpg' }, framed))).toMatchObject({
      param: 'image_url',
      code: 'parameter_unknown',
    });
    expect(failure(() => parseItemEdit({ colour: 'red' }, framed))).toMatchObject({ param: 'colour', code: 'parameter_unknown' });
    expect(failure(() => parseItemEdit({ frame: 'gold' }, framed))).toMatchObject({ param: 'frame.style' });
    expect(failure(() => parseItemEdit({ frame: 'gold' }, framed, 'items[3].'))).toMatchObject({ param: 'items[3].frame.style' });
    expect(failure(() => parseItemEdit({ frame: 'gold' }, framed, 'items[3]'))).toMatchObject({ param: 'items[3].frame.style' });
    // The canvas the item has takes no mat.
    expect(failure(() => parseItemEdit({ mat: { width_inches: 2 } }, framed))).toMatchObject({ param: 'mat' });
    expect(failure(() => parseItemEdit({ mat: { width_inches: 2 } }, framed, 'items[3]'))).toMatchObject({ param: 'items[3].mat' });
    expect(failure(() => parseItemEdit({ mat: { width_inches: 2 } }, framed, 'items[3].'))).toMatchObject({
      param: 'items[3].mat',
      message: expect.stringMatching(/^items\[3\]\.mat: /),
    });
    expect(failure(() => parseItemEdit({ link_url: null }, framed, 'items[3].'))).toMatchObject({ param: 'items[3].call_to_action' });
    // A call to action needs the link it has; without it, no.
    expect(failure(() => parseItemEdit({ link_url: null }, framed))).toMatchObject({ param: 'call_to_action', code: 'parameter_missing' });
    expect(failure(() => parseItemEdit({ width_inches: 40 }, framed))).toMatchObject({ param: 'height_inches', code: 'parameter_missing' });
    expect(failure(() => parseItemEdit({ depth_inches: 9 }, framed))).toMatchObject({ param: 'depth_inches' });
    // fit may use the stored size, but not none.
    expect(parseItemEdit({ fit: 'stretch' }, framed).presentation).toMatchObject({ fit: 'stretch' });
    const auto = item({});
    expect(failure(() => parseItemEdit({ fit: 'stretch' }, auto))).toMatchObject({ param: 'fit', code: 'parameter_missing' });
    expect(failure(() => parseItemEdit('frame', framed))).toMatchObject({ code: 'invalid_body' });
  });
});
