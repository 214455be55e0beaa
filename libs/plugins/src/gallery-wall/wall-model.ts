import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { PipelineError, UserError } from '@app/pipeline';
import {
  type AlphaMode,
  budgetUse,
  type BudgetUse,
  METERS_PER_INCH,
  type Scene,
  type SceneMaterial,
  type SceneNode,
  type SceneTexture,
  type UvRect,
  VIEWER_BUDGETS,
} from '@app/scene';
import { type Dimensions, parseDimensionRequest, resolveDimensions } from '../dimensions/dimensions';
import { type FitResult, parseFit, planFitCrop } from '../fit/fit';
import { ATLAS_JPEG, ATLAS_PNG } from '../flipbook/pack-atlases';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import type { Poster, RawPixels } from '../normalise/normalise-image';
import { outerDimensions, parsePresentation, type Presentation } from '../presentation/presentation';
import type { ModelFileBodies } from '../publish/model-files';
import { framedPoster } from '../scene-builder/framed-poster';
import { pictureScene } from '../scene-builder/picture-model';
import { checkFileBudget, checkViewerBudgets } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';
import { arrangeWall, type ArrangeWallOptions, type WallLayout, type WallPosition } from './arrange-wall';
import { type MergeMaterialsOptions, mergeSolidMaterials } from './merge-solid-materials';

/** One picture of a gallery wall: its texture (the whole picture, as normalise made it) and its spec. */
export interface WallPictureInput {
  texture: {
    image: Buffer;
    mime: 'image/jpeg' | 'image/png';
    width: number;
    height: number;
    /** Default: opaque for a JPEG, blend for a PNG (normalise writes PNG only for pictures with transparency). */
    alpha?: AlphaMode;
  };
  /** Displayed size of the source (after EXIF rotation), for the default size. */
  sourceWidth: number;
  sourceHeight: number;
  /**
   * The picture's size and presentation, the fields of a variant spec: width_inches + height_inches (or
   * aspect_ratio, or neither: 24 in on the shorter side), fit, frame, mat, finish, placement (wall only).
   */
  spec: Record<string, unknown>;
}

/** A wall picture's size and presentation resolved from its spec. */
export interface ResolvedWallPicture {
  dimensions: Dimensions;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  presentation: Presentation;
  /** How the picture met an explicit size (crop through the quad's uv, stretch, or none). */
  fit?: FitResult;
  /** The part of the texture shown ([u0, v0, u1, v1], from the top left); absent for the whole texture. */
  crop?: UvRect;
}

/** How the wall's pictures are packaged: their own textures as given, or re-encoded (into atlases or one by one). */
export interface WallTextures {
  /** The pictures share atlas textures (the materials would otherwise exceed 10). */
  atlas: boolean;
  /** The pictures' textures were decoded and encoded again (atlases, or smaller to meet the budgets). */
  reencoded: boolean;
  /** Picture textures in the model (atlases or one per distinct picture). */
  count: number;
  /** Their pixel sizes, [width, height]. */
  px: [number, number][];
  /** Longest side, in texture pixels, of the largest picture as shown. */
  picture_px: number;
}

export interface WallModel {
  /** One scene: every picture its own node `Item_<i>`, translated to its position; materials shared. */
  scene: Scene;
  /** The framed pictures at their positions on a plain light wall, to scale (JPEG, at most 2048 px a side). */
  poster: Poster;
  /** Each picture as resolved, with its outer centre (inches, y up, relative to the wall's centre). */
  pictures: (ResolvedWallPicture & { position: { x_inches: number; y_inches: number } })[];
  /** The whole arrangement's outer size (inches), depth the deepest picture's. */
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  textures: WallTextures;
  /** What the scene uses of the viewer budgets. */
  budget: BudgetUse;
}

