import type { Scene } from './scene';

/**
 * Limits of the AR viewers that a model must respect (sources in docs/ar-output.md):
 * - Scene Viewer (Google, "Scene Viewer" developer guide, glTF requirements): at most 10 materials,
 *   textures at most 2048 x 2048 (8k x 8k read but downscaled is not guaranteed), one UV set.
 * - AR Quick Look (Apple, "Creating USD files for Apple devices" / WWDC guidance): textures at most
 *   2048 px; decoded texture memory is the practical limit, failing near 200 MB on phones.
 * - Both: file size is what people wait for on a phone; we cap a model at 60 MB.
 */
export const VIEWER_BUDGETS = {
  maxMaterials: 10,
  maxTexturePx: 2048,
  /** Decoded RGBA bytes of all textures with mipmaps (x 4/3). */
  maxDecodedTextureBytes: 200 * 1024 * 1024,
  maxTriangles: 500_000,
  maxFileBytes: 60 * 1024 * 1024,
} as const;

export interface BudgetUse {
  materials: number;
  textures: number;
  largestTexturePx: number;
  decodedTextureBytes: number;
  triangles: number;
  meshes: number;
}

/** What a scene uses of the viewer budgets (every texture must carry its pixel size). */
export function budgetUse(scene: Scene): BudgetUse {
  let largest = 0;
  let decoded = 0;
  for (const t of scene.textures) {
    const s = t.width && t.height ? { width: t.width, height: t.height } : undefined;
    if (!s) throw new Error(`scene: texture ${t.id} has no pixel size`);
    largest = Math.max(largest, s.width, s.height);
    decoded += Math.ceil((s.width * s.height * 4 * 4) / 3);
  }
  const meshes = scene.nodes.flatMap((n) => n.meshes);
  return {
    materials: scene.materials.length,
    textures: scene.textures.length,
    largestTexturePx: largest,
    decodedTextureBytes: decoded,
    triangles: meshes.reduce((s, m) => s + m.indices.length / 3, 0),
    meshes: meshes.length,
  };
}

/** The budgets a scene would break, as messages; empty when it fits. */
export function budgetViolations(use: BudgetUse, fileBytes?: number): string[] {
  const b = VIEWER_BUDGETS;
  const out: string[] = [];
  if (use.materials > b.maxMaterials) out.push(`${use.materials} materials (Scene Viewer takes at most ${b.maxMaterials})`);
  if (use.largestTexturePx > b.maxTexturePx) out.push(`a ${use.largestTexturePx} px texture (at most ${b.maxTexturePx} px)`);
  if (use.decodedTextureBytes > b.maxDecodedTextureBytes)
    out.push(
      `${Math.round(use.decodedTextureBytes / 1048576)} MB of decoded textures (Quick Look fails near ${b.maxDecodedTextureBytes / 1048576} MB)`,
    );
  if (use.triangles > b.maxTriangles) out.push(`${use.triangles} triangles (at most ${b.maxTriangles})`);
  if (fileBytes !== undefined && fileBytes > b.maxFileBytes)
    out.push(`a ${Math.round(fileBytes / 1048576)} MB file (at most ${b.maxFileBytes / 1048576} MB)`);
  return out;
}
