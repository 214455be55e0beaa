import sharp from 'sharp';
import type { Rgb, Scene, SceneMaterial } from '@app/scene';

/** Pixels a side of one colour's cell in the palette (sampled at its centre: no neighbour ever blends in). */
const CELL = 4;

/** Linear 0..1 to an 8-bit sRGB value (what a base colour texture holds). */
const toSrgb8 = (c: number) => Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));

export interface MergeMaterialsOptions {
  /**
   * Roughness values that differ by at most this much (in steps of it: 0.1 joins 0.45, 0.5 and 0.55) take light
   * alike and merge, at their mean (default 0: only equal roughness). Tiling material textures (wood grain)
   * of the same look then merge too.
   */
  roughnessStep?: number;
}

/**
 * Merges the scene's solid-colour (untextured) materials that differ only in colour into one material per
 * way of taking light (unlit, alpha, metallic, roughness), the colours moved into one small PNG palette
 * (`palette`, a {@link CELL}-px cell per colour) that every vertex of a merged mesh samples at its colour's
 * cell centre. The surfaces look as before (a constant uv has no mip blending); the scene has fewer materials.
 * With `roughnessStep`, roughness within a step counts as alike (the merged one takes the mean), and materials
 * of the same tiling texture (a wood grain in two frame styles) merge as well. Picture textures (clamped) are
 * never touched. A gallery wall of many frame and mat colours uses it to stay within the viewers' 10 materials
 * and leave room for its pictures. Scenes with nothing to merge are returned as they are.
 *
 * @example
 * const merged = await mergeSolidMaterials(wall.scene);
 * merged.materials.length // e.g. 14 -> 8: black, white and grey thin frames now one `Solid_0`
 * await mergeSolidMaterials(wall.scene, { roughnessStep: 0.1 }); // thin (0.45), float (0.5) and classic (0.55) frames: one
 */
export async function mergeSolidMaterials(scene: Scene, opts: MergeMaterialsOptions = {}): Promise<Scene> {
  const step = opts.roughnessStep ?? 0;
  const tiling = new Set(scene.textures.filter((t) => t.repeat === true).map((t) => t.id));
  // Solid colours merge across colours (into the palette); a tiling texture only with its own look.
  const lookOf = (m: SceneMaterial): string | null =>
    m.texture === undefined
      ? JSON.stringify(['solid', m.unlit, m.alpha, m.metallic])
      : step > 0 && tiling.has(m.texture)
        ? JSON.stringify(['tiled', m.texture, m.color, m.unlit, m.alpha, m.metallic])
        : null;
  // Roughness bands per look: equal values, or with a step, runs whose spread is at most the step.
  const band = new Map<string, number>();
  const byLook = new Map<string, SceneMaterial[]>();
  for (const m of scene.materials) {
    const look = lookOf(m);
    if (look) byLook.set(look, [...(byLook.get(look) ?? []), m]);
  }
  for (const members of byLook.values()) {
    let start = Number.NaN;
    let n = -1;
    for (const m of [...members].sort((a, b) => a.roughness - b.roughness)) {
      if (!(m.roughness - start <= step + 1e-9)) {
        start = m.roughness;
        n++;
      }
      band.set(m.id, n);
    }
  }
  const keyOf = (m: SceneMaterial): string | null => {
    const look = lookOf(m);
    return look ? `${look}#${band.get(m.id)}` : null;
  };
  const groups = new Map<string, SceneMaterial[]>();
  for (const m of scene.materials) {
    const key = keyOf(m);
    if (key) groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const merging = [...groups.values()].filter((g) => g.length > 1);
  if (!merging.length) return scene;

  const solids = merging.filter((g) => g[0].texture === undefined).flat();
  const colours: Rgb[] = [];
  const cellOf = new Map<string, number>();
  for (const m of solids) {
    const key = m.color.map(toSrgb8).join(',');
    let i = colours.findIndex((c) => c.map(toSrgb8).join(',') === key);
    if (i < 0) i = colours.push(m.color) - 1;
    cellOf.set(m.id, i);
  }
  const width = CELL * colours.length;
  const palette = colours.length
    ? await (async () => {
        const pixels = Buffer.alloc(width * CELL * 3);
        colours.forEach((c, i) => {
          const rgb = c.map(toSrgb8);
          for (let y = 0; y < CELL; y++) for (let x = 0; x < CELL; x++) pixels.set(rgb, (y * width + i * CELL + x) * 3);
        });
        return sharp(pixels, { raw: { width, height: CELL, channels: 3 } })
          .png({ compressionLevel: 9 })
          .toBuffer();
      })()
    : null;

  const mergedInto = new Map<string, string>();
  const materials: SceneMaterial[] = [];
  let k = 0;
  for (const m of scene.materials) {
    const key = keyOf(m);
    const group = key ? groups.get(key)! : undefined;
    if (!group || group.length < 2) {
      materials.push(m);
      continue;
    }
    if (group[0] !== m) continue;
    const mean = Math.round((group.reduce((s, g) => s + g.roughness, 0) / group.length) * 100) / 100;
    const id = m.texture === undefined ? `Solid_${k++}` : m.id;
    materials.push(
      m.texture === undefined ? { ...m, id, color: [1, 1, 1], texture: 'palette', roughness: mean } : { ...m, roughness: mean },
    );
    for (const g of group) mergedInto.set(g.id, id);
  }
  const uvOf = (materialId: string): [number, number] => [(cellOf.get(materialId)! * CELL + CELL / 2) / width, 0.5];
  return {
    ...scene,
    textures: palette ? [...scene.textures, { id: 'palette', image: palette, mime: 'image/png', width, height: CELL }] : scene.textures,
    materials,
    nodes: scene.nodes.map((n) => ({
      ...n,
      meshes: n.meshes.map((mesh) => {
        const into = mergedInto.get(mesh.material);
        if (!into) return mesh;
        if (!cellOf.has(mesh.material)) return { ...mesh, material: into };
        const [u, v] = uvOf(mesh.material);
        const count = mesh.positions.length / 3;
        return { ...mesh, material: into, uvs: Array.from({ length: count * 2 }, (_, i) => (i % 2 ? v : u)) };
      }),
    })),
  };
}
