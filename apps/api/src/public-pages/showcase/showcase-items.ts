import { type AvailabilityKind, t, type MessageKey } from '@app/catalogue';
import type { Artwork } from '../artwork';
import { DEFAULT_PAGE_LOCALE, length, type PageLocale } from '../page-locale';
import type { LaunchPresentation } from '../platform';

// The thumbnail files are made by the showcase-picture pipeline's thumbnails stage (libs/plugins).
export { makesThumbnails, SHARE_FILE, THUMB_FILES, THUMB_WIDTHS, thumbHeight } from '@app/plugins';

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
  /** "On your wall, from a photo" (room/room-page.ts), with `?variant=` and `?lang=` as the others. */
  roomUrl?: string;
  /** WebP thumbnails of the poster, narrowest first (the `<img>` srcset). */
  thumbs: { url: string; width: number }[];
  /** The same widths in AVIF (a `<source>`: smaller, for the browsers that read it). */
  avifThumbs?: { url: string; width: number }[];
  /** The JPEG a shared link shows (SHARE_FILE); absent for a poster too small for thumbnails (the poster is shared). */
  shareUrl?: string;
  /** The poster's size in pixels, when known and the poster is the item's own (the shared image's true size without a JPEG). */
  posterSize?: { width: number; height: number };
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
  /** The gallery's label of a catalogued work, in the page's language; absent for a plain picture. */
  artwork?: Artwork;
  /** The sizes and frames it is sold in (absent: none); `ready` and `artwork` above are the default's. */
  variants?: PageVariant[];
}

/** One variant of an item as the pages show it. */
export interface PageVariant {
  id: string;
  sku: string;
  /** What the selector calls it: its name, else its size in the page's unit and its frame ("50 × 70 cm, oak"). */
  name: string;
  default: boolean;
  /** The price as the shop wrote it (null: none). */
  price: string | null;
  /** Its own availability, else the item's. */
  availability: AvailabilityKind;
  /** ready: its files serve it; building: its first files are being made; failed: none could be made. */
  state: 'ready' | 'building' | 'failed';
  /** The item as this variant shows it (its files, size, label and links, each carrying `?variant=`); once ready. */
  item?: PageItem & { ready: ReadyItem };
}

/** A variant that can be shown: its item view is there. */
export type ReadyVariant = PageVariant & { item: PageItem & { ready: ReadyItem } };

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

const FRAMES: Readonly<Record<string, MessageKey>> = { thin: 'frame.thin', classic: 'frame.classic', float: 'frame.float' };

/**
 * A short description of a resolved frame and mat (job result fields) in the page's language, or undefined
 * for none: "Classic walnut frame, white mat 2 in", "Klassischer Rahmen in Nussbaum, Passepartout in Weiß, 5,1 cm".
 */
export function frameLabel(result: Record<string, unknown>, loc: PageLocale = DEFAULT_PAGE_LOCALE): string | undefined {
  const f = result.frame;
  if (!isObject(f) || typeof f.style !== 'string' || f.style === 'none') return undefined;
  if (f.style === 'canvas') return t(loc.locale, 'frame.canvas');
  const key = FRAMES[f.style];
  if (!key) return undefined;
  const colour = (v: unknown): string => {
    const name = colourName(v);
    return COLOUR_NAMES.has(name) ? t(loc.locale, `colour.${name}` as MessageKey) : name;
  };
  const frameColour = colour(f.color);
  const label = t(loc.locale, key, { colour: frameColour ? t(loc.locale, 'frame.colour', { colour: frameColour }) : '' })
    .replace(/\s+/g, ' ')
    .trim();
  const m = result.mat;
  return isObject(m) && typeof m.width_inches === 'number' && m.width_inches > 0
    ? t(loc.locale, 'frame.withMat', {
        frame: label,
        colour: colour(m.color) || t(loc.locale, 'colour.white'),
        width: length(m.width_inches, loc),
      })
        .replace(/\s+/g, ' ')
        .trim()
    : label;
}