export interface BuildWallOptions {
  /** Root prim / node name (default `Wall`). */
  name?: string;
  /** The request field listing the pictures, for errors (`items[2].frame.style`); default `items`. */
  itemsParam?: string;
  /** Poster wall colour, sRGB hex (default a light warm grey). */
  wallColor?: string;
  /** Longest side of the poster (default and at most 2048). */
  posterPx?: number;
}

const STAGE = 'wall';
/** Pixels of edge copied around each atlas cell, so filtering never reaches a neighbour. */
const CELL_PAD = 2;
/** Room left in the file budget for geometry and the USDA text. */
const FILE_MARGIN = 2 * 1024 * 1024;
const DEFAULT_WALL_COLOR = '#ebe8e2';

const fail = (param: string, message: string, code = 'parameter_invalid') =>
  new UserError(code, `${STAGE}: ${param}: ${message}`, { param });

/** Re-raises a spec's UserError as `wall: items[i].<param>: …`, naming the item's field. */
function itemError(at: string, e: unknown): unknown {
  if (!(e instanceof PipelineError) || e.kind !== 'user') return e;
  const param = e.param ? `${at}.${e.param}` : at;
  const message = e.param && e.message.startsWith(`${e.param}:`) ? `${at}.${e.message}` : `${at}: ${e.message}`;
  return new UserError(e.code, `${STAGE}: ${message}`, { param });
}

/**
 * A wall picture's size (explicit, aspect or from its pixels: docs/api.md, Picture size), fit and presentation from its
 * spec, as a variant's: the texture stays whole and a `fit: crop` is the picture quad's uv. Only wall
 * placement is taken. Errors are UserErrors `wall: items[i].<field>: …`.
 *
 * @example
 * resolveWallPicture({ texture, sourceWidth: 4000, sourceHeight: 3000, spec: { width_inches: 20, height_inches: 20, fit: 'crop',
 *   frame: { style: 'thin', color: 'oak' } } }, 3)
 * // { dimensions: { width_inches: 20, height_inches: 20 }, outer_dimensions: { width_inches: 21, … }, crop: [0.125, 0, 0.875, 1], … }
 */
export function resolveWallPicture(p: WallPictureInput, index: number, itemsParam = 'items'): ResolvedWallPicture {
  const at = `${itemsParam}[${index}]`;
  try {
    const size = parseDimensionRequest(p.spec);
    const mode = parseFit(p.spec);
    const presentation = parsePresentation(p.spec);
    if (presentation.placement !== 'wall') throw fail(`${at}.placement`, 'every picture of a gallery wall hangs on the wall');
    const dimensions = resolveDimensions(size, p.sourceWidth, p.sourceHeight);
    const plan = size.mode === 'explicit' ? planFitCrop(mode, p.sourceWidth, p.sourceHeight, size.width / size.height) : undefined;
    return {
      dimensions,
      outer_dimensions: outerDimensions(dimensions, presentation),
      presentation,
      ...(plan ? { fit: plan.fit } : {}),
      ...(plan?.crop ? { crop: plan.crop.uv } : {}),
    };
  } catch (e) {
    if (e instanceof UserError && e.message.startsWith(`${STAGE}: `)) throw e;
    throw itemError(at, e);
  }
}

/** The exact outer size of a framed picture in inches (unrounded, as the scene models it): what {@link arrangeWall} lays out. */
export function wallPictureOuter(r: ResolvedWallPicture): { width: number; height: number; depth: number } {
  const { frame, mat } = r.presentation;
  const framed = frame.style === 'thin' || frame.style === 'classic' || frame.style === 'float';
  const border = framed ? 2 * (frame.width_inches + (mat?.width_inches ?? 0)) : 0;
  return { width: r.dimensions.width_inches + border, height: r.dimensions.height_inches + border, depth: frame.depth_inches };
}

