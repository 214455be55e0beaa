/** HTML-escapes text and attribute values: every user-supplied or URL string on our pages goes through this. */
export const esc = (s: string): string =>
  s.replace(/[&<>"'`]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[c] as string);
