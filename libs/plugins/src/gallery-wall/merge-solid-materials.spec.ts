import sharp from 'sharp';
import { hexToLinear, type Scene, type SceneMaterial } from '@app/scene';
import { samplePixel, validateGlb } from '@app/testing';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { mergeSolidMaterials } from './merge-solid-materials';

const quad = (name: string, material: string, x: number) => ({
  name,
  material,
  positions: [x, 0, 0, x + 0.1, 0, 0, x + 0.1, 0.1, 0, x, 0.1, 0],
  normals: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
  indices: [0, 1, 2, 0, 2, 3],
});
const solid = (id: string, hex: string, roughness = 0.45, metallic = 0): SceneMaterial => ({
  id,
  unlit: false,
  color: hexToLinear(hex),
  roughness,
  metallic,
  alpha: 'opaque',
});

describe('mergeSolidMaterials', () => {
  const scene: Scene = {
    name: 'Wall',
    anchoring: 'wall',
    textures: [],
    materials: [
      solid('Frame', '#111111'),
      solid('Frame_2', '#f4f1ea'),
      solid('Frame_3', '#c9a45c', 0.35, 0.85),
      solid('Mat', '#fafafa', 1),
      solid('Back', '#6b5b4b', 1),
    ],
    nodes: [
      { name: 'Item_0', meshes: [quad('Frame', 'Frame', 0), quad('Mat', 'Mat', 0.2)] },
      { name: 'Item_1', meshes: [quad('Frame', 'Frame_2', 0.4), quad('Back', 'Back', 0.6)] },
      { name: 'Item_2', meshes: [quad('Frame', 'Frame_3', 0.8)] },
    ],
  };

  it('merges materials that differ in colour only into one palette material each, keeping how they take light', async () => {
    const merged = await mergeSolidMaterials(scene);
    // The two 0.45 frames share one, mat and back (roughness 1) another; the gold frame (metal) stays.
    expect(merged.materials.map((m) => [m.id, m.roughness, m.metallic, m.texture ?? null])).toEqual([
      ['Solid_0', 0.45, 0, 'palette'],
      ['Frame_3', 0.35, 0.85, null],
      ['Solid_1', 1, 0, 'palette'],
    ]);
    expect(merged.textures.map((t) => t.id)).toEqual(['palette']);
    // Every merged mesh samples its own colour: the palette pixel under its (constant) uv.
    const palette = merged.textures[0].image;
    const want: Record<string, string> = {
      'Item_0/Frame': '#111111',
      'Item_0/Mat': '#fafafa',
      'Item_1/Frame': '#f4f1ea',
      'Item_1/Back': '#6b5b4b',
    };
    for (const [path, hex] of Object.entries(want)) {
      const [node, mesh] = path.split('/');
      const m = merged.nodes.find((n) => n.name === node)!.meshes.find((x) => x.name === mesh)!;
      expect(new Set(m.uvs!.filter((_, i) => i % 2 === 0)).size).toBe(1);
      const got = await samplePixel(palette, m.uvs![0], m.uvs![1]);
      expect(got).toEqual([1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)));
    }
    expect((await validateGlb(await writeSceneGlb(merged))).numErrors).toBe(0);
  });

  it('with a roughness step, joins close roughness (at the mean) and one wood grain in two styles; never a picture', async () => {
    const image = (fmt: 'png' | 'jpeg') =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: '#b8895a' } })
        .toFormat(fmt)
        .toBuffer();
    const grain = { id: 'grain', image: await image('png'), mime: 'image/png' as const, repeat: true, width: 8, height: 8 };
    const picture = { id: 'picture_0', image: await image('jpeg'), mime: 'image/jpeg' as const, width: 8, height: 8 };
    const uv = (q: ReturnType<typeof quad>) => ({ ...q, uvs: [0, 1, 1, 1, 1, 0, 0, 0] });
    const wood = (id: string, roughness: number): SceneMaterial => ({ ...solid(id, '#b8895a', roughness), texture: 'grain' });
    const tolerant: Scene = {
      ...scene,
      textures: [grain, picture],
      materials: [
        solid('Frame', '#111111', 0.45),
        solid('Frame_2', '#f4f1ea', 0.55),
        wood('Frame_3', 0.55),
        wood('Frame_4', 0.5),
        { ...solid('Picture', '#ffffff', 1), texture: 'picture_0' },
        { ...solid('Picture_2', '#ffffff', 1), texture: 'picture_0' },
      ],
      nodes: [
        { name: 'Item_0', meshes: [quad('Frame', 'Frame', 0), uv(quad('Front', 'Picture', 0))] },
        { name: 'Item_1', meshes: [quad('Frame', 'Frame_2', 0.4), uv(quad('Front', 'Picture_2', 0.4))] },
        { name: 'Item_2', meshes: [uv(quad('Frame', 'Frame_3', 0.8)), uv(quad('Back', 'Frame_4', 0.8))] },
      ],
    };
    // Exact: nothing alike (0.45 vs 0.55; the grains differ in roughness).
    expect(await mergeSolidMaterials(tolerant)).toBe(tolerant);
    const merged = await mergeSolidMaterials(tolerant, { roughnessStep: 0.1 });
    expect(merged.materials.map((m) => [m.id, m.roughness, m.texture ?? null])).toEqual([
      ['Solid_0', 0.5, 'palette'],
      ['Frame_3', 0.53, 'grain'],
      ['Picture', 1, 'picture_0'],
      ['Picture_2', 1, 'picture_0'],
    ]);
    const mesh = (node: string, name: string) => merged.nodes.find((n) => n.name === node)!.meshes.find((m) => m.name === name)!;
    expect(mesh('Item_2', 'Back').material).toBe('Frame_3');
    // The grain keeps its own uvs (it tiles); the pictures are untouched.
    expect(mesh('Item_2', 'Back').uvs).toEqual([0, 1, 1, 1, 1, 0, 0, 0]);
    expect(mesh('Item_1', 'Front')).toEqual(tolerant.nodes[1].meshes[1]);
    expect((await validateGlb(await writeSceneGlb(merged))).numErrors).toBe(0);
  });

  it('leaves a scene with nothing to merge as it is', async () => {
    const one: Scene = { ...scene, materials: [solid('Frame', '#111111')], nodes: [scene.nodes[0]] };
    expect(await mergeSolidMaterials(one)).toBe(one);
  });
});