/** The outer edges of the whole arrangement (inches, y up): each picture's outer size about its position. */
function outerBounds(outers: readonly { width: number; height: number }[], positions: readonly WallPosition[]) {
  return {
    x0: Math.min(...positions.map((p, i) => p.x - outers[i].width / 2)),
    x1: Math.max(...positions.map((p, i) => p.x + outers[i].width / 2)),
    y0: Math.min(...positions.map((p, i) => p.y - outers[i].height / 2)),
    y1: Math.max(...positions.map((p, i) => p.y + outers[i].height / 2)),
  };
}

/** The region of the texture a picture shows, in texture pixels. */
function shownRegion(p: WallPictureInput, r: ResolvedWallPicture): { left: number; top: number; width: number; height: number } {
  const [u0, v0, u1, v1] = r.crop ?? [0, 0, 1, 1];
  const W = p.texture.width;
  const H = p.texture.height;
  const left = Math.min(W - 1, Math.max(0, Math.round(u0 * W)));
  const top = Math.min(H - 1, Math.max(0, Math.round(v0 * H)));
  return {
    left,
    top,
    width: Math.max(1, Math.min(W, Math.round(u1 * W)) - left),
    height: Math.max(1, Math.min(H, Math.round(v1 * H)) - top),
  };
}

const alphaOf = (p: WallPictureInput): AlphaMode => p.texture.alpha ?? (p.texture.mime === 'image/png' ? 'blend' : 'opaque');
const decodedBytes = (w: number, h: number) => Math.ceil((w * h * 4 * 4) / 3);

/** Materials that look the same (colour, texture, roughness, metal, alpha, lighting) share one key. */
const materialKey = (m: SceneMaterial) => JSON.stringify([m.unlit, m.color, m.texture ?? null, m.roughness, m.metallic, m.alpha]);

/**
 * Merges pictures' scenes into one: each scene's nodes become one node per picture, translated; textures
 * kept once by id; identical materials kept once (the first one's name, `_2`, `_3`… for other looks).
 */
function mergeScenes(name: string, parts: { scene: Scene; node: string; translation: [number, number, number] }[]): Scene {
  const textures: SceneTexture[] = [];
  const materials: SceneMaterial[] = [];
  const byKey = new Map<string, string>();
  const used = new Map<string, number>();
  const nodes: SceneNode[] = [];
  for (const part of parts) {
    for (const t of part.scene.textures) if (!textures.some((k) => k.id === t.id)) textures.push(t);
    const rename = new Map<string, string>();
    for (const m of part.scene.materials) {
      const key = materialKey(m);
      let id = byKey.get(key);
      if (!id) {
        const n = (used.get(m.id) ?? 0) + 1;
        used.set(m.id, n);
        id = n === 1 ? m.id : `${m.id}_${n}`;
        byKey.set(key, id);
        materials.push({ ...m, id });
      }
      rename.set(m.id, id);
    }
    const own = part.scene.nodes;
    for (const n of own) {
      const t = n.translation ?? [0, 0, 0];
      nodes.push({
        ...n,
        name: own.length === 1 ? part.node : `${part.node}_${n.name}`,
        translation: [t[0] + part.translation[0], t[1] + part.translation[1], t[2] + part.translation[2]],
        meshes: n.meshes.map((m) => ({ ...m, material: rename.get(m.material) ?? m.material })),
      });
    }
  }
  return { name, anchoring: 'wall', textures, materials, nodes };
}

interface Cell {
  index: number;
  group: string;
  w: number;
  h: number;
}
interface Placed extends Cell {
  atlas: number;
  x: number;
  y: number;
}
/** A picture's shown region as packed: its cell (no padding) in its atlas's raw pixels. */
interface PictureCell {
  pixels: RawPixels;
  left: number;
  top: number;
  width: number;
  height: number;
}

interface Packing {
  placed: Placed[];
  atlases: { group: string; width: number; height: number }[];
}

/**
 * Shelf packing, group by group (pictures of one finish and alpha share a material): cells (padded) tallest
 * first, left to right on shelves of an atlas at most `max` px a side, a new atlas when one is full. With
 * `single`, every cell is its own texture.
 */
