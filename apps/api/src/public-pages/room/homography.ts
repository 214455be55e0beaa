/**
 * The room view's geometry (docs/api.md, "On your wall, from a photo"): a plane homography from four point
 * pairs (the direct linear transform with h33 = 1), from the wall plane (inches, origin at the reference's
 * top-left corner, x to the right, y down) to the photo (its pixels). Pure arithmetic, no DOM: the browser's
 * script (room-client/room.ts, bundled by the build) and the unit specs use this one copy.
 */

export type Point = readonly [number, number];
/** Four corners in the order top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];
/** A 3 × 3 matrix, row-major: (x, y, 1) ↦ (h0·x + h1·y + h2, h3·x + h4·y + h5) / (h6·x + h7·y + h8). */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

/** 1 in = 2.54 cm. */
export const CM_PER_INCH = 2.54;

/** The references a buyer can hold to the wall, in inches (portrait: width ≤ height). */
export const REFERENCES = {
  a4: { width: 21 / CM_PER_INCH, height: 29.7 / CM_PER_INCH },
  letter: { width: 8.5, height: 11 },
} as const;
export type ReferenceKind = keyof typeof REFERENCES | 'custom';

/**
 * Solves A·x = b (n × n, row-major A) by Gaussian elimination with partial pivoting; null when A is singular
 * (three of the four points on one line: no homography).
 */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const row = m[r]!;
      const f = row[c]! / pivot[c]!;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) row[k] = row[k]! - f * pivot[k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * The homography mapping each `src` corner onto the `dst` corner of the same index, or null when the points
 * are degenerate. Coordinates are normalised first (centred, mean distance √2: Hartley), so photo pixels in
 * the thousands and wall inches in the tens condition the system alike.
 */
export function homography(src: Quad, dst: Quad): Mat3 | null {
  if (collinear(src) || collinear(dst)) return null;
  const ns = normaliser(src);
  const nd = normaliser(dst);
  const s = src.map((p) => project(ns, p));
  const d = dst.map((p) => project(nd, p));
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = s[i]!;
    const [u, v] = d[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  if (!h || !h.every(Number.isFinite)) return null;
  const hn = [...h, 1] as unknown as Mat3;
  const inv = invert(nd);
  return inv ? normalise(multiply(inv, multiply(hn, ns))) : null;
}

/** Whether three of the four points lie on one line (relative to the quad's size): no homography maps them. */
function collinear(q: Quad): boolean {
  const size = Math.max(dist(q[0], q[2]), dist(q[1], q[3]));
  if (!(size > 0)) return true;
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [q[i]!, q[(i + 1) % 4]!, q[(i + 2) % 4]!];
    if (Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-9 * size * size) return true;
  }
  return false;
}

/** Translates the points' centroid to the origin and scales their mean distance from it to √2. */
function normaliser(q: Quad): Mat3 {
  const cx = (q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4;
  const cy = (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4;
  const mean = q.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / 4;
  const k = mean > 0 ? Math.SQRT2 / mean : 1;
  return [k, 0, -k * cx, 0, k, -k * cy, 0, 0, 1];
}

/** Scales `h` so that h8 = 1 (when it is not 0). */
function normalise(h: Mat3): Mat3 {
  const s = Math.abs(h[8]) > 1e-15 ? h[8] : 1;
  return h.map((v) => v / s) as unknown as Mat3;
}

/** a · b. */
export function multiply(a: Mat3, b: Mat3): Mat3 {
  const out: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) out.push(a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!);
  return out as unknown as Mat3;
}

/** The inverse, or null for a singular matrix. */
export function invert(m: Mat3): Mat3 | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-15) return null;
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** The point `p` mapped by `h`. */
export function project(h: Mat3, p: Point): Point {
  const w = h[6] * p[0] + h[7] * p[1] + h[8];
  return [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w];
}

/** The corners of the axis-aligned rectangle at (x, y) of `w` × `h`, top-left first, clockwise (y down). */
export function rect(x: number, y: number, w: number, h: number): Quad {
  return [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ];
}

/** Each corner of `q` mapped by `h`. */
export function projectQuad(h: Mat3, q: Quad): Quad {
  return [project(h, q[0]), project(h, q[1]), project(h, q[2]), project(h, q[3])];
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/**
 * The reference's width and height on the wall as its corners in the photo show it: its longer side along
 * whichever pair of opposite edges looks longer (top and bottom: landscape; left and right: portrait).
 */
export function orientReference(photo: Quad, size: { width: number; height: number }): { width: number; height: number } {
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  const across = dist(photo[0], photo[1]) + dist(photo[3], photo[2]);
  const down = dist(photo[0], photo[3]) + dist(photo[1], photo[2]);
  return across > down ? { width: long, height: short } : { width: short, height: long };
}

/** Whether the quad is convex with its corners in order (what four handles on a real rectangle make). */
export function isConvex(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const c = q[(i + 2) % 4]!;
    const z = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(z) < 1e-9) return false;
    const s = Math.sign(z);
    if (sign && s !== sign) return false;
    sign = s;
  }
  return true;
}

