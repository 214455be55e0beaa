import { UserError } from '@app/pipeline';
import { checkRow, CSV_COLUMNS, csvItem, rowProblem } from './import-rows';

const URL = 'https://shop.example/a.jpg';

describe('csvItem', () => {
  it('reads a CSV row as a JSON item: empty cells not given, numbers, booleans, frame and mat columns', () => {
    const { item, problem } = csvItem(
      {
        image_url: ` ${URL} `,
        title: 'Dunes',
        width_cm: '76.2',
        height_cm: '101.6',
        position: '3',
        allow_scaling: 'Yes',
        frame: 'classic',
        frame_color: 'oak',
        frame_width_inches: '1.5',
        mat_width_inches: '2',
        mat_color: '',
        artist: '',
      },
      ',',
    );
    expect(problem).toBeUndefined();
    expect(item).toEqual({
      image_url: URL,
      title: 'Dunes',
      width_cm: 76.2,
      height_cm: 101.6,
      position: 3,
      allow_scaling: true,
      frame: { style: 'classic', color: 'oak', width_inches: 1.5 },
      mat: { width_inches: 2 },
    });
    expect(csvItem({ frame: 'canvas' }, ',').item).toEqual({ frame: 'canvas' });
  });

  it('reads decimal commas and thousands dots in a ";" file, and names a number it cannot read', () => {
    expect(csvItem({ width_cm: '76,2', height_cm: '1.016,5' }, ';').item).toEqual({ width_cm: 76.2, height_cm: 1016.5 });
    expect(csvItem({ width_cm: '76,2' }, ',').problem).toEqual({
      field: 'width_cm',
      message: 'must be a number (with a decimal point), not "76,2"',
    });
    expect(csvItem({ mat_width_inches: 'wide' }, ';').problem?.field).toBe('mat_width_inches');
  });

  it('knows the columns of an item, with the frame and mat columns instead of the mat object', () => {
    expect(CSV_COLUMNS).toEqual(
      expect.arrayContaining(['image_url', 'title', 'frame', 'frame_color', 'mat_color', 'width_cm', 'external_id']),
    );
    expect(CSV_COLUMNS).not.toContain('mat');
  });
});

describe('checkRow', () => {
  it('validates a row as a new item with the showcase defaults merged, and keeps its changes for an update', () => {
    const r = checkRow(
      2,
      { image_url: URL, title: 'Dunes', external_id: ' INV-1 ', availability: 'sold' },
      { frame: 'thin' },
      { files: false, csv: false },
    );
    expect(r).toMatchObject({
      row: 2,
      externalId: 'INV-1',
      create: { imageUrl: URL, presentation: { frame: 'thin', title: 'Dunes' }, catalogue: { externalId: 'INV-1', availability: 'sold' } },
      patch: { title: 'Dunes', external_id: ' INV-1 ', availability: 'sold' },
    });
    expect(r.problem).toBeUndefined();
  });

  it('names the field of an invalid row without the items[i] prefix (CSV: the column)', () => {
    expect(checkRow(5, { image_url: URL, width_cm: 50 }, {}, { files: false, csv: false }).problem).toEqual({
      field: 'height_cm',
      message: 'width_cm and height_cm must be given together',
    });
    expect(checkRow(1, { title: 'x' }, {}, { files: false, csv: false }).problem).toEqual({ field: 'image_url', message: 'required' });
    expect(
      checkRow(1, { image_url: URL, frame: { style: 'classic', color: 'plaid' } }, {}, { files: false, csv: true }).problem?.field,
    ).toBe('frame_color');
    expect(checkRow(1, { image_url: URL, colour: 'red' }, {}, { files: false, csv: false }).problem).toEqual({
      field: 'colour',
      message: 'unknown parameter',
    });
    expect(checkRow(3, 'nope', {}, { files: false, csv: false })).toMatchObject({ externalId: null, problem: { field: '' } });
  });

  it('keeps the external id of an invalid row (it may update an existing item), not of a row with a cell it could not read', () => {
    const r = checkRow(4, { external_id: 'INV-9', availability: 'sold' }, {}, { files: false, csv: true });
    expect(r).toMatchObject({ externalId: 'INV-9', problem: { field: 'image_url' }, patch: { availability: 'sold' } });
    expect(r.create).toBeUndefined();
    const bad = checkRow(
      4,
      { image_url: URL, external_id: 'INV-9' },
      {},
      { files: false, csv: true, problem: { field: 'width_cm', message: 'm' } },
    );
    expect(bad).toMatchObject({ externalId: null, problem: { field: 'width_cm', message: 'm' } });
  });

  it('takes a file part by name in a multipart import, not both sources', () => {
    expect(checkRow(1, { file: 'a.jpg', title: 'A' }, {}, { files: true, csv: true })).toMatchObject({
      create: { file: 'a.jpg', presentation: { title: 'A' } },
      patch: { title: 'A' },
    });
    expect(checkRow(1, { file: 'a.jpg', image_url: URL }, {}, { files: true, csv: true }).problem?.field).toBe('file');
    expect(checkRow(1, { title: 'A' }, {}, { files: true, csv: true }).problem).toEqual({
      field: 'image_url',
      message: 'required: give image_url or name a file part in file',
    });
  });
});

describe('rowProblem', () => {
  it('keeps a message that does not start with its parameter', () => {
    expect(rowProblem(new UserError('x', 'something else', { param: 'items[0].mat' }), 0, true)).toEqual({
      field: 'mat_width_inches',
      message: 'something else',
    });
  });
});
