/**
 * The key a header cell is known by in each row's `values`: trimmed, lower-cased, and each run of spaces or hyphens
 * turned into one `_`, so "Image URL", "image-url" and " Image  URL " all name the same column. Other punctuation is
 * kept ("Width (cm)" -> `width_(cm)`), so two different headers never silently become one.
 *
 * @example
 * normalizeHeader('Image URL'); // 'image_url'
 * normalizeHeader('width-cm');  // 'width_cm'
 * normalizeHeader(' Title ');   // 'title'
 */
export function normalizeHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}
