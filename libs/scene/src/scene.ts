/** Linear RGB, 0..1. */
export type Rgb = [number, number, number];
export type Vec3 = [number, number, number];

export type AlphaMode = 'opaque' | 'mask' | 'blend';

/** An image packaged with the model (.png or .jpg). */
export interface SceneTexture {
  id: string;
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  /** Tiles (wood grain); otherwise clamped at the edges (pictures). */
  repeat?: boolean;
  /** Pixel size, for the viewer budgets. */
  width?: number;
  height?: number;
}

/**
 * A surface. `unlit`: the texture's colours exactly as they are (glTF KHR_materials_unlit; USD emissive
 * over black). Otherwise a lit PBR surface: base colour (factor x texture), roughness, metallic.
 */
export interface SceneMaterial {
  id: string;
  unlit: boolean;
  color: Rgb;
  texture?: string;
  roughness: number;
  metallic: number;
  alpha: AlphaMode;
}

/**
 * Triangles in metres, counter-clockwise seen from the front. `uvs` use glTF's convention (origin at
 * the image's top-left); the USD writer flips v.
 */
export interface SceneMesh {
  name: string;
  material: string;
  positions: number[];
  normals: number[];
  uvs?: number[];
  indices: number[];
}

export interface SceneNode {
  name: string;
  meshes: SceneMesh[];
  translation?: Vec3;
  /** Initial scale (flipbook frames not showing at t = 0 are tiny). */
  scale?: Vec3;
}

/** A flipbook: each track shows its node (scale 1) or hides it (scale ~0) from each key time on. */
export interface SceneAnimation {
  name: string;
  /** Loop length in seconds. */
  duration: number;
  tracks: { node: string; keys: { time: number; visible: boolean }[] }[];
}

/**
 * The one description of an AR model that both writers serialise (like glTF-Transform's Document).
 * Coordinates: metres, +Y up, the front faces +Z and the back lies on z = 0 (model-viewer's and
 * Scene Viewer's wall convention: -Z against the wall). `anchoring` tells the USDZ writer how Quick
 * Look should place it.
 */
export interface Scene {
  name: string;
  anchoring: 'wall' | 'floor';
  textures: SceneTexture[];
  materials: SceneMaterial[];
  nodes: SceneNode[];
  animation?: SceneAnimation;
}

/** Axis-aligned bounds of everything in the scene at full scale. */
export function sceneBounds(scene: Scene): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const n of scene.nodes) {
    const t = n.translation ?? [0, 0, 0];
    for (const m of n.meshes) {
      for (let i = 0; i < m.positions.length; i += 3) {
        for (let a = 0; a < 3; a++) {
          const v = m.positions[i + a] + t[a];
          if (v < min[a]) min[a] = v;
          if (v > max[a]) max[a] = v;
        }
      }
    }
  }
  return { min, max };
}

/** sRGB 0..255 hex to linear RGB (glTF factors and USD colours are linear). */
export function hexToLinear(hex: string): Rgb {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`scene: not a #rrggbb colour: ${hex}`);
  return [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
}