/**
 * The wall-to-photo homography from the reference's corners in the photo (`photo`, top-left first) and its
 * size in inches, oriented as the corners show it; null while the corners make no convex quad.
 */
export function wallToPhoto(photo: Quad, size: { width: number; height: number }): { h: Mat3; width: number; height: number } | null {
  if (!isConvex(photo)) return null;
  const o = orientReference(photo, size);
  const h = homography(rect(0, 0, o.width, o.height), photo);
  return h ? { h, ...o } : null;
}

/** One picture of a set: its outer centre relative to the set's centre (inches, y down) and its outer size. */
export interface SetPicture {
  dx: number;
  dy: number;
  width: number;
  height: number;
}

/** Each picture's outer rectangle on the wall (inches) with the set's centre at `centre`. */
export function wallRects(centre: Point, pictures: readonly SetPicture[]): Quad[] {
  return pictures.map((p) => rect(centre[0] + p.dx - p.width / 2, centre[1] + p.dy - p.height / 2, p.width, p.height));
}

/**
 * Several pictures hung together (the together view): from their centres (inches, y up, as the layouts give
 * them) to {@link SetPicture}s around the set's bounding box centre, y down. A single picture: itself at 0, 0.
 */
export function setPictures(list: readonly { x: number; y: number; w: number; h: number }[]): SetPicture[] {
  const left = Math.min(...list.map((p) => p.x - p.w / 2));
  const right = Math.max(...list.map((p) => p.x + p.w / 2));
  const top = Math.max(...list.map((p) => p.y + p.h / 2));
  const bottom = Math.min(...list.map((p) => p.y - p.h / 2));
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  return list.map((p) => ({ dx: p.x - cx, dy: cy - p.y, width: p.w, height: p.h }));
}

/**
 * The CSS `matrix3d()` (with `transform-origin: 0 0`) that draws an element's own box through `h` (its
 * pixels to the page's): the 3 × 3 homography in the 4 × 4 column-major form, z untouched.
 */
export function cssMatrix3d(h: Mat3): string {
  const n = h[8];
  const v = [h[0], h[3], 0, h[6], h[1], h[4], 0, h[7], 0, 0, 1, 0, h[2], h[5], 0, h[8]].map((x) => x / n);
  return `matrix3d(${v.map((x) => (Math.abs(x) < 1e-12 ? 0 : Number(x.toPrecision(12)))).join(',')})`;
}

/** `[[sx, 0, 0], [0, sy, 0], [0, 0, 1]]`. */
export const scaling = (sx: number, sy = sx): Mat3 => [sx, 0, 0, 0, sy, 0, 0, 0, 1];
/** `[[1, 0, tx], [0, 1, ty], [0, 0, 1]]`. */
export const translation = (tx: number, ty: number): Mat3 => [1, 0, tx, 0, 1, ty, 0, 0, 1];

/** The quad as `data-quad` writes it: "x1,y1,x2,y2,x3,y3,x4,y4", two decimals. */
export const quadAttr = (q: Quad): string => q.map((p) => `${round2(p[0])},${round2(p[1])}`).join(',');
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The affine map taking the triangle `s` onto `d` (each three points), as canvas `setTransform(a, b, c, d, e, f)`
 * takes it; null for a degenerate triangle. The saved image draws the picture through the homography as a
 * mesh of such triangles (a 2D canvas has no perspective transform).
 */
export function affine(s: readonly Point[], d: readonly Point[]): [number, number, number, number, number, number] | null {
  const m = solve(
    [
      [s[0]![0], s[0]![1], 1],
      [s[1]![0], s[1]![1], 1],
      [s[2]![0], s[2]![1], 1],
    ],
    [d[0]![0], d[1]![0], d[2]![0]],
  );
  const n = solve(
    [
      [s[0]![0], s[0]![1], 1],
      [s[1]![0], s[1]![1], 1],
      [s[2]![0], s[2]![1], 1],
    ],
    [d[0]![1], d[1]![1], d[2]![1]],
  );
  if (!m || !n) return null;
  return [m[0]!, n[0]!, m[1]!, n[1]!, m[2]!, n[2]!];
}
