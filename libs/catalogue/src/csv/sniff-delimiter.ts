/** The delimiters spreadsheet exports use: `,` (English locales), `;` (locales with a decimal comma), tab ("Text"). */
export type CsvDelimiter = ',' | ';' | '\t';

// On a tie the earlier one wins: `,` is the RFC 4180 default, `;` is more common in exports than tab.
const CANDIDATES: readonly CsvDelimiter[] = [',', ';', '\t'];

/**
 * Guesses a file's delimiter from its header line: whichever of `,`, `;` and tab occurs most outside double quotes
 * (`,` wins ties, and a line with none of them is a one-column `,` file). Only the first line is looked at — it stops
 * at the first line break outside quotes — because header names rarely hold delimiters while data cells often do
 * (a title "Still life; pears" in a `,` file).
 *
 * @example
 * sniffDelimiter('Title;Width cm;Height cm'); // ';'
 * sniffDelimiter('"Smith, Jane";Title');      // ';' (the quoted comma does not count)
 * sniffDelimiter('Title\tArtist');            // '\t'
 * sniffDelimiter('Title');                    // ','
 */
export function sniffDelimiter(headerLine: string): CsvDelimiter {
  const counts = new Map<string, number>(CANDIDATES.map((d) => [d, 0]));
  let inQuotes = false;
  for (const char of headerLine) {
    // A doubled quote toggles twice, so it needs no special case.
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (char === '\n' || char === '\r')) break;
    else if (!inQuotes && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: CsvDelimiter = ',';
  for (const candidate of CANDIDATES) if (counts.get(candidate)! > counts.get(best)!) best = candidate;
  return best;
}
