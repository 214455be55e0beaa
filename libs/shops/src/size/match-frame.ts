/**
 * The frame preset a variant's options choose from the connection's `frames` table (option value → preset, null
 * for "no frame"). Compared trimmed and case-insensitively, since shops differ in how they type "Oak Frame".
 * Returns the preset, `null` when an option names "no frame" explicitly, `undefined` when no option is in the
 * table (the showcase's default applies). The first option that matches wins.
 *
 * @example
 * matchFrame([{ name: 'Frame', value: ' oak FRAME ' }], { 'Oak frame': 'classic' }); // 'classic'
 * matchFrame([{ name: 'Frame', value: 'Unframed' }], { Unframed: null }); // null
 */
export function matchFrame(
  options: readonly { name: string; value: string }[],
  frames: Readonly<Record<string, string | null>>,
): string | null | undefined {
  const key = (s: string): string => s.trim().toLowerCase();
  const table = new Map(Object.entries(frames).map(([k, v]) => [key(k), v]));
  for (const option of options) {
    const preset = table.get(key(option.value));
    if (preset !== undefined) return preset;
  }
  return undefined;
}
