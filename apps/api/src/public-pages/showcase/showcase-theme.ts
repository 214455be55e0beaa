/** Colours of the public showcase pages: the owner's brand colours, with text colours picked for contrast. */

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
// Colours were validated on the way in; checked again because they are written into CSS.
export const colour = (v: string | null, fallback: string): string => (v && HEX.test(v) ? v : fallback);

/** WCAG 2 relative luminance of a `#rgb` / `#rrggbb` colour. */
export function luminance(hex: string): number {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1..21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * Black or white text, whichever reads better on a background colour. 0.179 is where both give the same
 * contrast, so the pick is always the better one, and the better one is always >= 4.58:1 (WCAG AA for
 * normal text) whatever colour the owner chose.
 */
export function readableOn(hex: string): string {
  return luminance(hex) > 0.179 ? '#000000' : '#ffffff';
}

export interface ThemeInput {
  layout: string;
  primary: string | null;
  secondary: string | null;
}

/**
 * CSS custom properties for a layout: page colours, the header band (primary colour on `branded` and
 * `dark`), buttons (primary) and link chips (secondary), each with its readable text colour.
 */
export function themeVars(s: ThemeInput): string {
  const dark = s.layout === 'dark';
  const primary = colour(s.primary, '#0a66ff');
  const secondary = colour(s.secondary, dark ? '#2a2a2e' : '#1d1d1f');
  const base = dark
    ? { bg: '#111114', fg: '#f2f2f5', card: '#1c1c21', muted: '#b4b4bd' }
    : s.layout === 'salon'
      ? { bg: '#f3efe8', fg: '#1d1d1f', card: 'transparent', muted: '#55555c' }
      : { bg: '#ffffff', fg: '#1d1d1f', card: '#ffffff', muted: '#55555c' };
  const banded = s.layout === 'branded' || dark;
  const band = banded ? primary : 'transparent';
  const bandFg = banded ? readableOn(primary) : base.fg;
  return (
    `:root{--bg:${base.bg};--fg:${base.fg};--card:${base.card};--muted:${base.muted};--band:${band};--band-fg:${bandFg};` +
    `--primary:${primary};--primary-fg:${readableOn(primary)};--accent:${secondary};--accent-fg:${readableOn(secondary)}}`
  );
}
