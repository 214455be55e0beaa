import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CsvError, type CsvRow, type CsvSource, parseDecimal, readCsv, type ReadCsvOptions } from './index';

async function readAll(source: CsvSource, options?: ReadCsvOptions): Promise<CsvRow[]> {
  const table = await readCsv(source, options);
  const rows: CsvRow[] = [];
  for await (const row of table.rows) rows.push(row);
  return rows;
}

/** The text's UTF-8 bytes as a Readable of 1-, 2- and 3-byte chunks, in turn: every boundary a real stream might cut. */
function trickle(text: string | Buffer): Readable {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const chunks: Buffer[] = [];
  for (let at = 0, size = 1; at < bytes.length; at += size, size = (size % 3) + 1) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

/** The error `promise` rejects with (or `rows` throws), checked to be a CsvError. */
async function csvError(promise: Promise<unknown>): Promise<CsvError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CsvError);
  return error as CsvError;
}

describe('readCsv: RFC 4180 as spreadsheets export it', () => {
  it('reads quoted delimiters, line breaks and doubled quotes, with CRLF rows and no final line break', async () => {
    const text =
      'Title,Artist,Notes\r\n' +
      '"Still life, pears",Chardin,"Oil on canvas\r\nsigned lower left"\r\n' +
      '"The ""Blue"" Boy",Gainsborough,"two\nlines"\r\n' +
      'Untitled,,';
    const rows = await readAll([text]);
    expect(rows).toEqual([
      { row: 1, line: 2, values: { title: 'Still life, pears', artist: 'Chardin', notes: 'Oil on canvas\r\nsigned lower left' } },
      { row: 2, line: 4, values: { title: 'The "Blue" Boy', artist: 'Gainsborough', notes: 'two\nlines' } },
      { row: 3, line: 6, values: { title: 'Untitled', artist: '', notes: '' } },
    ]);
  });

  it('reads LF files, lone-CR files and a quoted empty cell', async () => {
    expect((await readAll('a,b\n1,""\n')).map((r) => r.values)).toEqual([{ a: '1', b: '' }]);
    expect((await readAll('a,b\r1,2\r3,4')).map((r) => r.values)).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
  });

  it('drops a UTF-8 byte-order mark, even one cut across chunks', async () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Title,Year\nOlympia,1863\n')]);
    const table = await readCsv(trickle(withBom));
    expect(table.headers).toEqual(['title', 'year']);
    const rows = [];
    for await (const row of table.rows) rows.push(row.values);
    expect(rows).toEqual([{ title: 'Olympia', year: '1863' }]);
  });

  it('skips blank lines (and rows of empty cells) and numbers only the rows with something in them', async () => {
    const text = '\n  \nTitle,Year\n\nA,1\n,\n   ,  \nB,2\n\n\n';
    const rows = await readAll(text);
    expect(rows.map(({ row, line, values }) => ({ row, line, title: values.title }))).toEqual([
      { row: 1, line: 5, title: 'A' },
      { row: 2, line: 8, title: 'B' },
    ]);
  });

  it('keeps cells as written: not trimmed, quotes inside unquoted cells kept', async () => {
    const rows = await readAll('Title,Size\n  Nocturne ,12" x 16"\n');
    expect(rows[0].values).toEqual({ title: '  Nocturne ', size: '12" x 16"' });
  });
});

