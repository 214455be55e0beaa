import { UserError } from '@app/pipeline';

/** How the pictures of a gallery wall are laid out. */
export type WallArrangement = 'row' | 'grid' | 'salon' | 'custom';
/** Where pictures of different heights line up in a row: their centres, tops or bottoms. */
export type WallAlign = 'center' | 'top' | 'bottom';

/** Fewest and most pictures on one wall. */
export const MIN_WALL_PICTURES = 2;
export const MAX_WALL_PICTURES = 12;
/** Widest arrangement, outer edge to outer edge: 40 ft. */
export const MAX_WALL_WIDTH_INCHES = 480;
/** Default and largest gap between neighbouring outer edges. */
export const DEFAULT_WALL_GAP_INCHES = 3;
export const MAX_WALL_GAP_INCHES = 48;

export const WALL_ARRANGEMENTS: readonly WallArrangement[] = ['row', 'grid', 'salon', 'custom'];
export const WALL_ALIGNS: readonly WallAlign[] = ['center', 'top', 'bottom'];

/** A picture as the layout sees it: the framed object's outer size in inches. */
export interface WallPictureSize {
  outer: { width: number; height: number };
}

export interface ArrangeWallOptions {
  arrangement: WallArrangement;
  /** Between neighbouring outer edges, 0..48 in (default 3). Ignored by `custom`. */
  gapInches?: number;
  /** Row and grid: where pictures of different heights line up within a row (default `center`). */
  align?: WallAlign;
  /** Grid: columns (default ceil(sqrt(n))). */
  columns?: number;
  /** Custom: each picture's outer centre, y up, relative to the wall's centre (inches). */
  custom?: { x_inches: number; y_inches: number }[];
  /** The request field listing the pictures, naming an item in errors (`items[3].x_inches`); default `items`. */
  itemsParam?: string;
}

/** A picture's outer centre on the wall, inches, y up. */
export interface WallPosition {
  x: number;
  y: number;
}

export interface WallLayout {
  arrangement: WallArrangement;
  /** Each picture's outer centre, in the order given. */
  positions: WallPosition[];
  /** Outer bounds of the whole arrangement (inches) and their centre (0, 0 but for `custom`). */
  bounds: { width: number; height: number; center: WallPosition };
  gap_inches: number;
  align: WallAlign;
  /** Grid only: the columns used. */
  columns?: number;
}

const invalid = (param: string, message: string) => new UserError('parameter_invalid', `wall: ${param}: ${message}`, { param });

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** How far apart two rectangles are (the larger of the horizontal and vertical clearances); < 0 when they overlap. */
export function wallClearance(a: Rect, b: Rect): number {
  const dx = Math.abs(a.x - b.x) - (a.w + b.w) / 2;
  const dy = Math.abs(a.y - b.y) - (a.h + b.h) / 2;
  return Math.max(dx, dy);
}

/** Outer bounds of rectangles: size and centre. */
function boundsOf(rects: Rect[]): WallLayout['bounds'] {
  const x0 = Math.min(...rects.map((r) => r.x - r.w / 2));
  const x1 = Math.max(...rects.map((r) => r.x + r.w / 2));
  const y0 = Math.min(...rects.map((r) => r.y - r.h / 2));
  const y1 = Math.max(...rects.map((r) => r.y + r.h / 2));
  return { width: x1 - x0, height: y1 - y0, center: { x: (x0 + x1) / 2, y: (y0 + y1) / 2 } };
}

/** A line of pictures laid left to right with `gap` between outer edges, centred on x = 0, lined up on `baseline`. */
function line(sizes: { w: number; h: number }[], gap: number, y: (h: number) => number): Rect[] {
  const total = sizes.reduce((s, p) => s + p.w, 0) + gap * (sizes.length - 1);
  let left = -total / 2;
  return sizes.map((p) => {
    const r = { x: left + p.w / 2, y: y(p.h), w: p.w, h: p.h };
    left += p.w + gap;
    return r;
  });
}

/** y of a picture of height h in a band [bottom, top], lined up per `align`. */
const inBand = (align: WallAlign, bottom: number, top: number) => (h: number) =>
  align === 'top' ? top - h / 2 : align === 'bottom' ? bottom + h / 2 : (bottom + top) / 2;

function arrangeRow(sizes: { w: number; h: number }[], gap: number, align: WallAlign): Rect[] {
  const H = Math.max(...sizes.map((s) => s.h));
  return line(sizes, gap, inBand(align, -H / 2, H / 2));
}