function pack(cells: Cell[], max: number, single: boolean): Packing {
  const placed: Placed[] = [];
  const atlases: Packing['atlases'] = [];
  const groups = [...new Set(cells.map((c) => c.group))];
  for (const group of groups) {
    const list = cells.filter((c) => c.group === group).sort((a, b) => b.h - a.h || a.index - b.index);
    let atlas = -1;
    let x = 0;
    let y = 0;
    let shelf = 0;
    for (const c of list) {
      const w = c.w + 2 * CELL_PAD;
      const h = c.h + 2 * CELL_PAD;
      if (atlas >= 0 && !single && x + w > max) {
        y += shelf;
        x = 0;
        shelf = 0;
      }
      if (atlas < 0 || single || y + h > max) {
        atlases.push({ group, width: 0, height: 0 });
        atlas = atlases.length - 1;
        x = 0;
        y = 0;
        shelf = 0;
      }
      placed.push({ ...c, atlas, x, y });
      x += w;
      shelf = Math.max(shelf, h);
      atlases[atlas].width = Math.max(atlases[atlas].width, x);
      atlases[atlas].height = Math.max(atlases[atlas].height, y + shelf);
    }
  }
  return { placed, atlases };
}

/** Runs `fn` over `items` with at most `n` at once, results in order. */
async function mapLimit<T, R>(items: readonly T[], n: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/**
 * The pictures' shown regions re-encoded into textures laid out by `packing`: each region resized to its
 * cell, its edge pixels copied around it, copied into its atlas's pixels, each atlas encoded once (JPEG
 * for opaque pictures, PNG with alpha). Returns the textures and each picture's texture and uv.
 */
async function encodePacking(
  pictures: readonly WallPictureInput[],
  regions: ReturnType<typeof shownRegion>[],
  packing: Packing,
  alphaGroups: Set<string>,
  prefix: 'atlas' | 'picture',
): Promise<{ textures: SceneTexture[]; layers: { texture: string; uv: UvRect }[]; cells: PictureCell[] }> {
  const atlases = packing.atlases.map((a) => {
    const ch = alphaGroups.has(a.group) ? 4 : 3;
    return { ...a, ch, pixels: Buffer.alloc(a.width * a.height * ch) };
  });
  const layers: { texture: string; uv: UvRect }[] = new Array(pictures.length);
  const cells: PictureCell[] = new Array(pictures.length);
  await mapLimit(packing.placed, 4, async (c) => {
    const a = atlases[c.atlas];
    const r = regions[c.index];
    let img = sharp(pictures[c.index].texture.image).toColourspace('srgb');
    if (r.left !== 0 || r.top !== 0 || r.width !== pictures[c.index].texture.width || r.height !== pictures[c.index].texture.height) {
      img = img.extract(r);
    }
    img = img
      .resize(c.w, c.h, { fit: 'fill' })
      .extend({ top: CELL_PAD, bottom: CELL_PAD, left: CELL_PAD, right: CELL_PAD, extendWith: 'copy' });
    const data = await (a.ch === 4 ? img.ensureAlpha() : img.removeAlpha()).raw().toBuffer();
    const w = c.w + 2 * CELL_PAD;
    const row = w * a.ch;
    for (let y = 0; y < c.h + 2 * CELL_PAD; y++) data.copy(a.pixels, ((c.y + y) * a.width + c.x) * a.ch, y * row, (y + 1) * row);
    cells[c.index] = {
      pixels: { data: a.pixels, width: a.width, height: a.height, channels: a.ch as 3 | 4 },
      left: c.x + CELL_PAD,
      top: c.y + CELL_PAD,
      width: c.w,
      height: c.h,
    };
    layers[c.index] = {
      texture: `${prefix}_${c.atlas}`,
      uv: [(c.x + CELL_PAD) / a.width, (c.y + CELL_PAD) / a.height, (c.x + CELL_PAD + c.w) / a.width, (c.y + CELL_PAD + c.h) / a.height],
    };
  });
  const textures = await Promise.all(
    atlases.map(async (a, i): Promise<SceneTexture> => {
      const img = sharp(a.pixels, { raw: { width: a.width, height: a.height, channels: a.ch as 3 | 4 } });
      const png = a.ch === 4;
      const image = png ? await img.png(ATLAS_PNG).toBuffer() : await img.jpeg(ATLAS_JPEG).toBuffer();
      return { id: `${prefix}_${i}`, image, mime: png ? 'image/png' : 'image/jpeg', width: a.width, height: a.height };
    }),
  );
  return { textures, layers, cells };
}

/**
 * The poster of the wall: every picture framed as its model is ({@link framedPoster}), at one scale, at its
 * position on a plain light wall with a margin around the arrangement. JPEG, at most `posterPx` a side.
 */
async function wallPoster(
  pictures: readonly WallPictureInput[],
  resolved: readonly ResolvedWallPicture[],
  regions: ReturnType<typeof shownRegion>[],
  positions: readonly WallPosition[],
  opts: BuildWallOptions,
  /** The pictures already decoded into atlases (re-encoded walls): drawn from there, not decoded again. */
  cells?: readonly PictureCell[],
): Promise<Poster> {
  const outers = resolved.map(wallPictureOuter);
  const { x0, x1, y0, y1 } = outerBounds(outers, positions);
  const margin = Math.max(6, 0.08 * Math.max(x1 - x0, y1 - y0));
  const wallW = x1 - x0 + 2 * margin;
  const wallH = y1 - y0 + 2 * margin;
  const maxPx = Math.min(2048, opts.posterPx ?? 2048);
  const ppi = Math.min(maxPx / wallW, maxPx / wallH);
  const W = Math.min(maxPx, Math.round(wallW * ppi));
  const H = Math.min(maxPx, Math.round(wallH * ppi));
  const hex = opts.wallColor ?? DEFAULT_WALL_COLOR;
  const bg = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const out = Buffer.alloc(W * H * 3).fill(Buffer.from(bg));
  const framed = await mapLimit(pictures, 4, async (p, i) => {
    const r = resolved[i];
    const w = Math.max(1, Math.round(r.dimensions.width_inches * ppi));
    const h = Math.max(1, Math.round(r.dimensions.height_inches * ppi));
    // Enough pixels in the cell for the poster's picture (it is smaller, but for very few pictures on a large poster).
    const cell = cells?.[i] && cells[i].width >= w && cells[i].height >= h ? cells[i] : undefined;
    const source = cell
      ? sharp(cell.pixels.data, { raw: { width: cell.pixels.width, height: cell.pixels.height, channels: cell.pixels.channels } }).extract({
          left: cell.left,
          top: cell.top,
          width: cell.width,
          height: cell.height,
        })
      : sharp(p.texture.image).toColourspace('srgb').extract(regions[i]);
    const { data, info } = await source
      .resize(w, h, { fit: 'fill' })
      .flatten({ background: hex })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const poster: Poster = {
      image: Buffer.alloc(0),
      mime: 'image/jpeg',
      ext: 'jpg',
      width: info.width,
      height: info.height,
      pixels: { data, width: info.width, height: info.height, channels: 3 },
    };
    return (await framedPoster(poster, r.dimensions, r.presentation)).pixels!;
  });
  framed.forEach((px, i) => {
    const cx = (positions[i].x - x0 + margin) * ppi;
    const cy = (y1 + margin - positions[i].y) * ppi;
    const left = Math.round(cx - px.width / 2);
    const top = Math.round(cy - px.height / 2);
    for (let y = 0; y < px.height; y++) {
      const ty = top + y;
      if (ty < 0 || ty >= H) continue;
      const a = Math.max(0, -left);
      const b = Math.min(px.width, W - left);
      if (b <= a) continue;
      px.data.copy(out, (ty * W + left + a) * 3, (y * px.width + a) * px.channels, (y * px.width + b) * px.channels);
    }
  });
  const image = await sharp(out, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 85, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return { image, mime: 'image/jpeg', ext: 'jpg', width: W, height: H };
}

/**
 * Builds the AR scene of a gallery wall: every picture (size, fit, frame, mat, finish from its spec, as
 * {@link resolveWallPicture}) modelled as a single picture is ({@link pictureScene}) and placed as node
 * `Item_<i>` at its position (the outer centre, inches, y up, as {@link arrangeWall} gives), backs on the
 * wall (z = 0), the scene wall-anchored like a single picture's. Frame, mat, back and edge materials that
 * look the same are one material, pictures with the same bytes one texture.
 *
 * Budgets ({@link VIEWER_BUDGETS}): the pictures' textures are embedded as given while the scene has at most
 * 10 materials, 200 MB of decoded textures and fits the file budget. Otherwise they are re-encoded (the
 * only place a texture is): into shelf-packed atlases (<= 2048 px, one material per atlas) when the
 * materials would exceed 10, else one smaller texture each; every picture gets the same longest side
 * (`textures.picture_px`, never more than it has), the largest that fits every budget, the parts shown
 * (crops) only. A scene still over a budget (frames and mats of too many looks) is a UserError `wall: …`.
 *
 * @example
 * const layout = arrangeWall(resolved.map((r) => ({ outer: … })), { arrangement: 'salon' });
 * const wall = await buildWallModel(pictures, layout.positions);
 * wall.textures // { atlas: true, reencoded: true, count: 2, px: [[2048, 1540], [2048, 1026]], picture_px: 1020 }
 * const glb = await writeSceneGlb(wall.scene);
 */
export async function buildWallModel(
  pictures: readonly WallPictureInput[],
  positions: readonly WallPosition[],
  opts: BuildWallOptions = {},
): Promise<WallModel> {
  const items = opts.itemsParam ?? 'items';
  if (positions.length !== pictures.length) {
    throw new Error(`${STAGE}: ${pictures.length} pictures but ${positions.length} positions`);
  }
  const resolved = pictures.map((p, i) => resolveWallPicture(p, i, items));
  const regions = pictures.map((p, i) => shownRegion(p, resolved[i]));
  const name = opts.name ?? 'Wall';

  // The pictures' own textures, one per distinct image.
  const byHash = new Map<string, string>();
  const own = pictures.map((p, i) => {
    const h = createHash('sha1').update(p.texture.image).digest('hex');
    if (!byHash.has(h)) byHash.set(h, `picture_${i}`);
    return byHash.get(h)!;
  });
  const build = async (layerOf: (i: number) => { texture: SceneTexture; uv?: UvRect }) => {
    const parts = await Promise.all(
      pictures.map(async (p, i) => {
        const { texture, uv } = layerOf(i);
        const { scene } = await pictureScene(resolved[i].presentation, resolved[i].dimensions, {
          kind: 'still',
          texture,
          alpha: alphaOf(p),
          ...(uv ? { uv } : {}),
        });
        const pos = positions[i];
        return { scene, node: `Item_${i}`, translation: [pos.x * METERS_PER_INCH, pos.y * METERS_PER_INCH, 0] as [number, number, number] };
      }),
    );
    const merged = mergeScenes(name, parts);
    return mergeSolids ? mergeSolidMaterials(merged, mergeSolids) : merged;
  };
  let mergeSolids: MergeMaterialsOptions | null = null;
  // Each picture with its own texture, as given.
  const ownLayer = (i: number) => ({
    texture: {
      id: own[i],
      image: pictures[i].texture.image,
      mime: pictures[i].texture.mime,
      width: pictures[i].texture.width,
      height: pictures[i].texture.height,
    },
    uv: resolved[i].crop,
  });

  const B = VIEWER_BUDGETS;
  const fileLimit = B.maxFileBytes - FILE_MARGIN;
  let scene = await build(ownLayer);
  let use = budgetUse(scene);
  const bytes = (s: Scene) => s.textures.reduce((n, t) => n + t.image.length, 0);
  let textures: WallTextures;
  let cells: PictureCell[] | undefined;
  const pictureTextures = new Set(own);
  // Over the material limit: frames and mats that differ only in colour share a material (a palette: it looks the
  // same), which may avoid re-encoding the pictures and otherwise leaves more atlases, so more pixels, for them.
  // Still over: roughness within 0.1 counts as alike too (thin, float and classic mouldings: 0.45-0.55), and a
  // wood grain in two styles becomes one material.
  for (const merge of [{}, { roughnessStep: 0.1 }]) {
    if (use.materials <= B.maxMaterials) break;
    mergeSolids = merge;
    scene = await build(ownLayer);
    use = budgetUse(scene);
  }
  if (
    use.materials <= B.maxMaterials &&
    use.decodedTextureBytes <= B.maxDecodedTextureBytes &&
    use.largestTexturePx <= B.maxTexturePx &&
    bytes(scene) <= fileLimit
  ) {
    const kept = scene.textures.filter((t) => pictureTextures.has(t.id));
    textures = {
      atlas: false,
      reencoded: false,
      count: kept.length,
      px: kept.map((t) => [t.width!, t.height!]),
      picture_px: Math.max(...regions.map((r) => Math.max(r.width, r.height))),
    };
  } else {
    const isPicture = (m: SceneMaterial) => m.texture !== undefined && pictureTextures.has(m.texture);
    const baseMaterials = scene.materials.filter((m) => !isPicture(m)).length;
    const otherTextures = scene.textures.filter((t) => !pictureTextures.has(t.id));
    const otherDecoded = otherTextures.reduce((s, t) => s + decodedBytes(t.width!, t.height!), 0);
    const otherBytes = bytes({ ...scene, textures: otherTextures });
    const atlas = use.materials > B.maxMaterials;
    const groupOf = (i: number) => `${alphaOf(pictures[i])}/${resolved[i].presentation.finish}`;
    const alphaGroups = new Set(pictures.map((p, i) => (alphaOf(p) === 'opaque' ? '' : groupOf(i))).filter(Boolean));
    const cellsAt = (P: number): Cell[] =>
      regions.map((r, i) => {
        const k = Math.min(1, P / Math.max(r.width, r.height));
        return { index: i, group: groupOf(i), w: Math.max(1, Math.round(r.width * k)), h: Math.max(1, Math.round(r.height * k)) };
      });
    const fits = (p: Packing) =>
      baseMaterials + (atlas ? p.atlases.length : new Set(p.placed.map((c) => c.atlas)).size) <= B.maxMaterials &&
      otherDecoded + p.atlases.reduce((s, a) => s + decodedBytes(a.width, a.height), 0) <= B.maxDecodedTextureBytes;
    const largest = Math.max(...regions.map((r) => Math.max(r.width, r.height)));
    let P = Math.min(largest, B.maxTexturePx - 2 * CELL_PAD);
    let packing = pack(cellsAt(P), B.maxTexturePx, !atlas);
    while (!fits(packing) && P > 64) packing = pack(cellsAt(--P), B.maxTexturePx, !atlas);
    if (!fits(packing)) {
      throw fail(
        items,
        `the pictures' frames, mats and backs need ${baseMaterials} materials of their own; AR viewers take at most ${B.maxMaterials} in all: use fewer frame and mat colours`,
        'viewer_budget_exceeded',
      );
    }
    let encoded = await encodePacking(pictures, regions, packing, alphaGroups, atlas ? 'atlas' : 'picture');
    // JPEG and PNG sizes are known once encoded: smaller until the file budget holds.
    while (otherBytes + encoded.textures.reduce((s, t) => s + t.image.length, 0) > fileLimit && P > 64) {
      P = Math.max(64, Math.floor(P * 0.8));
      packing = pack(cellsAt(P), B.maxTexturePx, !atlas);
      encoded = await encodePacking(pictures, regions, packing, alphaGroups, atlas ? 'atlas' : 'picture');
    }
    const byId = new Map(encoded.textures.map((t) => [t.id, t]));
    scene = await build((i) => ({ texture: byId.get(encoded.layers[i].texture)!, uv: encoded.layers[i].uv }));
    cells = encoded.cells;
    textures = {
      atlas,
      reencoded: true,
      count: encoded.textures.length,
      px: encoded.textures.map((t) => [t.width!, t.height!]),
      picture_px: Math.max(...cellsAt(P).map((c) => Math.max(c.w, c.h))),
    };
    use = budgetUse(scene);
  }
  try {
    checkViewerBudgets(STAGE, scene);
  } catch (e) {
    if (e instanceof UserError) throw new UserError(e.code, e.message, { param: items });
    throw e;
  }

  const outers = resolved.map(wallPictureOuter);
  const { x0, x1, y0, y1 } = outerBounds(outers, positions);
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    scene,
    poster: await wallPoster(pictures, resolved, regions, positions, opts, cells),
    pictures: resolved.map((r, i) => ({ ...r, position: { x_inches: positions[i].x, y_inches: positions[i].y } })),
    outer_dimensions: { width_inches: r3(x1 - x0), height_inches: r3(y1 - y0), depth_inches: r3(Math.max(...outers.map((o) => o.depth))) },
    textures,
    budget: use,
  };
}

/** A gallery wall built and written: its layout, its model and the three file bodies (GLB, USDZ, poster). */
export interface GalleryWall {
  layout: WallLayout;
  model: WallModel;
  bodies: ModelFileBodies;
}

/**
 * The whole gallery wall from its pictures: each picture resolved ({@link resolveWallPicture}), laid out by
 * its outer size ({@link arrangeWall}), modelled ({@link buildWallModel}), written as GLB and USDZ (root
 * layer `wall.usda`) by the single-picture writers, each checked against the file budget. Errors are
 * UserErrors prefixed `wall: `.
 *
 * @example
 * const wall = await buildGalleryWall(
 *   imgs.map((img, i) => ({ texture: { image: img.texture, mime: img.mime, width: img.width, height: img.height, alpha: img.alpha },
 *     sourceWidth: img.sourceWidth, sourceHeight: img.sourceHeight, spec: items[i] })),
 *   { arrangement: 'grid', columns: 3, gapInches: 2 },
 * );
 * await storage.put(`models/${jobId}/model.glb`, wall.bodies.glb, CONTENT_TYPES.glb);
 */
export async function buildGalleryWall(
  pictures: readonly WallPictureInput[],
  arrange: ArrangeWallOptions,
  opts: BuildWallOptions = {},
): Promise<GalleryWall> {
  const items = opts.itemsParam ?? arrange.itemsParam ?? 'items';
  const resolved = pictures.map((p, i) => resolveWallPicture(p, i, items));
  const layout = arrangeWall(
    resolved.map((r) => ({ outer: wallPictureOuter(r) })),
    { ...arrange, itemsParam: items },
  );
  const model = await buildWallModel(pictures, layout.positions, { ...opts, itemsParam: items });
  const glb = checkFileBudget(STAGE, await writeSceneGlb(model.scene));
  const usdz = checkFileBudget(STAGE, writeSceneUsdz(model.scene, 'wall.usda'));
  const { image, ext, mime } = model.poster;
  return { layout, model, bodies: { glb, usdz, poster: { image, ext, mime } } };
}
