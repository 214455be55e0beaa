import {
  affine,
  cssMatrix3d,
  homography,
  invert,
  isConvex,
  multiply,
  orientReference,
  project,
  projectQuad,
  quadAttr,
  rect,
  REFERENCES,
  setPictures,
  wallRects,
  wallToPhoto,
  type Point,
  type Quad,
} from './homography';

/**
 * A pinhole camera looking at the wall plane (z = 0, inches, y down) from `distance` in front of it, turned by
 * `yaw` and `pitch` (degrees), focal length `f` pixels, principal point (cx, cy): the projection a real photo
 * of a wall makes. Written out here, independently of the DLT under test.
 */
function camera(yaw: number, pitch: number, distance: number, f: number, cx: number, cy: number, target: Point = [20, 30]) {
  const a = (yaw * Math.PI) / 180;
  const b = (pitch * Math.PI) / 180;
  // Camera axes (right, down, forward) in wall coordinates; forward points into the wall (+z).
  const fwd = [Math.sin(a) * Math.cos(b), Math.sin(b), Math.cos(a) * Math.cos(b)];
  const right = [Math.cos(a), 0, -Math.sin(a)];
  const down = [
    fwd[1]! * right[2]! - fwd[2]! * right[1]!,
    fwd[2]! * right[0]! - fwd[0]! * right[2]!,
    fwd[0]! * right[1]! - fwd[1]! * right[0]!,
  ];
  const eye = [target[0] - fwd[0]! * distance, target[1] - fwd[1]! * distance, -fwd[2]! * distance];
  return (p: Point): Point => {
    const v = [p[0] - eye[0]!, p[1] - eye[1]!, -eye[2]!];
    const dot = (u: number[]) => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
    const z = dot(fwd);
    return [cx + (f * dot(right)) / z, cy + (f * dot(down)) / z];
  };
}

const close = (a: Point, b: Point, tol: number) => {
  expect(Math.abs(a[0] - b[0])).toBeLessThan(tol);
  expect(Math.abs(a[1] - b[1])).toBeLessThan(tol);
};

describe('homography', () => {
  it('maps each of the four source corners onto its destination', () => {
    const src = rect(0, 0, 8.27, 11.69);
    const dst: Quad = [
      [812.4, 403.1],
      [1103.9, 431.7],
      [1088.2, 842.6],
      [797.5, 801.3],
    ];
    const h = homography(src, dst)!;
    for (let i = 0; i < 4; i++) close(project(h, src[i]!), dst[i]!, 1e-6);
  });

  it('recovers a camera: every other point of the wall lands where the camera puts it (sub-pixel), far beyond the reference', () => {
    for (const [yaw, pitch] of [
      [0, 0],
      [28, -9],
      [-40, 14],
    ] as const) {
      const cam = camera(yaw, pitch, 110, 1500, 2000, 1500);
      const a4 = rect(0, 0, REFERENCES.a4.width, REFERENCES.a4.height);
      const h = homography(a4, a4.map(cam) as unknown as Quad);
      expect(h).not.toBeNull();
      // A picture 40 × 30 in hung 20 in to the right of the sheet: 5 times the sheet's size, away from it.
      for (const p of rect(20, -10, 40, 30)) close(project(h!, p), cam(p), 1e-6);
    }
  });

  it('is null for degenerate points (three on one line)', () => {
    expect(
      homography(rect(0, 0, 1, 1), [
        [0, 0],
        [1, 1],
        [2, 2],
        [0, 5],
      ]),
    ).toBeNull();
  });

  it('inverts: H⁻¹ · H is the identity and maps photo pixels back to the wall', () => {
    const cam = camera(25, 5, 90, 1200, 800, 600);
    const q = rect(0, 0, 8.5, 11);
    const h = homography(q, q.map(cam) as unknown as Quad)!;
    const i = invert(h)!;
    const id = multiply(i, h);
    [1, 0, 0, 0, 1, 0, 0, 0, 1].forEach((v, k) => expect(id[k]! / id[8]).toBeCloseTo(v, 9));
    close(project(i, cam([30, 12])), [30, 12], 1e-6);
    expect(invert([1, 2, 3, 2, 4, 6, 0, 0, 1])).toBeNull();
  });
});

