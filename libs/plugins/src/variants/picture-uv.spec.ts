import sharp from 'sharp';
import { buildPictureScene, type PictureSceneInput, type UvRect } from '@app/scene';
import { readGlb, readUsdz, usdaMesh, validateGlb } from '@app/testing';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';

const IN = 0.0254;

async function input(uv: UvRect, style: 'none' | 'canvas' = 'none'): Promise<PictureSceneInput> {
  const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  return {
    picture: { width: 20 * IN, height: 20 * IN },
    layer: { kind: 'still', texture: { id: 'picture', image, mime: 'image/jpeg', width: 400, height: 300 }, alpha: 'opaque', uv },
    placement: 'wall',
    finish: 'unlit',
    frame: { style, width: 0, depth: 1.5 * IN, color: [0.1, 0.1, 0.1], edge: 'mirror' },
    mat: null,
  };
}

/** [x, y] and [u, v] of each vertex of the GLB primitive named by its material and mesh position. */
async function glbFront(glb: Buffer): Promise<{ xy: number[][]; uv: number[][] }> {
  const doc = await readGlb(glb);
  const prim = doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())
    .find((p) => p.getMaterial()?.getName() === 'Picture')!;
  const pos = prim.getAttribute('POSITION')!;
  const tex = prim.getAttribute('TEXCOORD_0')!;
  const xy = Array.from({ length: pos.getCount() }, (_, i) => pos.getElement(i, []).slice(0, 2));
  const uv = Array.from({ length: tex.getCount() }, (_, i) => tex.getElement(i, []));
  return { xy, uv };
}

describe('a still picture showing a uv rectangle: both writers carry it', () => {
  const uv: UvRect = [0.125, 0.05, 0.875, 0.95];

  it('GLB: the Picture quad has those TEXCOORD_0 (glTF convention, v down), and the file is valid', async () => {
    const glb = await writeSceneGlb(buildPictureScene(await input(uv)).scene);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const { xy, uv: got } = await glbFront(glb);
    expect(got).toHaveLength(4);
    got.forEach(([u, v], i) => {
      const [x, y] = xy[i];
      expect(u).toBeCloseTo(x < 0 ? 0.125 : 0.875, 6);
      expect(v).toBeCloseTo(y > 0 ? 0.05 : 0.95, 6);
    });
  });

  it('USDZ: the Front mesh has primvars:st = (u, 1 - v), USD t running up', async () => {
    const usdz = writeSceneUsdz(buildPictureScene(await input(uv)).scene);
    const { points, st } = usdaMesh((await readUsdz(usdz)).usda, 'Front');
    expect(st).toHaveLength(4);
    st!.forEach(([s, t], i) => {
      const [x, y] = points[i];
      expect(s).toBeCloseTo(x < 0 ? 0.125 : 0.875, 6);
      expect(t).toBeCloseTo(y > 0 ? 0.95 : 0.05, 6);
    });
  });

  it("canvas: the mirrored edges' uvs stay inside the rectangle in both files", async () => {
    const scene = buildPictureScene(await input(uv, 'canvas')).scene;
    const doc = await readGlb(await writeSceneGlb(scene));
    const edges = doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives())
      .filter((p) => p.getMaterial()?.getName() === 'Picture');
    expect(edges).toHaveLength(2);
    for (const p of edges) {
      const a = p.getAttribute('TEXCOORD_0')!;
      const [umin, vmin] = a.getMin([]);
      const [umax, vmax] = a.getMax([]);
      expect(umin).toBeGreaterThanOrEqual(0.125 - 1e-6);
      expect(umax).toBeLessThanOrEqual(0.875 + 1e-6);
      expect(vmin).toBeGreaterThanOrEqual(0.05 - 1e-6);
      expect(vmax).toBeLessThanOrEqual(0.95 + 1e-6);
    }
    const { st } = usdaMesh((await readUsdz(writeSceneUsdz(scene))).usda, 'Edges');
    for (const [s, t] of st!) {
      expect(s).toBeGreaterThanOrEqual(0.125 - 1e-6);
      expect(s).toBeLessThanOrEqual(0.875 + 1e-6);
      expect(t).toBeGreaterThanOrEqual(0.05 - 1e-6);
      expect(t).toBeLessThanOrEqual(0.95 + 1e-6);
    }
  });
});
