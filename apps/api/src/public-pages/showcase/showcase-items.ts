import type { LaunchPresentation } from '../platform';

// The thumbnail files are made by the showcase-picture pipeline's thumbnails stage (libs/plugins).
export { SHARE_FILE, THUMB_FILES, THUMB_WIDTHS, thumbHeight } from '@app/plugins';

export interface ReadyItem {
  posterUrl: string;
  glbUrl: string;
  usdzUrl: string;
  embedUrl: string;
  /** The picture's size. */
  widthInches: number;
  heightInches: number;
  /** The item's own wall placement / locked size / banner; absent for items made before these existed (old launch links). */
  presentation?: LaunchPresentation;
  /** The item's own page (the larger view) and its wall preview. */
  itemUrl: string;
  wallUrl: string;
  /** WebP thumbnails of the poster, narrowest first (the `<img>` srcset). */
  thumbs: { url: string; width: number }[];
  /** The same widths in AVIF (a `<source>`: smaller, for the browsers that read it). */
  avifThumbs?: { url: string; width: number }[];
  /** The JPEG a shared link shows (SHARE_FILE). */
  shareUrl?: string;
  /** "Classic black frame, white mat 2 in", when the item has a frame. */
  frameLabel?: string;
}

export interface PageItem {
  id: number;
  status: string;
  progress: number;
  title: string;
  /** Present once completed. */
  ready?: ReadyItem;
}

/** The object's outer size: what the poster shows (the frame included) and what hangs on the wall. */
export function outerInches(r: ReadyItem): { w: number; h: number } {
  const f = r.presentation?.framed;
  return f ? { w: f.widthInches, h: f.heightInches } : { w: r.widthInches, h: r.heightInches };
}

/** The title a visitor sees: the banner title, else the upload's filename or "Picture n". */
export const displayTitle = (i: PageItem): string => i.ready?.presentation?.banner.title ?? i.title;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const COLOUR_NAMES = new Set(['black', 'white', 'oak', 'walnut', 'gold', 'silver']);
const colourName = (v: unknown): string => (typeof v === 'string' && (COLOUR_NAMES.has(v) || /^#[0-9a-f]{6}$/i.test(v)) ? v : '');

/** A short description of a resolved frame and mat (job result fields), or undefined for none. */
export function frameLabel(result: Record<string, unknown>): string | undefined {
  const f = result.frame;
  if (!isObject(f) || typeof f.style !== 'string' || f.style === 'none') return undefined;
  if (f.style === 'canvas') return 'Canvas wrap';
  const style = f.style.charAt(0).toUpperCase() + f.style.slice(1);
  const label = `${style} ${colourName(f.color)} frame`.replace(/\s+/g, ' ');
  const m = result.mat;
  return isObject(m) && typeof m.width_inches === 'number' && m.width_inches > 0
    ? `${label}, ${colourName(m.color) || 'white'} mat ${m.width_inches} in`.replace(/\s+/g, ' ')
    : label;
}

/** "24 × 36 in (61 × 91 cm)". */
export function sizeWithCm(w: number, h: number): string {
  const cm = (v: number) => Math.round(v * 2.54);
  return `${w} × ${h} in (${cm(w)} × ${cm(h)} cm)`;
}
