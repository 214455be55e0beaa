import type { StoredVariant } from '@app/persistence';
import { UserError } from '@app/pipeline';
import {
  type CheckedRow,
  checkRow,
  CSV_COLUMNS,
  csvItem,
  groupProblem,
  rowProblem,
  rowReports,
  VariantRowGrouper,
  variantRowOutcomes,
} from './import-rows';

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

/** CSV text (a header, then rows) through csvItem and the grouper, as the import reads it. */
function group(lines: string[], opts: { files?: boolean; defaults?: Record<string, unknown> } = {}): CheckedRow[] {
  const [header, ...rows] = lines.map((l) => l.split(','));
  const g = new VariantRowGrouper(opts.defaults ?? {}, { files: opts.files ?? false, csv: true });
  const out: CheckedRow[] = [];
  rows.forEach((cells, i) => {
    const { item, problem } = csvItem(Object.fromEntries(header.map((h, k) => [h, cells[k] ?? ''])), ',');
    out.push(...g.push(i + 1, item, problem));
  });
  return [...out, ...g.end()];
}

const HEADER =
  'external_id,image_url,title,artist,sku,variant_name,variant_default,price,width_cm,height_cm,frame,frame_color,availability';
const B = 'https://shop.example/b.jpg';

describe('VariantRowGrouper', () => {
  it('makes one item of consecutive rows with a sku and the same external_id; rows without a sku stay single', () => {
    const out = group([
      HEADER,
      `DUNES,${URL},Dunes,Ada,D-A3,A3,,€39,29.7,42,,,`,
      `DUNES,,,,D-50-OAK,,yes,€149,50,70,classic,oak,`,
      `DUNES,${URL},Dunes,,D-70,,,€249,70,100,thin,,sold`,
      `PLAIN,${B},Plain,,,,,€10,,,,,`,
      `HARBOUR,${B},Harbour,,H-S,,,€20,20,30,,,`,
      `HARBOUR,,,,H-M,,,€30,30,45,,,`,
      `HARBOUR,,,,H-L,,,€40,40,60,,,`,
    ]);
    expect(out.map((c) => [c.row, c.externalId, c.group?.rows.map((r) => `${r.row}:${r.sku}`) ?? null])).toEqual([
      [1, 'DUNES', ['1:D-A3', '2:D-50-OAK', '3:D-70']],
      [4, 'PLAIN', null],
      [5, 'HARBOUR', ['5:H-S', '6:H-M', '7:H-L']],
    ]);
    const [dunes, plain] = out;
    expect(dunes.problem).toBeUndefined();
    expect(dunes.create).toMatchObject({ imageUrl: URL, catalogue: { externalId: 'DUNES', label: { artist: 'Ada' } } });
    const v = dunes.create!.variants!;
    expect(v.map((x) => [x.sku, x.name, x.default, x.price, x.availability])).toEqual([
      ['D-A3', 'A3', false, '€39', 'available'],
      ['D-50-OAK', '', true, '€149', 'available'],
      ['D-70', '', false, '€249', 'sold'],
    ]);
    expect(v[0].spec).toMatchObject({ width_inches: 11.6929, height_inches: 16.5354 });
    expect(v[1].spec).toMatchObject({ width_inches: 19.685, height_inches: 27.5591, frame: { style: 'classic', color: 'oak' } });
    expect(v[2].spec).toMatchObject({ frame: 'thin' });
    // The default variant is what the item's own job builds; the item's fields come from the first row.
    expect(v.map((x) => x.main)).toEqual([false, true, false]);
    expect(dunes.create!.presentation).toMatchObject({ title: 'Dunes', width_inches: 19.685, frame: { style: 'classic', color: 'oak' } });
    // The update: the first row's item fields, and every row's variant (PATCH `variants`: replace by SKU).
    expect(dunes.patch).toEqual({
      external_id: 'DUNES',
      title: 'Dunes',
      artist: 'Ada',
      variants: [
        { sku: 'D-A3', name: 'A3', price: '€39', width_cm: 29.7, height_cm: 42 },
        { sku: 'D-50-OAK', default: true, price: '€149', width_cm: 50, height_cm: 70, frame: { style: 'classic', color: 'oak' } },
        { sku: 'D-70', price: '€249', width_cm: 70, height_cm: 100, frame: 'thin', availability: 'sold' },
      ],
    });
    expect(plain.create).toMatchObject({ imageUrl: B, presentation: { price: '€10' } });
    expect(plain.create!.variants).toBeUndefined();
  });

  it('refuses the whole group when a later row gives another picture or item field (no update either)', () => {
    const [c] = group([
      HEADER,
      `DUNES,${URL},Dunes,,D-1,,,,,,,,`,
      `DUNES,${B},,,D-2,,,,,,,,`,
      `DUNES,,Dunes II,,D-3,,,,,,,,`,
      `DUNES,,,Ada,D-4,,,,,,,,`,
      `DUNES,${URL},Dunes,,D-5,,,,,,,,`,
    ]);
    expect(c.externalId).toBeNull();
    expect(c.create).toBeUndefined();
    expect(rowReports(c)).toEqual([
      { row: 1, field: '', message: 'not imported: row 2 of the same item (external_id DUNES) is invalid' },
      {
        row: 2,
        field: 'image_url',
        message: "not row 1's picture: the rows of one item share its picture (repeat it or leave the cell empty)",
      },
      {
        row: 3,
        field: 'title',
        message: "differs from row 1's: an item's fields come from its first row (repeat them or leave the cells empty)",
      },
      { row: 4, field: 'artist', message: "row 1, the item's first row, does not give it: an item's fields come from its first row" },
      { row: 5, field: '', message: 'not imported: row 2 of the same item (external_id DUNES) is invalid' },
    ]);
  });

  it('takes at most 24 variant rows per item: more make the whole group invalid', () => {
    const lines = [HEADER, ...Array.from({ length: 26 }, (_, i) => `BIG,${URL},,,S-${i + 1},,,,,,,,`), `NEXT,${B},,,,,,,,,,,`];
    const [big, next] = group(lines);
    expect(big.externalId).toBeNull();
    const reports = rowReports(big);
    expect(reports).toHaveLength(26);
    expect(reports[24]).toEqual({ row: 25, field: 'sku', message: 'an item has at most 24 variants: external_id BIG has 26 variant rows' });
    expect(reports[0].message).toBe('not imported: row 25 of the same item (external_id BIG) is invalid');
    expect(next).toMatchObject({ row: 27, externalId: 'NEXT', create: { imageUrl: B } });
  });

  it('names every variant row at fault (CSV columns), and keeps the update possible', () => {
    const [c] = group([
      HEADER,
      `DUNES,${URL},Dunes,,D-1,,,,29.7,42,,,`,
      `DUNES,,,,D-2,,,,50,,,,`,
      `DUNES,,,,D-3,,,,50,70,classic,plaid,`,
      `DUNES,,,,D 4,,maybe,,,,,,`,
    ]);
    expect(c.externalId).toBe('DUNES');
    expect(c.create).toBeUndefined();
    expect(c.patch.variants).toHaveLength(4);
    expect(rowReports(c).map((p) => [p.row, p.field])).toEqual([
      [1, ''],
      [2, 'height_cm'],
      [3, 'frame_color'],
      [4, 'sku'],
    ]);
    // A cell that cannot be read: the whole group is invalid (its cells were not all read).
    const [bad] = group([HEADER, `X,${URL},,,X-1,,,,abc,42,,,`, `X,,,,X-2,,,,,,,,`]);
    expect(bad.externalId).toBeNull();
    expect(rowReports(bad)[0]).toMatchObject({ row: 1, field: 'width_cm' });
  });

  it('checks the group as a whole: SKUs unique, one default; the row named by its row number', () => {
    const [dup] = group([HEADER, `D,${URL},,,S-1,,,,,,,,`, `D,,,,S-2,,,,,,,,`, `D,,,,S-1,,,,,,,,`]);
    expect(rowReports(dup)[2]).toEqual({ row: 3, field: 'sku', message: "S-1 is also row 1's" });
    expect(dup.externalId).toBe('D');
    const [two] = group([HEADER, `D,${URL},,,S-1,,yes,,,,,,`, `D,,,,S-2,,true,,,,,,`]);
    expect(rowReports(two)[1]).toEqual({ row: 2, field: 'variant_default', message: 'only one variant can be the default' });
    // Without a picture: not a new item, still an update of the item with the external_id.
    const [update] = group([HEADER, `D,,,,S-1,,,€5,,,,,`, `D,,,,S-2,,,€6,,,,,`]);
    expect(update).toMatchObject({ externalId: 'D', problem: { field: 'image_url', message: 'required' } });
    expect(update.patch).toEqual({
      external_id: 'D',
      variants: [
        { sku: 'S-1', price: '€5' },
        { sku: 'S-2', price: '€6' },
      ],
    });
  });

  it('needs an external_id with a sku, and a sku with variant_name or variant_default', () => {
    const out = group([HEADER, `,${URL},,,S-1,,,,,,,,`, `A,${URL},,,,Big,,,,,,,`]);
    expect(out.map((c) => [c.row, c.externalId, c.problem?.field])).toEqual([
      [1, null, 'external_id'],
      [2, null, 'variant_name'],
    ]);
  });

  it('ends a group at the next row that is not one of it: a later row with its external_id is another group', () => {
    const out = group([HEADER, `A,${URL},,,A-1,,,,,,,,`, `B,${B},,,B-1,,,,,,,,`, `A,,,,A-2,,,,,,,,`]);
    expect(out.map((c) => c.group?.rows.map((r) => r.row))).toEqual([[1], [2], [3]]);
  });

  it('takes JSON items as flat variant rows (API field names) and JSON items with a variants list', () => {
    const g = new VariantRowGrouper({}, { files: false, csv: false });
    const out = [
      ...g.push(1, { external_id: 'J', image_url: URL, sku: 'J-1', variant_name: 'Small', width_cm: 20, height_cm: 30 }),
      ...g.push(2, { external_id: 'J', sku: 'J-2', frame: { style: 'classic', color: 'plaid' }, width_cm: 40, height_cm: 60 }),
      ...g.push(3, {
        image_url: B,
        external_id: 'K',
        variants: [
          { sku: 'K-1', price: '$1' },
          { sku: 'K-2', width_inches: 8, height_inches: 10 },
        ],
      }),
      ...g.end(),
    ];
    expect(rowReports(out[0])).toEqual([
      { row: 1, field: '', message: 'not imported: row 2 of the same item (external_id J) is invalid' },
      { row: 2, field: 'frame.color', message: expect.stringContaining('must be') },
    ]);
    expect(out[1].group).toBeUndefined();
    expect(out[1].create!.variants!.map((v) => v.sku)).toEqual(['K-1', 'K-2']);
  });

  it('takes the picture file of a multipart group from its first row', () => {
    const [c] = group(['external_id,file,sku,width_inches,height_inches', 'F,red.jpg,F-1,8,10', 'F,red.jpg,F-2,16,20', 'F,,F-3,4,5'], {
      files: true,
    });
    expect(c.create).toMatchObject({ file: 'red.jpg' });
    expect(c.create!.variants).toHaveLength(3);
    expect(c.patch).not.toHaveProperty('file');
  });
});

