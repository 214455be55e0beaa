import type { SceneMesh, Vec3 } from './scene';

/** Length over which a repeating texture (wood grain) spans once, in metres. */
export const TILE_M = 0.3;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);

/**
 * Collects quads into one mesh (one material). Each quad gets its own four vertices, so normals stay
 * flat and UVs may jump between faces.
 */
export class MeshBuilder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];
  private readonly uvs: number[] = [];
  private readonly indices: number[] = [];

  constructor(
    readonly name: string,
    readonly material: string,
  ) {}

  /**
   * Adds a quad `p` (4 corners in order around it) facing `normal`; the winding is fixed to
   * counter-clockwise seen from that side. `uv` (glTF convention) defaults to tiling along the quad's
   * longer edge, for grain that follows a moulding.
   */
  quad(p: [Vec3, Vec3, Vec3, Vec3], normal: Vec3, uv?: [number, number][]): this {
    if (Math.abs(len(sub(p[1], p[0]))) < 1e-9 || Math.abs(len(sub(p[3], p[0]))) < 1e-9) return this;
    let pts = p;
    let uvs = uv ?? tiledUvs(p);
    if (dot(cross(sub(p[1], p[0]), sub(p[2], p[0])), normal) < 0) {
      pts = [p[0], p[3], p[2], p[1]];
      uvs = [uvs[0], uvs[3], uvs[2], uvs[1]];
    }
    const base = this.positions.length / 3;
    for (let i = 0; i < 4; i++) {
      this.positions.push(...pts[i]);
      this.normals.push(...normal);
      this.uvs.push(...uvs[i]);
    }
    this.indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    return this;
  }

  /** Axis-aligned rectangle in the plane z, facing +Z (or -Z), x0 < x1, y0 < y1. */
  rectZ(x0: number, y0: number, x1: number, y1: number, z: number, facing: 1 | -1 = 1, uv?: [number, number][]): this {
    return this.quad(
      [
        [x0, y0, z],
        [x1, y0, z],
        [x1, y1, z],
        [x0, y1, z],
      ],
      [0, 0, facing],
      uv,
    );
  }

  /**
   * The ring between an outer and an inner rectangle (centred on cx, cy), facing +Z at depth z:
   * four strips, the top and bottom ones full width.
   */
  ringZ(outerW: number, outerH: number, innerW: number, innerH: number, z: number, cy = 0): this {
    const [ox, oy, ix, iy] = [outerW / 2, outerH / 2, innerW / 2, innerH / 2];
    return this.rectZ(-ox, cy + iy, ox, cy + oy, z)
      .rectZ(-ox, cy - oy, ox, cy - iy, z)
      .rectZ(-ox, cy - iy, -ix, cy + iy, z)
      .rectZ(ix, cy - iy, ox, cy + iy, z);
  }

  /**
   * The four side walls of a w x h rectangle (centred on 0, cy) between depths z0 and z1, facing out
   * of the rectangle (`outward`) or into it (the inside of an opening). `uv` may map each wall.
   */
  walls(
    w: number,
    h: number,
    z0: number,
    z1: number,
    outward: boolean,
    cy = 0,
    uv?: (side: 'left' | 'right' | 'top' | 'bottom') => [number, number][],
  ): this {
    const [x, y] = [w / 2, h / 2];
    const s = outward ? 1 : -1;
    this.quad(
      [
        [-x, cy - y, z0],
        [-x, cy - y, z1],
        [-x, cy + y, z1],
        [-x, cy + y, z0],
      ],
      [-s, 0, 0],
      uv?.('left'),
    );
    this.quad(
      [
        [x, cy - y, z1],
        [x, cy - y, z0],
        [x, cy + y, z0],
        [x, cy + y, z1],
      ],
      [s, 0, 0],
      uv?.('right'),
    );
    this.quad(
      [
        [-x, cy + y, z1],
        [x, cy + y, z1],
        [x, cy + y, z0],
        [-x, cy + y, z0],
      ],
      [0, s, 0],
      uv?.('top'),
    );
    this.quad(
      [
        [-x, cy - y, z0],
        [x, cy - y, z0],
        [x, cy - y, z1],
        [-x, cy - y, z1],
      ],
      [0, -s, 0],
      uv?.('bottom'),
    );
    return this;
  }

  get empty(): boolean {
    return this.indices.length === 0;
  }

  build(withUvs = true): SceneMesh {
    return {
      name: this.name,
      material: this.material,
      positions: this.positions,
      normals: this.normals,
      uvs: withUvs ? this.uvs : undefined,
      indices: this.indices,
    };
  }
}

/** UVs tiling every {@link TILE_M} metres with u along the longer edge. */
function tiledUvs(p: [Vec3, Vec3, Vec3, Vec3]): [number, number][] {
  const a = len(sub(p[1], p[0])) / TILE_M;
  const b = len(sub(p[3], p[0])) / TILE_M;
  return a >= b
    ? [
        [0, 0],
        [a, 0],
        [a, b],
        [0, b],
      ]
    : [
        [0, 0],
        [0, a],
        [b, a],
        [b, 0],
      ];
}