describe('the reference', () => {
  const portrait: Quad = [
    [100, 100],
    [300, 110],
    [305, 400],
    [95, 390],
  ];
  const landscape: Quad = [
    [100, 100],
    [400, 90],
    [410, 300],
    [95, 310],
  ];

  it('hangs portrait or landscape as its corners show it', () => {
    expect(orientReference(portrait, REFERENCES.a4)).toEqual({ width: REFERENCES.a4.width, height: REFERENCES.a4.height });
    expect(orientReference(landscape, REFERENCES.a4)).toEqual({ width: REFERENCES.a4.height, height: REFERENCES.a4.width });
    // A custom size typed the other way round hangs the same.
    expect(orientReference(portrait, { width: 30, height: 20 })).toEqual({ width: 20, height: 30 });
  });

  it('needs four corners in order around a convex quad', () => {
    expect(isConvex(portrait)).toBe(true);
    expect(isConvex([portrait[0], portrait[2], portrait[1], portrait[3]])).toBe(false);
    expect(isConvex([portrait[0], portrait[0], portrait[2], portrait[3]])).toBe(false);
    expect(wallToPhoto([portrait[1], portrait[0], portrait[3], portrait[2]], REFERENCES.letter)).not.toBeNull();
    expect(wallToPhoto([portrait[0], portrait[2], portrait[1], portrait[3]], REFERENCES.letter)).toBeNull();
  });

  it('wallToPhoto: the landscape sheet maps its own corners and the oriented size', () => {
    const w = wallToPhoto(landscape, REFERENCES.letter)!;
    expect([w.width, w.height]).toEqual([11, 8.5]);
    projectQuad(w.h, rect(0, 0, 11, 8.5)).forEach((p, i) => close(p, landscape[i]!, 1e-6));
  });
});

describe('pictures on the wall', () => {
  it('a set keeps its arrangement around its bounding box centre (y up in, y down out)', () => {
    const set = setPictures([
      { x: -20, y: 5, w: 16, h: 20 },
      { x: 5, y: 0, w: 24, h: 30 },
    ]);
    // Bounding box: x -28..17 (centre -5.5), y -15..15 (centre 0).
    expect(set).toEqual([
      { dx: -14.5, dy: -5, width: 16, height: 20 },
      { dx: 10.5, dy: 0, width: 24, height: 30 },
    ]);
    expect(wallRects([10, 10], set)[1]).toEqual(rect(10 + 10.5 - 12, 10 - 15, 24, 30));
    expect(setPictures([{ x: 3, y: 4, w: 10, h: 8 }])).toEqual([{ dx: 0, dy: 0, width: 10, height: 8 }]);
  });

  it('cssMatrix3d draws an element through the homography (the 4 × 4 column-major form)', () => {
    const h = homography(rect(0, 0, 1000, 750), [
      [10, 20],
      [300, 40],
      [290, 260],
      [15, 230],
    ])!;
    const v = cssMatrix3d(h).slice('matrix3d('.length, -1).split(',').map(Number);
    expect(v).toHaveLength(16);
    for (const p of [
      [0, 0],
      [1000, 750],
      [400, 300],
    ] as Point[]) {
      // (x, y, 0, 1) times the column-major matrix, then the perspective divide.
      const x = v[0]! * p[0] + v[4]! * p[1] + v[12]!;
      const y = v[1]! * p[0] + v[5]! * p[1] + v[13]!;
      const w = v[3]! * p[0] + v[7]! * p[1] + v[15]!;
      close([x / w, y / w], project(h, p), 1e-6);
    }
  });

  it('quadAttr writes eight numbers, two decimals', () => {
    expect(
      quadAttr([
        [1.234, 2],
        [3, 4.005],
        [5, 6],
        [7, 8.999],
      ]),
    ).toBe('1.23,2,3,4.01,5,6,7,9');
  });

  it('affine maps a triangle onto another (the saved image’s mesh)', () => {
    const s: Point[] = [
      [0, 0],
      [100, 0],
      [0, 50],
    ];
    const d: Point[] = [
      [10, 10],
      [210, 30],
      [5, 110],
    ];
    const [a, b, c, e, f, g] = affine(s, d)!;
    s.forEach((p, i) => close([a * p[0] + c * p[1] + f, b * p[0] + e * p[1] + g], d[i]!, 1e-9));
    expect(affine([s[0]!, s[0]!, s[1]!], d)).toBeNull();
  });
});