describe('readCsv: delimiter and header', () => {
  it('sniffs ";" and reads decimal commas with parseDecimal', async () => {
    const text = 'Titel;Breite cm;Höhe cm\n"Sonne; Mond";76,2;1.234,5\n';
    const table = await readCsv(text);
    expect(table.delimiter).toBe(';');
    expect(table.headers).toEqual(['titel', 'breite_cm', 'höhe_cm']);
    const [row] = await collect(table.rows);
    expect(row.values.titel).toBe('Sonne; Mond');
    expect(parseDecimal(row.values.breite_cm, { delimiter: table.delimiter })).toBe(76.2);
    expect(parseDecimal(row.values['höhe_cm'], { delimiter: table.delimiter })).toBe(1234.5);
  });

  it('sniffs tab', async () => {
    const table = await readCsv('Title\tArtist\tYear\r\nOlympia\tManet, Édouard\t1863\r\n');
    expect(table.delimiter).toBe('\t');
    expect((await collect(table.rows))[0].values).toEqual({ title: 'Olympia', artist: 'Manet, Édouard', year: '1863' });
  });

  it('takes a delimiter from the caller instead of sniffing', async () => {
    const table = await readCsv('a;b,c\n1;2,3\n', { delimiter: ',' });
    expect(table.headers).toEqual(['a;b', 'c']);
  });

  it('normalizes header names and reads a header whose quoted cell holds a line break', async () => {
    const table = await readCsv('" Image URL ";width-cm;"Notes\nfor staff"\nx;1;y\n');
    expect(table.delimiter).toBe(';');
    expect(table.headers).toEqual(['image_url', 'width_cm', 'notes_for_staff']);
  });

  it('rejects duplicate header names, naming both columns', async () => {
    const error = await csvError(readCsv('Title,Image URL,title\nA,b,c\n'));
    expect(error.row).toBeUndefined();
    expect(error.column).toBe('title');
    expect(error.message).toBe('csv: header (line 1): duplicate column "title" (columns 1 and 3)');
    await expect(readCsv('Image URL,image-url\n')).rejects.toThrow(/duplicate column "image_url"/);
  });

  it('reports unknown header names once each and lets the caller go on', async () => {
    const table = await readCsv('Title,Colour,Image URL,Mood\nA,red,u,calm\nB,blue,v,wild\n', {
      knownHeaders: ['title', 'Image URL'],
    });
    expect(table.unknownHeaders.map((e) => [e.row, e.column, e.message])).toEqual([
      [undefined, 'colour', 'csv: header: unknown column "colour"'],
      [undefined, 'mood', 'csv: header: unknown column "mood"'],
    ]);
    expect((await collect(table.rows)).map((r) => r.values.colour)).toEqual(['red', 'blue']);
  });

  it('drops nameless columns at the end of the header (Excel pads it) but not in the middle', async () => {
    const rows = await readAll('Title,Year,,\nA,1,,\nB,2\n');
    expect(rows.map((r) => r.values)).toEqual([
      { title: 'A', year: '1' },
      { title: 'B', year: '2' },
    ]);
    expect((await csvError(readCsv('Title,,Year\n'))).message).toBe('csv: header (line 1): column 2 has no name');
  });

  it('rejects an empty file', async () => {
    expect((await csvError(readCsv(''))).message).toMatch(/^csv: the file is empty/);
    expect((await csvError(readCsv(Buffer.from([0xef, 0xbb, 0xbf, 0x0d, 0x0a])))).row).toBeUndefined();
  });
});

describe('readCsv: chunks cut anywhere', () => {
  it('reads multi-byte characters and quoted cells cut into 1-3 byte chunks', async () => {
    const text =
      'Titel;Künstler;Notiz\r\n' + '"Café; Nacht";Gauguin;"Öl 🎨\r\n""Nuit"" à Arles"\r\n' + 'Ночь;東京;\r\n' + '"";"";"a;""b"";c"';
    const slow = await readAll(trickle(text));
    expect(slow.map((r) => r.values)).toEqual([
      { titel: 'Café; Nacht', künstler: 'Gauguin', notiz: 'Öl 🎨\r\n"Nuit" à Arles' },
      { titel: 'Ночь', künstler: '東京', notiz: '' },
      { titel: '', künstler: '', notiz: 'a;"b";c' },
    ]);
    expect(await readAll([text])).toEqual(slow);
  });
});

