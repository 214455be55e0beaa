import { buildPictureScene, type PictureSceneInput, type UvRect } from './build-picture-scene';

const IN = 0.0254;

const texture = { id: 'picture', image: Buffer.from('not decoded here'), mime: 'image/jpeg' as const, width: 400, height: 300 };

function input(uv: UvRect | undefined, style: 'none' | 'canvas' | 'thin' = 'none'): PictureSceneInput {
  return {
    picture: { width: 20 * IN, height: 20 * IN },
    layer: { kind: 'still', texture, alpha: 'opaque', ...(uv ? { uv } : {}) },
    placement: 'wall',
    finish: 'unlit',
    frame: { style, width: style === 'thin' ? 0.5 * IN : 0, depth: 1.5 * IN, color: [0.1, 0.1, 0.1], edge: 'mirror' },
    mat: null,
  };
}

const mesh = (s: ReturnType<typeof buildPictureScene>, name: string) =>
  s.scene.nodes.flatMap((n) => n.meshes).find((m) => m.name === name)!;
/** (u, v) pairs of a mesh, by the x, y of its vertices. */
const uvByCorner = (m: { positions: number[]; uvs?: number[] }) =>
  Array.from({ length: m.positions.length / 3 }, (_, i) => ({
    x: Math.sign(m.positions[3 * i]),
    y: Math.sign(m.positions[3 * i + 1]),
    uv: [m.uvs![2 * i], m.uvs![2 * i + 1]],
  }));

describe('buildPictureScene: a still picture showing a uv rectangle of its texture', () => {
  it('maps the rectangle onto the front quad: top-left (u0, v0), bottom-right (u1, v1)', () => {
    const s = buildPictureScene(input([0.125, 0, 0.875, 1]));
    const corners = uvByCorner(mesh(s, 'Front'));
    expect(corners).toHaveLength(4);
    for (const c of corners) {
      expect(c.uv[0]).toBeCloseTo(c.x < 0 ? 0.125 : 0.875, 9);
      // glTF v runs down: the top edge (y > 0) is v0.
      expect(c.uv[1]).toBeCloseTo(c.y > 0 ? 0 : 1, 9);
    }
    // The texture is the whole picture, packaged once.
    expect(s.scene.textures.map((t) => t.id)).toEqual(['picture']);
  });

  it('without uv the front shows the whole texture, as before', () => {
    const a = buildPictureScene(input(undefined));
    const b = buildPictureScene(input([0, 0, 1, 1]));
    expect(mesh(a, 'Front').uvs).toEqual([0, 1, 1, 1, 1, 0, 0, 0]);
    expect(a.scene).toEqual(b.scene);
  });

  it("a canvas wrap's mirrored edges continue the part shown, inside the rectangle", () => {
    const uv: UvRect = [0.2, 0.1, 0.6, 0.9];
    const edges = mesh(buildPictureScene(input(uv, 'canvas')), 'Edges');
    const us = edges.uvs!.filter((_, i) => i % 2 === 0);
    const vs = edges.uvs!.filter((_, i) => i % 2 === 1);
    expect(Math.min(...us)).toBeCloseTo(0.2, 9);
    expect(Math.max(...us)).toBeCloseTo(0.6, 9);
    expect(Math.min(...vs)).toBeCloseTo(0.1, 9);
    expect(Math.max(...vs)).toBeCloseTo(0.9, 9);
  });

  it('refuses a rectangle outside the texture or turned inside out', () => {
    expect(() => buildPictureScene(input([-0.1, 0, 1, 1]))).toThrow(/uv rectangle/);
    expect(() => buildPictureScene(input([0.5, 0, 0.4, 1]))).toThrow(/uv rectangle/);
    expect(() => buildPictureScene(input([0, 0, 1, 1.2]))).toThrow(/uv rectangle/);
  });
});
