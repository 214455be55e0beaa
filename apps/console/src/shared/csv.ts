/** A CSV file as rows of cells, the delimiter it uses sniffed from its header line. */
export interface ParsedCsv {
  delimiter: ';' | ',';
  rows: string[][];
}

/**
 * A CSV file's rows (RFC 4180: quoted cells may hold the delimiter, line breaks and doubled quotes), the
 * delimiter sniffed from the header line: ";" when it has more semicolons than commas, else ",". Blank
 * lines are left out. For the preview only: the server reads the file again, as the import does.
 */
export function parseCsv(text: string): ParsedCsv {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let commas = 0;
  let semis = 0;
  let q = false;
  let i;
  for (i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') q = !q;
    else if (q) continue;
    else if (ch === ',') commas++;
    else if (ch === ';') semis++;
    else if ((ch === '\n' || ch === '\r') && text.slice(0, i).trim()) break;
  }
  const delim = semis > commas ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  const end = function () {
    row.push(cell);
    if (row.length > 1 || row[0].trim() !== '') rows.push(row);
    row = [];
    cell = '';
  };
  q = false;
  for (i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else q = false;
    } else if (c === '"') q = true;
    else if (c === delim) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
    } else cell += c;
  }
  if (cell !== '' || row.length) end();
  return { delimiter: delim, rows: rows };
}
