import { frameGap, frameTimes } from './flipbook-timing';
import { MeshBuilder } from './geometry';
import type { AlphaMode, Rgb, Scene, SceneAnimation, SceneMaterial, SceneMesh, SceneNode, SceneTexture } from './scene';

export const METERS_PER_INCH = 0.0254;
/** Scale of flipbook frames not showing: tiny, not 0 (some renderers drop or mis-light zero-scale nodes). */
export const HIDDEN_SCALE = 1e-4;

export type FrameStyle = 'none' | 'thin' | 'classic' | 'float' | 'canvas';

/** A rectangle of a texture: [u0, v0, u1, v1], glTF convention (origin top-left, v down). */
export type UvRect = [number, number, number, number];

const FULL_UV: UvRect = [0, 0, 1, 1];

/**
 * The picture itself: one texture, or a flipbook of frames packed into atlases. A still picture may show
 * only a rectangle of its texture (`uv`, default the whole of it): the part a `fit: crop` keeps, so that
 * several sizes of one item share one uncropped texture.
 */
export type PictureLayer =
  | { kind: 'still'; texture: SceneTexture; alpha: AlphaMode; uv?: UvRect }
  | {
      kind: 'flipbook';
      atlases: SceneTexture[];
      /** uv: [u0, v0, u1, v1] in the atlas, glTF convention (origin top-left); duration in seconds. */
      frames: { atlas: number; uv: UvRect; duration: number }[];
      alpha: AlphaMode;
    };

export interface PictureSceneInput {
  /** Root prim / node name. */
  name?: string;
  /** The picture's size in metres. */
  picture: { width: number; height: number };
  layer: PictureLayer;
  placement: 'wall' | 'floor';
  finish: 'unlit' | 'matte' | 'gloss';
  frame: {
    style: FrameStyle;
    /** Moulding width (m) seen from the front, each side; 0 for none / canvas. */
    width: number;
    /** Depth of the whole object from the wall (m). */
    depth: number;
    color: Rgb;
    /** A repeating grain texture (wood); the colour is then the texture's. */
    texture?: SceneTexture;
    metallic?: number;
    roughness?: number;
    /** Canvas only: mirror the picture's edges around the sides, or a solid colour. */
    edge?: 'mirror' | Rgb;
  };
  mat: { width: number; color: Rgb } | null;
}

export interface PictureScene {
  scene: Scene;
  /** Outer size in metres (picture + frame + mat; depth from the wall). */
  outer: { width: number; height: number; depth: number };
}

const BACK_COLORS: Record<FrameStyle, Rgb> = {
  none: [0.6, 0.6, 0.6],
  canvas: [0.69, 0.64, 0.55],
  thin: [0.42, 0.3, 0.19],
  classic: [0.42, 0.3, 0.19],
  float: [0.42, 0.3, 0.19],
};

/**
 * Builds the AR scene of a picture: the picture (or its flipbook), and around it the chosen frame,
 * mat, canvas edges and back, as real geometry in metres. Both model writers serialise the result, so
 * a frame is modelled once. Layout: x centred; y centred on the picture for a wall, standing on y = 0
 * for the floor; the back on z = 0 and the front toward +Z. A still layer's `uv` (a centred crop of an
 * uncropped texture) maps onto the front and, for a canvas wrap, is what the mirrored edges continue.
 *
 * @example
 * const { scene, outer } = buildPictureScene({ picture: { width: 0.6, height: 0.9 }, layer, placement: 'wall',
 *   finish: 'matte', frame: { style: 'classic', width: 0.038, depth: 0.032, color: [0.1, 0.06, 0.04] },
 *   mat: { width: 0.05, color: [0.9, 0.9, 0.88] } });
 * // The centre square of a 4:3 texture on a square plane:
 * buildPictureScene({ ...input, picture: { width: 0.6, height: 0.6 }, layer: { ...layer, uv: [0.125, 0, 0.875, 1] } });
 */
