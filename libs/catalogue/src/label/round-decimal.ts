/**
 * `v` rounded half away from zero to `decimals` places, by its decimal digits rather than its binary
 * value: `Math.round(1.005 * 100)` is 100 because 1.005 * 100 is 100.49999999999999 in binary; going
 * through 15 significant digits first (more than any measurement has, fewer than a double's noise)
 * rounds what a person wrote.
 *
 * @example
 * roundDecimal(1.005, 2); // 1.01
 * roundDecimal(76.19999999999999, 2); // 76.2
 */
export function roundDecimal(v: number, decimals: number): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** decimals;
  const scaled = Number((Math.abs(v) * f).toPrecision(15));
  return (Math.sign(v) * Math.round(scaled)) / f;
}
