import { describeAvailability, t, type AvailabilityKind, type Locale, type MessageKey } from '@app/catalogue';
import type { ItemVariant, VariantFiles } from '@app/persistence';
import { parsePresentation } from '@app/plugins';
import { esc } from '../../http/html';
import { framedSize, plainSize, plainSizeBoth, type PageLocale } from '../page-locale';
import type { LaunchPresentation } from '../platform';
import type { PageVariant, ReadyVariant } from './showcase-items';

/**
 * The sizes and frames an item is sold in, as its pages show them: a radio group on the item and wall pages
 * whose choice swaps the picture, the size, price, buy link and every AR link without a reload (the item
 * pages' script, NAV_SCRIPT, reads each variant's links from a JSON block the server writes), "from <lowest
 * price>" and "<n> sizes" on the showcase card. `?variant=<sku>` selects one on the item, wall and embed pages.
 */

/** The fields of a picture result a variant's build replaces (libs/persistence withDefaultVariant). */
const PICTURE_FIELDS = ['files', 'dimensions', 'outer_dimensions', 'fit', 'placement', 'allow_scaling', 'finish', 'frame', 'mat'] as const;

/**
 * The item's result as `v` shows it: `result` is the item's as the repository gives it (the default variant's
 * files and commerce fields over the job's result); `v`'s build and price, link and call to action replace
 * them. A field `v` leaves empty keeps the item's own value, which the default's overlay hides when the
 * default set it: then it is left out rather than shown as the default's.
 */
export function variantResult(result: Record<string, unknown>, v: ItemVariant, def: ItemVariant): Record<string, unknown> {
  const out: Record<string, unknown> = { ...result };
  if (v.build) {
    for (const k of PICTURE_FIELDS) {
      if (v.build[k] !== undefined) out[k] = v.build[k];
      else if (k === 'fit') delete out.fit;
    }
  }
  const banner = { ...((result.banner as Record<string, unknown> | null | undefined) ?? {}) };
  for (const k of ['price', 'link_url', 'call_to_action'] as const) {
    if (v[k] !== null) banner[k] = v[k];
    else if (def[k] !== null) delete banner[k];
  }
  out.banner = banner;
  return out;
}

/**
 * The size of an item sold in variants, as every page states a size (height × width in both units, the page's
 * first, and the framed size after it, labelled: "70 × 50 cm (27,6 × 19,7 in), 77,6 × 57,6 × 3,2 cm (30,6 × 22,7
 * × 1,3 in) framed"). The details, the card and the AR banners of such an item state it this one way.
 */
export function shopSize(widthInches: number, heightInches: number, p: LaunchPresentation | undefined, loc: PageLocale): string {
  const f = p?.framed;
  return framedSize(
    plainSizeBoth(widthInches, heightInches, loc),
    f && plainSizeBoth(f.widthInches, f.heightInches, loc, f.depthInches),
    loc,
  );
}