export function buildPictureScene(input: PictureSceneInput): PictureScene {
  const { picture: pic, frame } = input;
  if (!(pic.width > 0 && pic.height > 0)) throw new Error('scene: the picture needs a positive size');
  const uv = input.layer.kind === 'still' ? input.layer.uv : undefined;
  if (uv && !(uv[0] >= 0 && uv[1] >= 0 && uv[2] <= 1 && uv[3] <= 1 && uv[0] < uv[2] && uv[1] < uv[3])) {
    throw new Error(`scene: the picture's uv rectangle [${uv.join(', ')}] is not inside the texture`);
  }
  const framed = frame.style === 'thin' || frame.style === 'classic' || frame.style === 'float';
  const matW = framed ? (input.mat?.width ?? 0) : 0;
  const border = framed ? frame.width + matW : 0;
  const outer = { width: pic.width + 2 * border, height: pic.height + 2 * border, depth: frame.depth };
  const cy = input.placement === 'floor' ? outer.height / 2 : 0;
  const D = frame.depth;

  const textures: SceneTexture[] = [];
  const materials: SceneMaterial[] = [];
  const lit = (id: string, color: Rgb, extra: Partial<SceneMaterial> = {}): string => {
    materials.push({ id, unlit: false, color, roughness: 0.9, metallic: 0, alpha: 'opaque', ...extra });
    return id;
  };
  const pictureMaterial = (id: string, texture: SceneTexture, alpha: AlphaMode): string => {
    if (!textures.some((t) => t.id === texture.id)) textures.push(texture);
    const unlit = input.finish === 'unlit';
    materials.push({
      id,
      unlit,
      color: [1, 1, 1],
      texture: texture.id,
      roughness: input.finish === 'gloss' ? 0.25 : 0.85,
      metallic: 0,
      alpha,
    });
    return id;
  };

  // Depth of the picture surface and of the mat, from the wall.
  let zPicture: number;
  let zMat = 0;
  let zFrameInner = D;
  const nodes: SceneNode[] = [];
  const extra: SceneMesh[] = [];

  if (frame.style === 'none') {
    zPicture = D;
  } else if (frame.style === 'canvas') {
    zPicture = D;
  } else {
    const lip = Math.min(0.375 * METERS_PER_INCH, D * 0.4);
    zFrameInner = frame.style === 'classic' ? D - Math.min(0.2 * METERS_PER_INCH, D * 0.2) : D;
    if (frame.style === 'float') {
      // The picture floats on a spacer in front of a backing board (the mat colour), a reveal all round.
      const zBoard = Math.max(D * 0.25, zFrameInner - 2 * lip);
      zPicture = Math.min(zBoard + 0.25 * METERS_PER_INCH, zFrameInner - lip / 2);
      zMat = zBoard;
    } else {
      zMat = zFrameInner - lip;
      zPicture = zMat - 0.06 * METERS_PER_INCH;
    }
  }

  // The frame: front ring(s), outer walls, the opening's inner walls down to the mat.
  if (framed) {
    const fm = lit('Frame', frame.texture ? [1, 1, 1] : frame.color, {
      texture: frame.texture?.id,
      roughness: frame.roughness ?? 0.6,
      metallic: frame.metallic ?? 0,
    });
    if (frame.texture) textures.push(frame.texture);
    const b = new MeshBuilder('Frame', fm);
    const openW = pic.width + 2 * matW;
    const openH = pic.height + 2 * matW;
    if (frame.style === 'classic') {
      const midW = openW + 2 * frame.width * 0.45;
      const midH = openH + 2 * frame.width * 0.45;
      b.ringZ(outer.width, outer.height, midW, midH, D, cy)
        .walls(midW, midH, zFrameInner, D, false, cy)
        .ringZ(midW, midH, openW, openH, zFrameInner, cy);
    } else {
      b.ringZ(outer.width, outer.height, openW, openH, D, cy);
    }
    b.walls(outer.width, outer.height, 0, D, true, cy).walls(openW, openH, zMat, zFrameInner, false, cy);
    extra.push(b.build());

    const mm = lit('Mat', input.mat?.color ?? [0.9, 0.9, 0.88], { roughness: 0.95 });
    const m = new MeshBuilder('Mat', mm);
    if (frame.style === 'float') {
      // Backing board behind the floating picture, and the spacer's sides.
      m.rectZ(-openW / 2, cy - openH / 2, openW / 2, cy + openH / 2, zMat).walls(pic.width, pic.height, zMat, zPicture, true, cy);
    } else if (matW > 0) {
      // Window mat in front of the picture, with its bevelled core around the window.
      m.ringZ(openW, openH, pic.width, pic.height, zMat, cy).walls(pic.width, pic.height, zPicture, zMat, false, cy);
    } else {
      // No mat: the picture meets the frame's lip directly.
      m.walls(pic.width, pic.height, zPicture, zMat, false, cy);
    }
    if (!m.empty) extra.push(m.build(false));
  }

  // The picture, its canvas edges, and the back.
  const layer = input.layer;
  const w = pic.width / 2;
  const h = pic.height / 2;
  const quadUv = (uv: UvRect): [number, number][] => [
    [uv[0], uv[3]],
    [uv[2], uv[3]],
    [uv[2], uv[1]],
    [uv[0], uv[1]],
  ];
  let edgeMaterial: string | undefined;
  let edgeRect: UvRect = FULL_UV;
  let animation: SceneAnimation | undefined;
  if (layer.kind === 'still') {
    const pm = pictureMaterial('Picture', layer.texture, layer.alpha);
    // The canvas edges continue the part shown, not the whole texture.
    edgeRect = layer.uv ?? FULL_UV;
    extra.push(new MeshBuilder('Front', pm).rectZ(-w, cy - h, w, cy + h, zPicture, 1, quadUv(edgeRect)).build());
    edgeMaterial = pm;
  } else {
    const mats = layer.atlases.map((a, i) => pictureMaterial(`Atlas_${i}`, a, layer.alpha));
    const n = layer.frames.length;
    const gap = frameGap(n);
    const { starts, total: t } = frameTimes(layer.frames);
    const tracks: SceneAnimation['tracks'] = [];
    layer.frames.forEach((f, i) => {
      const name = `Frame_${String(i).padStart(4, '0')}`;
      nodes.push({
        name,
        translation: [0, cy, zPicture + i * gap],
        scale: i === 0 ? [1, 1, 1] : [HIDDEN_SCALE, HIDDEN_SCALE, HIDDEN_SCALE],
        // Scaling shrinks toward the node's origin: put it at the quad's centre.
        meshes: [new MeshBuilder('Quad', mats[f.atlas]).rectZ(-w, -h, w, h, 0, 1, quadUv(f.uv)).build()],
      });
      const keys = [{ time: 0, visible: i === 0 }];
      if (i > 0) keys.push({ time: starts[i], visible: true });
      if (i < n - 1) keys.push({ time: starts[i + 1], visible: false });
      keys.push({ time: t, visible: i === n - 1 });
      tracks.push({ node: name, keys });
    });
    animation = { name: 'flipbook', duration: t, tracks };
    edgeMaterial = mats[layer.frames[0].atlas];
    edgeRect = layer.frames[0].uv;
  }

  if (frame.style === 'canvas') {
    // Gallery wrap: the picture continues around the sides (mirrored edge band) or a solid colour.
    const mirror = frame.edge === 'mirror' || frame.edge === undefined;
    const em = mirror ? (edgeMaterial as string) : lit('Edge', frame.edge as Rgb);
    const du = Math.min(1, D / pic.width);
    const dv = Math.min(1, D / pic.height);
    const [u0, v0, u1, v1] = edgeRect;
    const U = (u: number) => u0 + u * (u1 - u0);
    const V = (v: number) => v0 + v * (v1 - v0);
    // Corner order of MeshBuilder.walls: left [back-bottom, front-bottom, front-top, back-top], etc.
    const uv = (side: 'left' | 'right' | 'top' | 'bottom'): [number, number][] => {
      switch (side) {
        case 'left':
          return [
            [U(du), V(1)],
            [U(0), V(1)],
            [U(0), V(0)],
            [U(du), V(0)],
          ];
        case 'right':
          return [
            [U(1), V(1)],
            [U(1 - du), V(1)],
            [U(1 - du), V(0)],
            [U(1), V(0)],
          ];
        case 'top':
          return [
            [U(0), V(0)],
            [U(1), V(0)],
            [U(1), V(dv)],
            [U(0), V(dv)],
          ];
        default:
          return [
            [U(0), V(1 - dv)],
            [U(1), V(1 - dv)],
            [U(1), V(1)],
            [U(0), V(1)],
          ];
      }
    };
    extra.push(new MeshBuilder('Edges', em).walls(pic.width, pic.height, 0, D, true, cy, mirror ? uv : undefined).build());
  }

  const back = lit('Back', BACK_COLORS[frame.style], { roughness: 1 });
  extra.push(
    new MeshBuilder('Back', back)
      .rectZ(-outer.width / 2, cy - outer.height / 2, outer.width / 2, cy + outer.height / 2, 0, -1)
      .build(false),
  );
  nodes.unshift({ name: 'Body', meshes: extra });

  return {
    scene: { name: input.name ?? 'Card', anchoring: input.placement, textures, materials, nodes, animation },
    outer,
  };
}
