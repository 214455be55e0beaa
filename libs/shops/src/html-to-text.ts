/**
 * Shops store descriptions as HTML; the showcase shows plain text (and must never render a shop's markup).
 * Block elements become line breaks, script/style bodies are dropped, the common entities are decoded and
 * whitespace is collapsed. Linear-time patterns only: the input is whatever a shop (or a webhook) sends, bounded
 * by `maxInput` before any work.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  times: '×',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/**
 * Removes every `open … close` span (case-insensitive), and an unclosed one to the end. One forward scan with
 * indexOf, so a body of many unclosed `<script` stays linear (a lazy regex would rescan the rest for each).
 */
function dropSpans(html: string, open: RegExp, close: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  open.lastIndex = 0;
  for (let m = open.exec(lower); m; m = open.exec(lower)) {
    out += html.slice(at, m.index) + ' ';
    const end = lower.indexOf(close, open.lastIndex);
    if (end < 0) return out;
    // Past the closing tag's own `>` (`</script >` included); `-->` holds its `>`.
    const gt = lower.indexOf('>', end);
    at = gt < 0 ? html.length : gt + 1;
    open.lastIndex = at;
  }
  return out + html.slice(at);
}

export function htmlToText(html: string | null | undefined, maxInput = 200_000): string {
  if (!html) return '';
  let bounded = html.slice(0, maxInput);
  bounded = dropSpans(bounded, /<!--/g, '-->');
  bounded = dropSpans(bounded, /<script\b/g, '</script');
  bounded = dropSpans(bounded, /<style\b/g, '</style');
  const text = bounded
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|li|ul|ol|h[1-6]|tr|table|section|article|blockquote)\b[^<>]*>/gi, '\n')
    // A tag starts with a letter, `/` or `!` (as HTML parses it: "1 < 2" is text). `[^<>]`, not `[^>]`: a stray
    // `<` ends the scan at the next `<`, so many of them stay linear.
    .replace(/<[a-zA-Z/!][^<>]*>/g, '');
  return decodeEntities(text)
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}
