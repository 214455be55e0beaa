import { UserError } from '@app/pipeline';
import { arrangeWall, type WallArrangement, wallClearance, type WallLayout, type WallPictureSize } from './arrange-wall';

/** n pictures of assorted sizes (inches), deterministic. */
const sizes = (n: number): WallPictureSize[] =>
  Array.from({ length: n }, (_, i) => ({ outer: { width: 12 + ((i * 7) % 13) * 2, height: 10 + ((i * 5) % 11) * 2.5 } }));

const rects = (pics: WallPictureSize[], l: WallLayout) =>
  l.positions.map((p, i) => ({ x: p.x, y: p.y, w: pics[i].outer.width, h: pics[i].outer.height }));

const boxOf = (rs: ReturnType<typeof rects>) => {
  const x0 = Math.min(...rs.map((r) => r.x - r.w / 2));
  const x1 = Math.max(...rs.map((r) => r.x + r.w / 2));
  const y0 = Math.min(...rs.map((r) => r.y - r.h / 2));
  const y1 = Math.max(...rs.map((r) => r.y + r.h / 2));
  return { width: x1 - x0, height: y1 - y0, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
};

/** A custom layout that does not overlap: the pictures on a loose 4-column grid. */
const customOf = (pics: WallPictureSize[]) =>
  pics.map((_, i) => ({ x_inches: ((i % 4) - 1.5) * 40, y_inches: (1 - Math.floor(i / 4)) * 40 }));

const err = (fn: () => unknown): UserError => {
  try {
    fn();
  } catch (e) {
    return e as UserError;
  }
  throw new Error('expected a UserError');
};

describe('arrangeWall', () => {
  const arrangements: WallArrangement[] = ['row', 'grid', 'salon', 'custom'];
  for (const arrangement of arrangements) {
    for (const n of [2, 3, 6, 12]) {
      it(`${arrangement}, ${n} pictures: no overlaps, gaps kept, bounds as reported${arrangement === 'custom' ? '' : ', centred'}`, () => {
        const pics = sizes(n);
        const gap = 3;
        const l = arrangeWall(pics, { arrangement, gapInches: gap, custom: customOf(pics) });
        expect(l.positions).toHaveLength(n);
        const rs = rects(pics, l);
        let min = Infinity;
        for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) min = Math.min(min, wallClearance(rs[i], rs[j]));
        const box = boxOf(rs);
        expect(l.bounds.width).toBeCloseTo(box.width, 9);
        expect(l.bounds.height).toBeCloseTo(box.height, 9);
        if (arrangement === 'custom') {
          expect(l.positions).toEqual(customOf(pics).map((c) => ({ x: c.x_inches, y: c.y_inches })));
          expect(min).toBeGreaterThanOrEqual(0);
        } else {
          if (arrangement === 'grid') {
            // Cells: columns as wide as their widest, rows as tall as their tallest, the gap exact between cells.
            const cols = l.columns!;
            expect(cols).toBe(Math.ceil(Math.sqrt(n)));
            const colW = Array.from({ length: cols }, (_, c) => Math.max(...rs.filter((_, i) => i % cols === c).map((r) => r.w)));
            const rowH = Array.from({ length: Math.ceil(n / cols) }, (_, r) =>
              Math.max(...rs.slice(r * cols, (r + 1) * cols).map((x) => x.h)),
            );
            // The cells' grid may sit off centre by what a narrower picture leaves of its cell: offset by the first one.
            let top = rowH.reduce((a, b) => a + b, 0) / 2 + (gap * (rowH.length - 1)) / 2;
            const first = -(colW.slice(0, Math.min(cols, n)).reduce((a, b) => a + b, 0) + gap * (Math.min(cols, n) - 1)) / 2;
            const [dx, dy] = [rs[0].x - (first + colW[0] / 2), rs[0].y - (top - rowH[0] / 2)];
            rowH.forEach((h, r) => {
              const row = rs.slice(r * cols, (r + 1) * cols);
              let left = -(row.reduce((s, _, c) => s + colW[c], 0) + gap * (row.length - 1)) / 2;
              row.forEach((p, c) => {
                expect(p.x - dx).toBeCloseTo(left + colW[c] / 2, 9);
                expect(p.y - dy).toBeCloseTo(top - h / 2, 9);
                left += colW[c] + gap;
              });
              top -= h + gap;
            });
            expect(min).toBeGreaterThanOrEqual(gap - 1e-9);
          } else {
            // Every pair at least the gap apart, and neighbours exactly that.
            expect(min).toBeCloseTo(gap, 9);
          }
          expect(box.cx).toBeCloseTo(0, 9);
          expect(box.cy).toBeCloseTo(0, 9);
          expect(l.bounds.center).toEqual({ x: 0, y: 0 });
        }
        // Deterministic.
        expect(arrangeWall(pics, { arrangement, gapInches: gap, custom: customOf(pics) })).toEqual(l);
      });
    }
  }

  it('row: left to right in the order given, gaps exact; centres, tops or bottoms lined up', () => {
    const pics = sizes(5);
    for (const align of ['center', 'top', 'bottom'] as const) {
      const rs = rects(pics, arrangeWall(pics, { arrangement: 'row', gapInches: 4, align }));
      for (let i = 1; i < rs.length; i++) expect(rs[i].x - rs[i].w / 2 - (rs[i - 1].x + rs[i - 1].w / 2)).toBeCloseTo(4, 9);
      const line = rs.map((r) => (align === 'top' ? r.y + r.h / 2 : align === 'bottom' ? r.y - r.h / 2 : r.y));
      for (const v of line) expect(v).toBeCloseTo(line[0], 9);
    }
  });

  it('grid: ceil(sqrt(n)) columns by default, reading order, rows as tall as their tallest, a short last row centred', () => {
    const same = Array.from({ length: 5 }, () => ({ outer: { width: 10, height: 20 } }));
    const l = arrangeWall(same, { arrangement: 'grid', gapInches: 2 });
    expect(l.columns).toBe(3);
    // Three over two: 3 x 10 + 2 x 2 = 34 wide, 2 x 20 + 2 = 42 tall.
    expect(l.bounds).toEqual({ width: 34, height: 42, center: { x: 0, y: 0 } });
    expect(l.positions).toEqual([
      { x: -12, y: 11 },
      { x: 0, y: 11 },
      { x: 12, y: 11 },
      { x: -6, y: -11 },
      { x: 6, y: -11 },
    ]);
    const mixed = [20, 10, 30, 16].map((h) => ({ outer: { width: 10, height: h } }));
    const top = rects(mixed, arrangeWall(mixed, { arrangement: 'grid', columns: 2, gapInches: 2, align: 'top' }));
    expect(top[0].y + top[0].h / 2).toBeCloseTo(top[1].y + top[1].h / 2, 9);
    // The second row starts the gap below the first row's tallest.
    expect(top[0].y - top[0].h / 2 - (top[2].y + top[2].h / 2)).toBeCloseTo(2, 9);
  });

  it('salon: the largest is the centrepiece, the others alternately right and left; beyond 4, pairs above and below the line', () => {
    const pics = [
      { outer: { width: 10, height: 12 } },
      { outer: { width: 30, height: 40 } },
      { outer: { width: 16, height: 20 } },
      { outer: { width: 14, height: 18 } },
    ];
    const four = arrangeWall(pics, { arrangement: 'salon', gapInches: 2 });
    // One line: 14, 30, 16 | 10 (the 4th largest goes right again).
    const xs = four.positions.map((p) => p.x);
    expect(xs[3]).toBeLessThan(xs[1]);
    expect(xs[2]).toBeGreaterThan(xs[1]);
    expect(xs[0]).toBeGreaterThan(xs[2]);
    expect(new Set(four.positions.map((p) => p.y))).toEqual(new Set([0]));

    const many = sizes(9);
    const l = arrangeWall(many, { arrangement: 'salon', gapInches: 3 });
    const rs = rects(many, l);
    const areas = many.map((p) => p.outer.width * p.outer.height);
    const centre = areas.indexOf(Math.max(...areas));
    const lineY = rs[centre].y;
    let above = 0;
    let below = 0;
    rs.forEach((r, i) => {
      if (i === centre) return;
      if (Math.abs(r.y - r.h / 2 - (lineY + 1.5)) < 1e-9) above++;
      else if (Math.abs(r.y + r.h / 2 - (lineY - 1.5)) < 1e-9) below++;
      else expect(r.y).toBeCloseTo(lineY, 9);
    });
    expect(above).toBe(4);
    expect(below).toBe(4);
    // Larger works nearer the middle: the centrepiece is the most central.
    const d = rs.map((r) => Math.abs(r.x - rs[centre].x));
    expect(Math.min(...d.filter((_, i) => i !== centre))).toBeGreaterThan(0);
  });

  it('salon of 10 or more: columns of three, the largest of each on the line; about twice as wide as high', () => {
    const many = sizes(12);
    const rs = rects(many, arrangeWall(many, { arrangement: 'salon', gapInches: 3 }));
    const columns = new Map<number, typeof rs>();
    for (const r of rs) columns.set(Math.round(r.x * 1e6), [...(columns.get(Math.round(r.x * 1e6)) ?? []), r]);
    // The centrepiece, then 11 more in columns of 3, 3, 3 and 2.
    expect([...columns.values()].map((c) => c.length).sort()).toEqual([1, 2, 3, 3, 3]);
    // The line: the centrepiece's centre (the whole is centred on its bounds).
    const lineY = [...columns.values()].find((c) => c.length === 1)![0].y;
    for (const col of columns.values()) {
      if (col.length !== 3) continue;
      const [top, mid, bottom] = [...col].sort((a, b) => b.y - a.y);
      expect(mid.y).toBeCloseTo(lineY, 9);
      expect(mid.w * mid.h).toBeGreaterThanOrEqual(Math.max(top.w * top.h, bottom.w * bottom.h));
      expect(top.y - top.h / 2 - (mid.y + mid.h / 2)).toBeCloseTo(3, 9);
      expect(mid.y - mid.h / 2 - (bottom.y + bottom.h / 2)).toBeCloseTo(3, 9);
    }
    for (let j = 1; j < rs.length; j++) for (let i = 0; i < j; i++) expect(wallClearance(rs[i], rs[j])).toBeGreaterThanOrEqual(3 - 1e-9);
    const b = arrangeWall(many, { arrangement: 'salon', gapInches: 3 }).bounds;
    expect(b.width / b.height).toBeLessThan(3);
  });

  it('refuses overlapping custom pictures, naming the later one', () => {
    const pics = sizes(4);
    const custom = customOf(pics);
    custom[3] = { x_inches: custom[1].x_inches + 5, y_inches: custom[1].y_inches };
    const e = err(() => arrangeWall(pics, { arrangement: 'custom', custom }));
    expect(e).toBeInstanceOf(UserError);
    expect(e.code).toBe('parameter_invalid');
    expect(e.param).toBe('items[3]');
    expect(e.message).toMatch(/^wall: items\[3\]: overlaps items\[1\]/);
    // Touching is fine.
    custom[3] = { x_inches: custom[1].x_inches, y_inches: custom[1].y_inches + (pics[1].outer.height + pics[3].outer.height) / 2 };
    expect(() => arrangeWall(pics, { arrangement: 'custom', custom })).not.toThrow();
    const missing = err(() => arrangeWall(pics, { arrangement: 'custom', custom: custom.slice(0, 2), itemsParam: 'pictures' }));
    expect(missing.param).toBe('pictures[2].x_inches');
  });

  it('refuses too few or too many pictures, a gap outside 0..48, bad columns and more than 480 in of wall', () => {
    expect(err(() => arrangeWall(sizes(1), { arrangement: 'row' })).message).toMatch(/^wall: items: a gallery wall takes 2 to 12/);
    expect(err(() => arrangeWall(sizes(13), { arrangement: 'row' })).param).toBe('items');
    expect(err(() => arrangeWall(sizes(3), { arrangement: 'row', gapInches: 49 })).param).toBe('gap_inches');
    expect(err(() => arrangeWall(sizes(3), { arrangement: 'row', gapInches: -1 })).param).toBe('gap_inches');
    expect(arrangeWall(sizes(3), { arrangement: 'row', gapInches: 0 }).gap_inches).toBe(0);
    expect(err(() => arrangeWall(sizes(3), { arrangement: 'grid', columns: 0 })).param).toBe('columns');
    const wide = Array.from({ length: 12 }, () => ({ outer: { width: 40, height: 30 } }));
    const e = err(() => arrangeWall(wide, { arrangement: 'row' }));
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(/^wall: items: the arrangement would be 513 in wide; at most 480 in/);
    // The same pictures in a grid fit.
    expect(arrangeWall(wide, { arrangement: 'grid' }).bounds.width).toBe(4 * 40 + 3 * 3);
  });
});
