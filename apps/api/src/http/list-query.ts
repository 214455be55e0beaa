import { queryInt, z } from '@app/schema';

/**
 * `?limit=`: a whole number 1..max, `fallback` when absent or empty. Read as `Number()` reads it, so
 * "20.0" is 20, as it always was.
 *
 * @example
 * const ShowcaseListQuery = z.object({ limit: limitQuery(100, 20), cursor: cursorQuery(/^([1-9][0-9]{0,9})$/) });
 */
export function limitQuery(max: number, fallback: number) {
  return z
    .preprocess((v) => (v === '' ? undefined : v), queryInt({ max, pattern: /^\s*[0-9]{1,9}(\.0*)?\s*$/, default: fallback }).optional())
    .transform((v) => v ?? fallback);
}

/**
 * Cursors are opaque to clients (base64url): a position in a newest-first list, so a page is stable while
 * new rows arrive. Any value the service did not make is a 400 naming `cursor`.
 */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(parts.join('.')).toString('base64url');
}

/** The largest Postgres `integer` (serial ids: showcases, items). */
export const PG_INT_MAX = 2_147_483_647;

const NOT_A_CURSOR = 'not a cursor from this list (use next_cursor of the previous page)';

/**
 * `?cursor=`: the parts (the pattern's groups) of a cursor this list made, undefined when absent or empty.
 * `fits` checks what the pattern cannot, such as a number's range against its column: a cursor the
 * database would refuse is a 400 like any other, never a 500.
 */
export function cursorQuery(pattern: RegExp, fits: (parts: string[]) => boolean = () => true) {
  return z
    .string({ error: () => NOT_A_CURSOR })
    .transform((v, ctx): string[] | undefined => {
      if (v === '') return undefined;
      const text = v.length <= 200 && /^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, 'base64url').toString() : '';
      const parts = pattern.exec(text)?.slice(1);
      if (parts && fits(parts)) return parts;
      ctx.addIssue({ code: 'custom', message: NOT_A_CURSOR });
      return z.NEVER;
    })
    .optional()
    .describe('next_cursor of the previous page.');
}
