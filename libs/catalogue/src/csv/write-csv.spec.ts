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
    // A leading tab or CR is itself a separator: what follows it is neutralised too.
    expect(toCsv([cells])).toBe(`'=1+1,'+41 55 000,'-5,'@SUM(A1),"'\t'=1","'\r'=1","'=HYPERLINK(""https://evil.example"",""x"")"\r\n`);
    expect(toCsv([['a=1', 'x-y', 'mail@example.com']])).toBe('a=1,x-y,mail@example.com\r\n');
  });

  it('quotes a cell holding any delimiter the importer reads, and neutralises a formula after each separator in it', () => {
    // Excel in a `;` locale (de, fr, nl) splits `x;=1+1` at the `;`, quotes or not: the second part would run.
    expect(toCsv([['80', "x;=1+1 is also row 1's"]])).toBe(`80,"x;'=1+1 is also row 1's"\r\n`);
    expect(toCsv([['a;b', 'a\tb', 'a,b', 'a;-5', 'a,@x', 'a\t+1', 'one\n=2', 'a; =1']])).toBe(
      `"a;b","a\tb","a,b","a;'-5","a,'@x","a\t'+1","one\n'=2","a; =1"\r\n`,
    );
    // Read back with any of the three delimiters, no cell starts with a formula character.
    const line = toCsv([['1', 'invalid', "x;=1+1 is also row 1's", 'a\t@SUM(A1)', 'b,+1']]);
    for (const sep of [',', ';', '\t'])
      for (const part of line.trimEnd().split(sep)) expect(part.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
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