function arrangeGrid(sizes: { w: number; h: number }[], gap: number, align: WallAlign, columns: number): Rect[] {
  const n = sizes.length;
  const rows = Math.ceil(n / columns);
  // Every column as wide as its widest picture, every row as tall as its tallest; pictures centred in their cells.
  const colW = Array.from({ length: columns }, (_, c) => Math.max(0, ...sizes.filter((_, i) => i % columns === c).map((s) => s.w)));
  const rowH = Array.from({ length: rows }, (_, r) => Math.max(...sizes.slice(r * columns, (r + 1) * columns).map((s) => s.h)));
  const totalH = rowH.reduce((a, b) => a + b, 0) + gap * (rows - 1);
  const out: Rect[] = [];
  let top = totalH / 2;
  for (let r = 0; r < rows; r++) {
    const row = sizes.slice(r * columns, (r + 1) * columns);
    // A short last row is centred under the others (three over two).
    const span = row.reduce((s, _, c) => s + colW[c], 0) + gap * (row.length - 1);
    let left = -span / 2;
    const y = inBand(align, top - rowH[r], top);
    row.forEach((s, c) => {
      out.push({ x: left + colW[c] / 2, y: y(s.h), w: s.w, h: s.h });
      left += colW[c] + gap;
    });
    top -= rowH[r] + gap;
  }
  return out;
}

/**
 * A salon hang: the largest picture is the centrepiece, on the horizontal centre line; the others, largest
 * first, go alternately right and left of it. Up to 4 pictures make one line of centres. Beyond 4, the others
 * hang in columns of two on each side: one above the line (its bottom `gap / 2` over it), one below (its top
 * `gap / 2` under it), the larger of a pair above on the right and below on the left, so the weight crosses
 * over; an odd last picture hangs alone on the line, outermost. From 10 pictures the columns hold three: the
 * column's largest centred on the line, one `gap` over it and one `gap` under it (a short last column as above). Columns are as wide as their wider picture,
 * pictures centred in them; `gap` between columns and between the two of a pair.
 */
function arrangeSalon(sizes: { w: number; h: number }[], gap: number): Rect[] {
  const order = sizes.map((s, i) => ({ ...s, i })).sort((a, b) => b.w * b.h - a.w * a.h || a.i - b.i);
  const out: Rect[] = new Array(sizes.length);
  const [centre, ...rest] = order;
  out[centre.i] = { x: 0, y: 0, w: centre.w, h: centre.h };
  const edge = { right: centre.w / 2, left: -centre.w / 2 };
  const place = (side: 'right' | 'left', col: typeof order) => {
    const w = Math.max(...col.map((c) => c.w));
    const x = side === 'right' ? edge.right + gap + w / 2 : edge.left - gap - w / 2;
    if (col.length === 1) {
      out[col[0].i] = { x, y: 0, w: col[0].w, h: col[0].h };
    } else if (col.length === 3) {
      // The column's largest on the line, the other two over and under it (the larger over on the right).
      const [mid, big, small] = col;
      const [above, below] = side === 'right' ? [big, small] : [small, big];
      out[mid.i] = { x, y: 0, w: mid.w, h: mid.h };
      out[above.i] = { x, y: mid.h / 2 + gap + above.h / 2, w: above.w, h: above.h };
      out[below.i] = { x, y: -mid.h / 2 - gap - below.h / 2, w: below.w, h: below.h };
    } else {
      const [big, small] = col;
      const [above, below] = side === 'right' ? [big, small] : [small, big];
      out[above.i] = { x, y: gap / 2 + above.h / 2, w: above.w, h: above.h };
      out[below.i] = { x, y: -gap / 2 - below.h / 2, w: below.w, h: below.h };
    }
    if (side === 'right') edge.right += gap + w;
    else edge.left -= gap + w;
  };
  // Ten or more: columns of three keep the cluster about twice as wide as high, not a long low band.
  const perColumn = sizes.length >= 10 ? 3 : sizes.length > 4 ? 2 : 1;
  let side: 'right' | 'left' = 'right';
  for (let k = 0; k < rest.length; k += perColumn) {
    place(side, rest.slice(k, k + perColumn));
    side = side === 'right' ? 'left' : 'right';
  }
  return out;
}

