/** A value for a `{name}` placeholder: text as it is, numbers formatted for the locale. */
export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * Fills `{name}` placeholders. Numbers go through `Intl.NumberFormat(locale)` so "1,200 sizes" reads
 * "1.200 Größen" in German. A placeholder without a value is left as `{name}`: a visible mistake in a
 * test is better than a public page that throws. The result is plain text: HTML-escape it where it is
 * written into a page (values are inserted as given).
 *
 * @example
 * interpolate('from {price}', { price: '€ 900' }, 'en'); // 'from € 900'
 * interpolate('{n} sizes', { n: 1200 }, 'de'); // '1.200 sizes'
 */
export function interpolate(template: string, params: MessageParams | undefined, locale: string): string {
  if (!params) return template;
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const v = params[name]!;
    return typeof v === 'number' ? new Intl.NumberFormat(locale).format(v) : v;
  });
}