describe('groupProblem', () => {
  it("puts an error of a group's update on its row: a variant's on the variant's, the item's on the first", () => {
    const rows = [4, 5, 6];
    expect(
      groupProblem({ param: 'items[3].variants[1].frame.style', message: 'items[3].variants[1].frame.style: must be …' }, 3, rows, true),
    ).toEqual({ row: 5, field: 'frame', message: 'must be …' });
    expect(groupProblem({ param: 'items[3].variants[2].name', message: 'at most 80 characters' }, 3, rows, false)).toMatchObject({
      row: 6,
      field: 'variant_name',
    });
    expect(groupProblem({ param: 'items[3].title', message: 'items[3].title: at most 200' }, 3, rows, true)).toEqual({
      row: 4,
      field: 'title',
      message: 'at most 200',
    });
  });
});

describe('variantRowOutcomes', () => {
  const variant = (sku: string, spec: Record<string, unknown>, more: Partial<StoredVariant> = {}): StoredVariant => ({
    id: `var_${sku}`,
    sku,
    name: '',
    default: false,
    price: null,
    link_url: null,
    call_to_action: null,
    availability: 'available',
    sent: {},
    spec,
    built: null,
    main: false,
    pending_job_id: null,
    error: null,
    ...more,
  });
  const rows = [
    { row: 1, sku: 'A' },
    { row: 2, sku: 'B' },
    { row: 3, sku: 'C' },
  ];
  const before = [variant('A', { width_inches: 10, height_inches: 12 }), variant('B', { frame: 'thin' }), variant('C', { frame: 'thin' })];

  it('a changed look rebuilds that row only; a changed price updates its row without a rebuild', () => {
    const after = [
      { ...before[0], pending_job_id: null },
      { ...before[1], spec: { frame: { style: 'classic', color: 'oak' } }, pending_job_id: 'v2_x' },
      { ...before[2], price: '€5' },
    ];
    expect(variantRowOutcomes(rows, before, after, { changed: true, itemChanged: false })).toEqual([
      { row: 1, changed: false, rebuilt: false },
      { row: 2, changed: true, rebuilt: true },
      { row: 3, changed: true, rebuilt: false },
    ]);
  });

  it("reports the item's own changes and removed variants on the first row, and nothing when nothing changed", () => {
    expect(variantRowOutcomes(rows.slice(0, 2), before, before.slice(0, 2), { changed: true, itemChanged: false })[0].changed).toBe(true);
    expect(variantRowOutcomes(rows, before, before, { changed: true, itemChanged: true }).map((o) => o.changed)).toEqual([
      true,
      false,
      false,
    ]);
    expect(variantRowOutcomes(rows, before, before, { changed: false, itemChanged: false }).some((o) => o.changed)).toBe(false);
    // An item without variants before: every row's is new.
    expect(variantRowOutcomes(rows, null, before, { changed: true, itemChanged: false }).every((o) => o.changed && o.rebuilt)).toBe(true);
  });
});