/**
 * Lays out the pictures of a gallery wall: each picture's outer centre (inches, y up) and the arrangement's
 * outer bounds. Every arrangement but `custom` is centred on (0, 0) and keeps `gapInches` between
 * neighbouring outer edges:
 * - `row`: one line, left to right in the order given, centres (or tops, bottoms: `align`) lined up;
 * - `grid`: `columns` per row (default ceil(sqrt(n))), in reading order; each column as wide as its widest
 *   picture and each row as tall as its tallest, pictures centred in their cells (`align` within a row); a
 *   short last row is centred;
 * - `salon`: a balanced cluster around a horizontal centre line, larger works near the middle (the largest
 *   the centrepiece, the others alternately right and left; beyond 4 pictures, in pairs above and below
 *   the line);
 * - `custom`: the centres given (`custom[i]`, relative to the wall's centre), refused when two pictures overlap.
 *
 * Refuses (UserError `parameter_invalid`, message prefixed `wall: `, `param` naming the field) fewer than 2
 * or more than 12 pictures, a gap outside 0..48 in, bad columns, overlapping custom pictures and an
 * arrangement wider than 480 in.
 *
 * @example
 * arrangeWall([{ outer: { width: 20, height: 30 } }, { outer: { width: 16, height: 20 } }], { arrangement: 'row' })
 * // { positions: [{ x: -9.5, y: 0 }, { x: 11.5, y: 0 }], bounds: { width: 39, height: 30, center: { x: 0, y: 0 } }, … }
 * arrangeWall(pictures, { arrangement: 'grid', columns: 3, gapInches: 2, align: 'top' })
 * arrangeWall(pictures, { arrangement: 'custom', custom: [{ x_inches: -15, y_inches: 4 }, { x_inches: 15, y_inches: -2 }] })
 */
export function arrangeWall(pictures: readonly WallPictureSize[], opts: ArrangeWallOptions): WallLayout {
  const items = opts.itemsParam ?? 'items';
  const n = pictures.length;
  if (n < MIN_WALL_PICTURES || n > MAX_WALL_PICTURES) {
    throw invalid(items, `a gallery wall takes ${MIN_WALL_PICTURES} to ${MAX_WALL_PICTURES} pictures (got ${n})`);
  }
  if (!WALL_ARRANGEMENTS.includes(opts.arrangement)) throw invalid('arrangement', `must be one of ${WALL_ARRANGEMENTS.join(', ')}`);
  const gap = opts.gapInches ?? DEFAULT_WALL_GAP_INCHES;
  if (!(Number.isFinite(gap) && gap >= 0 && gap <= MAX_WALL_GAP_INCHES)) {
    throw invalid('gap_inches', `must be between 0 and ${MAX_WALL_GAP_INCHES} inches`);
  }
  const align = opts.align ?? 'center';
  if (!WALL_ALIGNS.includes(align)) throw invalid('align', `must be one of ${WALL_ALIGNS.join(', ')}`);
  const sizes = pictures.map((p, i) => {
    const { width: w, height: h } = p.outer;
    if (!(Number.isFinite(w) && Number.isFinite(h) && w > 0 && h > 0)) throw invalid(`${items}[${i}]`, 'needs a positive outer size');
    return { w, h };
  });

  let rects: Rect[];
  let columns: number | undefined;
  switch (opts.arrangement) {
    case 'row':
      rects = arrangeRow(sizes, gap, align);
      break;
    case 'grid':
      columns = opts.columns ?? Math.ceil(Math.sqrt(n));
      if (!(Number.isInteger(columns) && columns >= 1 && columns <= n)) throw invalid('columns', `must be a whole number from 1 to ${n}`);
      rects = arrangeGrid(sizes, gap, align, columns);
      break;
    case 'salon':
      rects = arrangeSalon(sizes, gap);
      break;
    default: {
      const custom = opts.custom ?? [];
      rects = sizes.map((s, i) => {
        const c = custom[i] as { x_inches?: unknown; y_inches?: unknown } | undefined;
        for (const k of ['x_inches', 'y_inches'] as const) {
          const v = c?.[k];
          if (typeof v !== 'number' || !Number.isFinite(v))
            throw invalid(`${items}[${i}].${k}`, 'a custom arrangement needs each centre as a number');
        }
        return { x: c!.x_inches as number, y: c!.y_inches as number, w: s.w, h: s.h };
      });
      for (let j = 1; j < n; j++) {
        for (let i = 0; i < j; i++) {
          if (wallClearance(rects[i], rects[j]) < -1e-6) {
            throw invalid(`${items}[${j}]`, `overlaps ${items}[${i}] (their outer edges, frames included, must not overlap)`);
          }
        }
      }
    }
  }
  // Snap float noise so exact layouts read back exactly.
  const clean = (v: number) => Math.round(v * 1e9) / 1e9 || 0;
  const bounds = boundsOf(rects);
  if (bounds.width > MAX_WALL_WIDTH_INCHES + 1e-9) {
    throw invalid(items, `the arrangement would be ${clean(bounds.width)} in wide; at most ${MAX_WALL_WIDTH_INCHES} in (40 ft)`);
  }
  const centre = opts.arrangement === 'custom' ? { x: 0, y: 0 } : bounds.center;
  return {
    arrangement: opts.arrangement,
    positions: rects.map((r) => ({ x: clean(r.x - centre.x), y: clean(r.y - centre.y) })),
    bounds: {
      width: clean(bounds.width),
      height: clean(bounds.height),
      center: { x: clean(bounds.center.x - centre.x), y: clean(bounds.center.y - centre.y) },
    },
    gap_inches: gap,
    align,
    ...(columns ? { columns } : {}),
  };
}
