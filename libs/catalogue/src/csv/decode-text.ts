/** What the reader accepts: a Node `Readable`, any (async) iterable of byte or text chunks, or one string or buffer. */
export type CsvSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Uint8Array | string;

/**
 * Turns a byte stream into text chunks as UTF-8, holding nothing but the decoder's few pending bytes: a character
 * split across two chunks comes out whole in the second. A leading byte-order mark is dropped (Excel's "CSV UTF-8"
 * writes one). Bytes that are not UTF-8 come out as U+FFFD, which the tokenizer reports with the row they are in —
 * a row number helps more than failing somewhere inside a 64 KiB chunk.
 */
export async function* decodeText(source: CsvSource): AsyncGenerator<string, void, undefined> {
  // The BOM is dropped below rather than by the decoder, so that string chunks and byte chunks lose it alike.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let atStart = true;
  for await (const chunk of typeof source === 'string' || source instanceof Uint8Array ? [source] : source) {
    // A string after bytes: whatever bytes were pending are flushed first, so the text stays in order.
    let text = typeof chunk === 'string' ? decoder.decode() + chunk : decoder.decode(chunk, { stream: true });
    if (atStart && text.length > 0) {
      atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length > 0) yield text;
  }
  // A multi-byte character cut off by the end of the file comes out as U+FFFD.
  const tail = decoder.decode();
  if (tail.length > 0) yield tail;
}
