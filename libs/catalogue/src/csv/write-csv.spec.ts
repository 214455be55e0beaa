import { readCsv, toCsv } from './index';

describe('toCsv', () => {
  it('quotes cells with quotes, commas and line breaks, and ends every row with CRLF', () => {
    expect(
      toCsv([
        ['row', 'problem'],
        ['3', 'width "abc" is not a number'],
        ['4', 'a, b'],
        ['5', 'two\nlines'],
        ['6', ''],
      ]),
    ).toBe('row,problem\r\n3,"width ""abc"" is not a number"\r\n4,"a, b"\r\n5,"two\nlines"\r\n6,\r\n');
    expect(toCsv([])).toBe('');
  });

  it("neutralizes cells a spreadsheet would run as formulas with a leading '", () => {
    const cells = ['=1+1', '+41 55 000', '-5', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("https://evil.example","x")'];
    expect(toCsv([cells])).toBe(`'=1+1,'+41 55 000,'-5,'@SUM(A1),'\t=1,"'\r=1","'=HYPERLINK(""https://evil.example"",""x"")"\r\n`);
    expect(toCsv([['a=1', 'x-y', 'mail@example.com']])).toBe('a=1,x-y,mail@example.com\r\n');
  });

  it('writes what readCsv reads back', async () => {
    const rows = [
      ['title', 'notes'],
      ['Still life, "pears"', 'line one\r\nline two'],
      ['Ünïcødé 🎨', ''],
    ];
    const table = await readCsv(toCsv(rows));
    const back = [table.headers];
    for await (const row of table.rows) back.push(table.headers.map((name) => row.values[name]));
    expect(back).toEqual(rows);
  });
});
