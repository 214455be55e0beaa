import { budgetUse, budgetViolations, VIEWER_BUDGETS } from './viewer-budgets';
import type { Scene } from './scene';

const scene = (materials: number, texturePx: number[]): Scene => ({
  name: 'Card',
  anchoring: 'wall',
  textures: texturePx.map((px, i) => ({ id: `t${i}`, image: Buffer.alloc(0), mime: 'image/jpeg', width: px, height: px })),
  materials: Array.from({ length: materials }, (_, i) => ({
    id: `m${i}`,
    unlit: true,
    color: [1, 1, 1],
    roughness: 1,
    metallic: 0,
    alpha: 'opaque',
  })),
  nodes: [
    {
      name: 'Body',
      meshes: [
        { name: 'Q', material: 'm0', positions: [0, 0, 0, 1, 0, 0, 1, 1, 0], normals: [0, 0, 1, 0, 0, 1, 0, 0, 1], indices: [0, 1, 2] },
      ],
    },
  ],
});

describe('viewer budgets', () => {
  it('accepts a framed picture and counts what it uses', () => {
    const use = budgetUse(scene(4, [2048, 256]));
    expect(use).toMatchObject({ materials: 4, textures: 2, largestTexturePx: 2048, triangles: 1, meshes: 1 });
    expect(use.decodedTextureBytes).toBe(Math.ceil((2048 * 2048 * 16) / 3) + Math.ceil((256 * 256 * 16) / 3));
    expect(budgetViolations(use)).toEqual([]);
  });

  it('names each budget a scene would break', () => {
    const over = budgetViolations(
      budgetUse(scene(11, [4096, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048])),
      70 * 1024 * 1024,
    );
    expect(over).toEqual([
      expect.stringContaining('11 materials (Scene Viewer takes at most 10)'),
      expect.stringContaining('a 4096 px texture'),
      expect.stringContaining('MB of decoded textures'),
      expect.stringContaining('a 70 MB file'),
    ]);
    expect(VIEWER_BUDGETS.maxMaterials).toBe(10);
  });

  it("needs every texture's pixel size", () => {
    const s = scene(1, [64]);
    delete s.textures[0].width;
    expect(() => budgetUse(s)).toThrow('has no pixel size');
  });
});
