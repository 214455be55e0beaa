import { ApiError } from './api-error';

/** `?limit=`: a whole number 1..max, `fallback` when absent. */
export function parseLimit(v: string | undefined, fallback: number, max: number): number {
  if (v === undefined || v === '') return fallback;
  const n = /^[0-9]{1,4}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= max)) throw ApiError.invalid('limit', `limit: a whole number from 1 to ${max}`);
  return n;
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

/**
 * A cursor's parts (the pattern's groups). `fits` checks what the pattern cannot, such as a number's range
 * against its column: a cursor the database would refuse is a 400 like any other, never a 500.
 */
export function decodeCursor(
  v: string | undefined,
  pattern: RegExp,
  fits: (parts: string[]) => boolean = () => true,
): string[] | undefined {
  if (v === undefined || v === '') return undefined;
  const text = v.length <= 200 && /^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, 'base64url').toString() : '';
  const parts = pattern.exec(text)?.slice(1);
  if (!parts || !fits(parts))
    throw ApiError.invalid('cursor', 'cursor: not a cursor from this list (use next_cursor of the previous page)');
  return parts;
}
