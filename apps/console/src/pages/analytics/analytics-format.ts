/** Days (YYYY-MM-DD, UTC, as the API counts them) and numbers as the Analytics page writes them. */

export const DAY = 86400000;

export function dayMs(d: string): number {
  return Date.parse(d + 'T00:00:00Z');
}
export function addDays(d: string, n: number): string {
  return new Date(dayMs(d) + n * DAY).toISOString().slice(0, 10);
}
export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : Number(n).toLocaleString('en');
}
/** 0.3217 -> "32 %", 0.0625 -> "6.3 %". */
export function pct(r: number | null | undefined): string {
  if (r === null || r === undefined) return '—';
  const p = r * 100;
  return (p >= 10 || p === Math.round(p) ? Math.round(p) : Math.round(p * 10) / 10) + ' %';
}
export function dayName(d: string, year?: boolean): string {
  const o: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', timeZone: 'UTC' };
  if (year) o.year = 'numeric';
  return new Date(dayMs(d)).toLocaleDateString('en', o);
}
