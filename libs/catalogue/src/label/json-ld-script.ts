/**
 * Characters that must not appear raw inside a `<script>` element: `<` (so no `</script>` or `<!--` can
 * end or confuse the element), `>` and `&` (harmless in a script but escaped by convention, so the
 * output is safe in any HTML context), and U+2028 / U+2029 (line terminators to older JavaScript
 * parsers). Each becomes a JSON `\uXXXX` escape, which every JSON and JSON-LD parser reads back as the
 * same character.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * A JSON-LD object as a complete `<script type="application/ld+json">` element, safe to write into an
 * HTML page whatever the strings in it hold (user text such as a title `</script><script>alert(1)`).
 * Do not HTML-escape the result: the content of a script element is not HTML, and entities would
 * reach the JSON parser as-is. A JSON-LD block is data, not script: the pages' Content-Security-Policy
 * (script-src by hash) does not need to allow it, and browsers never execute it.
 *
 * @example
 * jsonLdScript({ name: 'A </script> B' });
 * // '<script type="application/ld+json">{"name":"A \u003c/script\u003e B"}</script>'
 */
export function jsonLdScript(obj: object): string {
  const json = JSON.stringify(obj).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/ld+json">${json}</script>`;
}