describe('readCsv: errors name the row', () => {
  it('rejects a row with more cells than the header has columns', async () => {
    const error = await csvError(readAll('a,b\n1,2\n1,2,3\n'));
    expect([error.row, error.line, error.message]).toEqual([2, 3, 'csv: row 2 (line 3): 3 cells but the header names 2 columns']);
  });

  it('rejects an unterminated quote, naming the row where it started', async () => {
    const error = await csvError(readAll(trickle('Title,Notes\nA,ok\nB,"never closed\nC,more\n')));
    expect(error.row).toBe(2);
    expect(error.line).toBe(3);
    expect(error.column).toBe('notes');
    expect(error.message).toBe('csv: row 2 (line 3), column "notes": a quoted cell opened on line 3 is never closed (a missing closing ")');
  });

  it('rejects text after a closing quote (an undoubled quote inside a quoted cell)', async () => {
    const error = await csvError(readAll('Title,Size\n"12" x 16"",A\n'));
    expect(error.message).toMatch(/^csv: row 1 \(line 2\), column "title": text after the closing quote/);
  });

  it('stops at row 5,001 after yielding the 5,000 allowed', async () => {
    async function* source() {
      yield 'Title,Year\n';
      for (let i = 1; i <= 5_001; i++) yield `Work ${i},${1900 + (i % 100)}\n`;
    }
    const table = await readCsv(source());
    let last = 0;
    const error = await csvError(
      (async () => {
        for await (const row of table.rows) last = row.row;
      })(),
    );
    expect(last).toBe(5_000);
    expect(error.row).toBe(5_001);
    expect(error.message).toBe('csv: row 5001 (line 5002): more than 5000 rows; split the file');
  });

  it('enforces the cell, column and line limits', async () => {
    const long = await csvError(readAll(`a,b\n1,${'x'.repeat(11)}\n`, { maxFieldLength: 10 }));
    expect(long.message).toBe('csv: row 1 (line 2), column "b": a cell is longer than 10 characters');
    const wide = await csvError(readAll('a,b\n1,2,3,4\n', { maxColumns: 3 }));
    expect(wide.message).toBe('csv: row 1 (line 2): the row has more than 3 cells');
    const line = await csvError(readAll('a,b\n12345,12345\n', { maxLineLength: 10 }));
    expect(line.message).toBe('csv: row 1 (line 2): the row is longer than 10 characters');
    const header = await csvError(readCsv(`${'h,'.repeat(101)}h\n`));
    expect(header.message).toBe('csv: header (line 1): the row has more than 100 cells');
    const endless = await csvError(readCsv(trickle('h'.repeat(300)), { maxLineLength: 100 }));
    expect(endless.message).toBe('csv: header (line 1): no complete header row within the first 100 characters');
  });

  it('hints at an unclosed quote when a quoted cell runs past the limit', async () => {
    const error = await csvError(readAll(`a,b\n1,"runaway\n${'2,3\n'.repeat(20)}`, { maxFieldLength: 30 }));
    expect(error.message).toBe(
      'csv: row 1 (line 2), column "b": a cell is longer than 30 characters (is the quote opened on line 2 left unclosed?)',
    );
  });

  it('rejects bytes that are not UTF-8 (a Windows-1252 export), naming the row', async () => {
    const latin1 = Buffer.from('Title,Artist\nOlympia,Manet\nCaf\xe9,Gauguin\n', 'latin1');
    const error = await csvError(readAll(trickle(latin1)));
    expect(error.row).toBe(2);
    expect(error.message).toMatch(/^csv: row 2 \(line 3\), column "title": the file is not UTF-8 text/);
  });

  it('rejects bad limits', async () => {
    await expect(readCsv('a\n', { maxRows: 0 })).rejects.toThrow(RangeError);
  });
});

describe('readCsv: bounded memory', () => {
  it('pulls the source lazily and releases it on close', async () => {
    let pulled = 0;
    let released = false;
    async function* source() {
      try {
        yield 'Title,Year\n';
        for (let i = 1; ; i++) {
          pulled++;
          yield `Work ${i},${1900 + (i % 100)}\n`;
        }
      } finally {
        released = true;
      }
    }
    const table = await readCsv(source());
    const first = await table.rows.next();
    expect(first.value).toEqual({ row: 1, line: 2, values: { title: 'Work 1', year: '1901' } });
    expect(pulled).toBeLessThanOrEqual(2);
    await table.close();
    expect(released).toBe(true);
  });

  it('destroys a Readable when the caller stops early', async () => {
    const stream = Readable.from(['a,b\n', '1,2\n', '3,4\n', '5,6\n']);
    const table = await readCsv(stream);
    for await (const row of table.rows) if (row.row === 1) break;
    expect(stream.destroyed).toBe(true);
  });

  it('reads 50,000 generated rows without the heap growing with them', async () => {
    // A 400-character cell per row: ~20 MB of text in all, far above what the check allows to stay behind.
    const padding = 'x'.repeat(400);
    async function* source() {
      yield 'Title,Notes,Width cm\n';
      for (let i = 1; i <= 50_000; i++) yield Buffer.from(`"Work ${i}","${padding}",${i % 200}\n`);
    }
    const gc = exposedGc();
    const table = await readCsv(source(), { maxRows: 50_000 });
    let count = 0;
    let baseline = 0;
    let growth = 0;
    for await (const row of table.rows) {
      count++;
      if (row.row === 1_000) baseline = heapAfterGc(gc);
      if (row.row === 49_000) growth = heapAfterGc(gc) - baseline;
    }
    expect(count).toBe(50_000);
    expect(growth).toBeLessThan(4 * 1024 * 1024);
  });
});

async function collect(rows: AsyncIterable<CsvRow>): Promise<CsvRow[]> {
  const all: CsvRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/** V8's gc(), which Jest does not expose: a flag set at run time makes new contexts get it. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
