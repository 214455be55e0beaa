import { CsvError } from './csv-error';

/** The text read so far (to be tokenized next) and, within it, the header line to sniff the delimiter from. */
export interface BufferedHeader {
  readonly buffered: string;
  /** The first line with anything but whitespace on it, without its line break; `undefined` for an empty file. */
  readonly headerLine: string | undefined;
}

/**
 * Pulls text until the header line is complete, so its delimiter can be sniffed before any record is tokenized.
 * Quotes are followed (a quoted header cell may hold a line break); leading blank lines are passed over. It keeps
 * at most `maxLength` characters plus one chunk: a file with no line break, or a runaway quote, fails here rather
 * than being read whole.
 */
export async function bufferHeaderLine(texts: AsyncIterator<string>, maxLength: number): Promise<BufferedHeader> {
  let buffered = '';
  let inQuotes = false;
  let lineStart = 0;
  let hasContent = false;
  for (;;) {
    const next = await texts.next();
    if (next.done) return { buffered, headerLine: hasContent ? buffered.slice(lineStart) : undefined };
    const from = buffered.length;
    buffered += next.value;
    for (let i = from; i < buffered.length; i++) {
      const char = buffered[i];
      if (char === '"') {
        inQuotes = !inQuotes; // a doubled quote toggles twice
        hasContent = true;
      } else if (inQuotes) {
        continue;
      } else if (char === '\n' || char === '\r') {
        if (hasContent) return { buffered, headerLine: buffered.slice(lineStart, i) };
        lineStart = i + 1;
      } else if (char.trim() !== '') {
        hasContent = true;
      }
    }
    if (buffered.length > maxLength) {
      throw new CsvError(`header (line 1): no complete header row within the first ${maxLength} characters`, { line: 1 });
    }
  }
}
