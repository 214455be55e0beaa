import { formatDimensions, formatLabel, framedDimensions, type ArtworkLabel, type AvailabilityKind, type LabelItem } from '@app/catalogue';
import { FRAME_DEFAULTS, type FrameStyle } from '@app/plugins';
import { esc } from '../http/html';
import { framedSize, type PageLocale } from './page-locale';

/**
 * A catalogued work as the public pages show it: its wall label (libs/catalogue formatLabel, in the page's
 * language and units), the label's size line, the description, and what its schema.org JSON-LD is made of.
 */
export interface Artwork {
  label: ArtworkLabel;
  /**
   * The size as galleries write it, height × width (× depth), the page's unit first ("76,2 × 101,6 cm
   * (30 × 40 in)"), with the framed size after it when framed. Only for a real size the gallery gave: the
   * 24 in default of a picture without one is the AR model's size, not the work's.
   */
  size?: string;
  description?: string;
  /** The JSON-LD's source fields (visualArtworkJsonLd). */
  ld: LabelItem;
}

/** What an item row and its job result say about the work. */
export interface ArtworkInput {
  /** The item's label fields (ShowcaseItemRow.label). */
  label: { artist?: string; year?: string; medium?: string; edition?: string; description?: string };
  availability?: string | null;
  /** The banner's title, else the upload's filename (not a made-up "Picture n"). */
  title?: string | null;
  /** The banner's price, as the gallery wrote it. */
  price?: string | null;
  /** The completed job's result: dimensions, fit (a real size was given), frame, outer_dimensions. */
  result: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * The work's depth, when it is the work's own: a canvas wrap's, or one the gallery gave for an unframed
 * picture (any depth other than the flat default). A framed work's depth is the frame's: it goes with
 * the framed size.
 */
function ownDepth(result: Record<string, unknown>): number | undefined {
  const f = isObject(result.frame) ? result.frame : undefined;
  const style = (typeof f?.style === 'string' ? f.style : 'none') as FrameStyle;
  const depth = f?.depth_inches;
  if (!positive(depth)) return undefined;
  if (style === 'canvas') return depth;
  return style === 'none' && depth !== FRAME_DEFAULTS.none.depth ? depth : undefined;
}

/**
 * The work behind a showcase item, or undefined for a plain picture: one with no label text, the default
 * availability and no real size (those keep the compact card they always had).
 */
export function artwork(input: ArtworkInput, loc: PageLocale): Artwork | undefined {
  const l = input.label ?? {};
  const r = input.result;
  const realSize = isObject(r.fit);
  const availability = (input.availability ?? 'available') as AvailabilityKind;
  const hasText = (['artist', 'year', 'medium', 'edition', 'description'] as const).some((k) => text(l[k]));
  if (!hasText && availability === 'available' && !realSize) return undefined;
  const dims = isObject(r.dimensions) ? r.dimensions : {};
  const outer = isObject(r.outer_dimensions) ? r.outer_dimensions : {};
  const size = realSize && positive(dims.width_inches) && positive(dims.height_inches);
  const depth = size ? ownDepth(r) : undefined;
  const ld: LabelItem = {
    title: text(input.title),
    artist: text(l.artist),
    year: text(l.year),
    medium: text(l.medium),
    edition: text(l.edition),
    description: text(l.description),
    availability,
    price: text(input.price),
    ...(size ? { width_inches: dims.width_inches as number, height_inches: dims.height_inches as number, depth_inches: depth } : {}),
  };
  const label = formatLabel(ld, { units: loc.units, locale: loc.locale });
  const art: Artwork = { label, ld };
  if (label.dimensions) {
    const framed = framedDimensions(
      { widthInches: dims.width_inches as number, heightInches: dims.height_inches as number },
      {
        widthInches: outer.width_inches as number | undefined,
        heightInches: outer.height_inches as number | undefined,
        depthInches: outer.depth_inches as number | undefined,
      },
    );
    art.size = framedSize(label.dimensions, framed && formatDimensions(framed, { units: loc.units, locale: loc.locale }), loc);
  }
  if (ld.description) art.description = ld.description;
  return art;
}

/**
 * The headline as HTML: the artist, the title (`<cite class="title">`, italic; upright in Japanese, whose
 * 《》 set it off) and the year, each in its own element, with the locale's separators between.
 */
export function headlineHtml(l: ArtworkLabel): string {
  const parts: { cls: 'artist' | 'title' | 'year'; text: string }[] = [];
  if (l.artist) parts.push({ cls: 'artist', text: l.artist });
  if (l.title) parts.push({ cls: 'title', text: l.title });
  if (l.year) parts.push({ cls: 'year', text: l.year });
  let next = 0;
  return l.headline
    .map((run) => {
      const p = parts[next];
      const isPart = p && (run.text === p.text || (p.cls === 'title' && run.text === `《${p.text}》`));
      if (!isPart) return esc(run.text);
      next++;
      return p.cls === 'title'
        ? `<cite class="title${run.italic ? '' : ' upright'}">${esc(run.text)}</cite>`
        : `<span class="${p.cls}">${esc(run.text)}</span>`;
    })
    .join('');
}

/** The availability when it is worth saying (not "available"): "● Sold" with the red dot, "Reserved", "Not for sale". */
export function availabilityHtml(l: ArtworkLabel, tag: 'span' | 'p' = 'span'): string {
  const a = l.availability;
  if (a.kind === 'available') return '';
  const dot = a.sold ? '<span class="dot" aria-hidden="true"></span>' : '';
  return `<${tag} class="availability ${a.kind}" data-availability="${a.kind}">${dot}${esc(a.text)}</${tag}>`;
}

/**
 * The label's lines in gallery order after the headline: medium; size; edition; price (only while for
 * sale: formatLabel leaves it out of sold and not-for-sale works); availability.
 */
export function labelLines(art: Artwork, tag: 'span' | 'p'): string {
  const l = art.label;
  const line = (cls: string, v: string | undefined) => (v ? `<${tag} class="${cls}">${esc(v)}</${tag}>` : '');
  return line('medium', l.medium) + line('dims', art.size) + line('edition', l.edition) + line('price', l.price) + availabilityHtml(l, tag);
}

/** Shared by every page that shows a label (cards, item, wall and embed pages). */
export const LABEL_STYLE = `
cite.title{font-style:italic}cite.title.upright{font-style:normal}
.availability{display:inline-flex;align-items:center;gap:.4em;font-weight:600}
.availability .dot{flex:none;display:inline-block;width:.65em;height:.65em;border-radius:50%;background:#d0021b}
`;
