import sharp from 'sharp';
import type { Rgb, Scene, SceneMaterial } from '@app/scene';

/** Pixels a side of one colour's cell in the palette (sampled at its centre: no neighbour ever blends in). */
const CELL = 4;

/** Linear 0..1 to an 8-bit sRGB value (what a base colour texture holds). */
const toSrgb8 = (c: number) => Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));

/** Materials that take light alike (all but their colour): one merged material each. */
const lightKey = (m: SceneMaterial) => JSON.stringify([m.unlit, m.alpha, m.metallic, m.roughness]);

/**
 * Merges the scene's solid-colour (untextured) materials that differ only in colour into one material per
 * way of taking light (unlit, alpha, metallic, roughness: all kept exactly), the colours moved into one small
 * PNG palette (`palette`, a {@link CELL}-px cell per colour) that every vertex of a merged mesh samples at its
 * colour's cell centre. The surfaces look as before (a constant uv has no mip blending); the scene has fewer
 * materials. A gallery wall of many frame and mat colours uses it to stay within the viewers' 10 materials.
 * Scenes with no two such materials are returned as they are.
 *
 * @example
 * const merged = await mergeSolidMaterials(wall.scene);
 * merged.materials.length // e.g. 14 -> 8: black, white and grey thin frames now one `Solid_0`
 */
export async function mergeSolidMaterials(scene: Scene): Promise<Scene> {
  const solid = scene.materials.filter((m) => m.texture === undefined);
  const groups = new Map<string, SceneMaterial[]>();
  for (const m of solid) groups.set(lightKey(m), [...(groups.get(lightKey(m)) ?? []), m]);
  const merging = [...groups.values()].filter((g) => g.length > 1);
  if (!merging.length) return scene;

  const colours: Rgb[] = [];
  const cellOf = new Map<string, number>();
  for (const m of merging.flat()) {
    const key = m.color.map(toSrgb8).join(',');
    let i = colours.findIndex((c) => c.map(toSrgb8).join(',') === key);
    if (i < 0) i = colours.push(m.color) - 1;
    cellOf.set(m.id, i);
  }
  const width = CELL * colours.length;
  const pixels = Buffer.alloc(width * CELL * 3);
  colours.forEach((c, i) => {
    const rgb = c.map(toSrgb8);
    for (let y = 0; y < CELL; y++) for (let x = 0; x < CELL; x++) pixels.set(rgb, (y * width + i * CELL + x) * 3);
  });
  const image = await sharp(pixels, { raw: { width, height: CELL, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();

  const mergedInto = new Map<string, string>();
  const materials: SceneMaterial[] = [];
  let k = 0;
  for (const m of scene.materials) {
    const group = m.texture === undefined ? groups.get(lightKey(m)) : undefined;
    if (!group || group.length < 2) {
      materials.push(m);
      continue;
    }
    if (group[0] === m) {
      const id = `Solid_${k++}`;
      materials.push({ ...m, id, color: [1, 1, 1], texture: 'palette' });
      for (const g of group) mergedInto.set(g.id, id);
    }
  }
  const uvOf = (materialId: string): [number, number] => [(cellOf.get(materialId)! * CELL + CELL / 2) / width, 0.5];
  return {
    ...scene,
    textures: [...scene.textures, { id: 'palette', image, mime: 'image/png', width, height: CELL }],
    materials,
    nodes: scene.nodes.map((n) => ({
      ...n,
      meshes: n.meshes.map((mesh) => {
        const into = mergedInto.get(mesh.material);
        if (!into) return mesh;
        const [u, v] = uvOf(mesh.material);
        const count = mesh.positions.length / 3;
        return { ...mesh, material: into, uvs: Array.from({ length: count * 2 }, (_, i) => (i % 2 ? v : u)) };
      }),
    })),
  };
}