/** A variant's availability: its own when it says more than "available", else the item's. */
export function variantAvailability(item: string | null | undefined, v: Pick<ItemVariant, 'availability'>): AvailabilityKind {
  return describeAvailability(v.availability !== 'available' ? v.availability : item, 'en').kind;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
const COLOURS = new Set(['black', 'white', 'oak', 'walnut', 'gold', 'silver']);
const FRAME_KEYS: Readonly<Record<string, MessageKey>> = { thin: 'frame.thin', classic: 'frame.classic', float: 'frame.float' };

/** The frame in a word or two: its colour ("oak"), else its kind ("Canvas wrap"), with "with mat"; '' for none. */
function shortFrame(frame: unknown, mat: unknown, locale: Locale): string {
  if (!isObject(frame) || typeof frame.style !== 'string' || frame.style === 'none') return '';
  let word: string;
  if (frame.style === 'canvas') word = t(locale, 'frame.canvas');
  else if (typeof frame.color === 'string' && COLOURS.has(frame.color)) word = t(locale, `colour.${frame.color}` as MessageKey);
  else if (FRAME_KEYS[frame.style]) word = t(locale, FRAME_KEYS[frame.style]!, { colour: '' }).replace(/\s+/g, ' ').trim();
  else return '';
  // A float frame's reveal is its own: only a mat someone chose counts.
  const matted = frame.style !== 'float' && isObject(mat) && positive(mat.width_inches);
  return matted ? t(locale, 'variant.withMat', { frame: word }) : word;
}

/**
 * A variant's name on the pages: the shop's, else its picture size in the page's unit (height × width, as every
 * size) and its frame, from its files once built, else from its spec ("70 × 50 cm, oak" for a 50 cm wide print,
 * "59,4 × 42 cm", "70 × 50 cm, black with mat"); its SKU when neither says anything.
 */
export function variantName(v: Pick<ItemVariant, 'name' | 'spec' | 'sku'>, build: VariantFiles | null, loc: PageLocale): string {
  if (v.name.trim()) return v.name.trim();
  const dims = isObject(build?.dimensions) ? build.dimensions : v.spec;
  const size = positive(dims.width_inches) && positive(dims.height_inches) ? plainSize(dims.width_inches, dims.height_inches, loc) : '';
  let frame = '';
  if (build) frame = shortFrame(build.frame, build.mat, loc.locale);
  else {
    try {
      const p = parsePresentation(v.spec);
      frame = shortFrame(p.frame, p.mat, loc.locale);
    } catch {
      frame = '';
    }
  }
  if (size && frame) return t(loc.locale, 'variant.name', { size, frame });
  return size || frame || v.sku;
}

/**
 * The number a price text states, for comparing prices ("€ 9.500" 9500, "$1,200.50" 1200.5, "1.200,50 €"
 * 1200.5, "¥1,200,000" 1200000, "12,50" 12.5), or undefined without one. A mark used once and followed by
 * exactly three digits groups thousands (prices are not written to a tenth of a cent); with both marks, the
 * last is the decimal one.
 */
export function priceValue(text: string): number | undefined {
  const m = /\d(?:[\d.,'’ \u00a0\u202f\u2009]*\d)?/.exec(text);
  if (!m) return undefined;
  const s = m[0].replace(/['’ \u00a0\u202f\u2009]/g, '');
  const dot = s.lastIndexOf('.');
  const comma = s.lastIndexOf(',');
  let decimal = '';
  if (dot >= 0 && comma >= 0) decimal = dot > comma ? '.' : ',';
  else if (dot >= 0 || comma >= 0) {
    const mark = dot >= 0 ? '.' : ',';
    const once = s.indexOf(mark) === s.lastIndexOf(mark);
    if (once && s.length - s.lastIndexOf(mark) - 1 !== 3) decimal = mark;
  }
  const digits = decimal
    ? s
        .split(decimal === '.' ? ',' : '.')
        .join('')
        .replace(decimal, '.')
    : s.replace(/[.,]/g, '');
  const n = Number(digits);
  return Number.isFinite(n) ? n : undefined;
}

/** Whether a variant can be bought: available or reserved (as a catalogued work). */
export const variantForSale = (v: Pick<PageVariant, 'availability'>): boolean =>
  v.availability === 'available' || v.availability === 'reserved';

/**
 * The card's price of an item with variants: "from <lowest>" over the variants for sale (all of them when
 * none is), the lowest by the number its text states, written as that variant writes it; the price alone
 * when every variant costs the same; undefined when no price can be read.
 */
export function fromPrice(variants: readonly PageVariant[], locale: Locale): string | undefined {
  const forSale = variants.filter(variantForSale);
  const priced = (forSale.length ? forSale : variants)
    .map((v) => ({ text: v.price, value: v.price ? priceValue(v.price) : undefined }))
    .filter((p): p is { text: string; value: number } => p.value !== undefined);
  if (!priced.length) return undefined;
  const lowest = priced.reduce((a, b) => (b.value < a.value ? b : a));
  return priced.every((p) => p.value === lowest.value) ? lowest.text : t(locale, 'price.from', { price: lowest.text });
}

/** The variant a page shows: the one `sku` names if it can be shown, else the default, else the first ready. */
export function selectedVariant(variants: readonly PageVariant[] | undefined, sku?: string): ReadyVariant | undefined {
  const ready = (variants ?? []).filter((v): v is ReadyVariant => v.item !== undefined);
  return ready.find((v) => v.sku === sku) ?? ready.find((v) => v.default) ?? ready[0];
}

/** The selector's style (item and wall pages). `[hidden]` wins over the elements' own display. */
export const VARIANT_STYLE = `
[hidden]{display:none!important}
.variants{margin:16px 0 8px;padding:0;border:0;min-width:0}
.variants legend{padding:0;margin:0 0 8px;font-weight:650}
.variants .options{display:grid;gap:8px}
.variants label{display:flex;align-items:center;flex-wrap:wrap;gap:4px 12px;min-height:44px;padding:8px 12px;border:2px solid rgba(127,127,127,.45);border-radius:10px;cursor:pointer}
.variants label:has(input:checked){border-color:var(--primary);box-shadow:inset 0 0 0 1px var(--primary)}
.variants label:has(input:focus-visible){outline:3px solid var(--primary);outline-offset:2px}
.variants label:has(input:disabled){cursor:default;opacity:.75}
.variants input{flex:none;width:20px;height:20px;margin:0;accent-color:var(--primary)}
.variants .name{flex:1 1 8em;min-width:0;overflow-wrap:anywhere}
.variants .vprice{font-weight:650;white-space:nowrap}
.variants .state{flex-basis:100%;padding-left:32px;font-size:14px;color:var(--muted)}
.variants .state.sold::before{content:"";display:inline-block;width:.6em;height:.6em;margin-right:.4em;border-radius:50%;background:#d0021b}
.wall-variants{max-width:60ch}
`;

/**
 * The radio group: one native radio per variant (arrow keys move between them, Tab leaves the group), each
 * label with the name, the price, and "Sold" (or "Reserved", "Not for sale"), a variant without files yet
 * disabled with "Preparing…" (one that failed: "Not available").
 */
export function variantSelector(variants: readonly PageVariant[], selected: PageVariant, locale: Locale, extraClass = ''): string {
  const options = variants
    .map((v) => {
      const ready = v.item !== undefined;
      const state = !ready
        ? `<span class="state">${esc(t(locale, v.state === 'failed' ? 'status.notAvailable' : 'variant.preparing'))}</span>`
        : v.availability !== 'available'
          ? `<span class="state ${v.availability}">${esc(describeAvailability(v.availability, locale).text)}</span>`
          : '';
      const attrs = `${v === selected ? ' checked' : ''}${ready ? '' : ' disabled'}`;
      return (
        `<label data-sku="${esc(v.sku)}"><input type="radio" name="variant" value="${esc(v.sku)}" autocomplete="off"${attrs}>` +
        `<span class="name">${esc(v.name)}</span>${v.price ? ` <span class="vprice">${esc(v.price)}</span>` : ''}${state ? ` ${state}` : ''}</label>`
      );
    })
    .join('');
  return (
    `<fieldset class="variants${extraClass ? ` ${extraClass}` : ''}" id="variants" data-selected="${esc(selected.sku)}">` +
    `<legend>${esc(t(locale, 'variant.legend'))}</legend><div class="options">${options}</div></fieldset>`
  );
}

/** What the page's script needs to show one variant: texts, picture, links (see NAV_SCRIPT). */
export interface VariantData {
  sku: string;
  /** The object's outer width / height (the media box's `--ar`). */
  ratio: number;
  img: { src: string; srcset: string; avif: string; w: number; h: number };
  dims: string;
  frame: string;
  /** The price while for sale ('' otherwise: a sold size's price is not shown in the details). */
  price: string;
  kind: AvailabilityKind;
  /** The availability in words unless available. */
  availability: string;
  buy: { href: string; text: string } | null;
  /** Hrefs by the `data-v-href` names of the page's links (ar, wall, item, embed) and the files. */
  links: Record<string, string>;
  /** The Quick Look banner's link (iOS `data-link`), '' for none. */
  link: string;
  /** The Quick Look button's icon. */
  icon: string;
}

/** The JSON block (never executed: the page's script-src does not apply) the page's script reads. */
export function variantDataScript(data: readonly VariantData[]): string {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="variant-data">${json}</script>`;
}
