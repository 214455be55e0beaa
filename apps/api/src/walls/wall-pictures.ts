import type { JobRepository, ShowcaseItemRow } from '@app/persistence';
import { arrangeWall, type ArrangeWallOptions, resolveWallPicture, wallPictureOuter, type WallPictureRef } from '@app/plugins';
import type { AlphaMode } from '@app/scene';
import { ApiError } from '../http/api-error';

/** One picture of a wall as a request names it: an item of the showcase, one of its variants (by SKU), and for `custom` its place. */
export interface WallItemRef {
  item_id: number;
  variant_sku?: string | null;
  x_inches?: number;
  y_inches?: number;
}

/** A picture ready to lay out and build: what the build job reads, and what the pages draw. */
export interface WallPictureSource extends WallPictureRef {
  item_id: number;
  variant_sku: string | null;
  title: string | null;
  /** The picture's own poster (framed as its model is), for the 2D previews. */
  poster_key: string;
  texture: { width: number; height: number };
}

/** Each picture's place in an arrangement: outer centre and outer size, inches, y up. */
export interface WallPlace {
  item_id: number;
  variant_sku: string | null;
  x_inches: number;
  y_inches: number;
  width_inches: number;
  height_inches: number;
}

/** A place with its picture's own poster and title: what the pages draw, and a saved wall keeps as its layout. */
export type PlacedPicture = WallPlace & { poster_key: string; title: string | null };

export interface WallArrangementView {
  items: WallPlace[];
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
}

/** The size and look fields of a picture job's input that a wall picture is built from. */
const SPEC_FIELDS = ['width_inches', 'height_inches', 'aspect_ratio', 'fit', 'frame', 'mat', 'finish', 'placement', 'allow_scaling'];

const pickSpec = (input: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(SPEC_FIELDS.filter((k) => input[k] !== undefined && input[k] !== null).map((k) => [k, input[k]]));

type Files = { glb: { key: string }; poster: { key: string } };

/**
 * The wall picture of `item` (its default variant, or the variant `sku`): the model its texture is read from,
 * its size and look as its own files were built (`input`: the item job's input, for an item without variants),
 * its title and poster. `at` names the request field in errors: 409 `item_not_ready` / `item_failed` for a
 * picture with no files, 400 for an unknown SKU or a SKU on an item without variants.
 */
export function wallPictureOf(
  item: ShowcaseItemRow,
  input: Record<string, unknown> | null,
  sku: string | null | undefined,
  at: string,
): WallPictureSource {
  if (item.status === 'failed')
    throw new ApiError(409, 'conflict', 'item_failed', `${at}: item ${item.id}'s conversion failed; it has no files to hang`);
  const result = item.result;
  if (item.status !== 'completed' || !result)
    throw new ApiError(409, 'conflict', 'item_not_ready', `${at}: item ${item.id} is still converting; add it once it has completed`);
  const texture = (result.texture as { width: number; height: number; alpha?: AlphaMode } | undefined) ?? { width: 1, height: 1 };
  const title = ((result.banner as { title?: unknown } | undefined)?.title as string | undefined) ?? null;
  const base = {
    item_id: item.id,
    title,
    texture: { width: texture.width, height: texture.height },
    ...(texture.alpha ? { alpha: texture.alpha } : {}),
  };
  if (item.variants?.length) {
    const v = sku ? item.variants.find((x) => x.sku === sku) : (item.variants.find((x) => x.default) ?? item.variants[0]);
    if (!v) throw ApiError.invalid(`${at}.variant_sku`, `${at}.variant_sku: item ${item.id} has no variant "${String(sku).slice(0, 64)}"`);
    if (!v.build)
      throw new ApiError(
        409,
        'conflict',
        'item_not_ready',
        `${at}: variant ${v.sku} of item ${item.id} has no files yet; add it once they are built`,
      );
    const files = v.build.files as Files;
    return { ...base, variant_sku: v.sku, glb_key: files.glb.key, poster_key: files.poster.key, spec: { ...v.spec } };
  }
  if (sku) throw ApiError.invalid(`${at}.variant_sku`, `${at}.variant_sku: item ${item.id} has no variants`);
  const files = result.files as Files;
  return { ...base, variant_sku: null, glb_key: files.glb.key, poster_key: files.poster.key, spec: pickSpec(input ?? {}) };
}

/**
 * The pictures `refs` name among showcase `showcaseId`'s `items`, each resolved by {@link wallPictureOf} (the job
 * inputs of the items without variants read from `jobs` in one query), each hung at most once: an item named twice, or once
 * by its default variant's SKU and once without, is one picture. 400 `items[i].item_id` for an item the
 * showcase does not have, `items[i]` for a picture listed again; wallPictureOf's 400s and 409s.
 */
export async function wallPicturesOf(
  showcaseId: number,
  items: readonly ShowcaseItemRow[],
  refs: readonly Pick<WallItemRef, 'item_id' | 'variant_sku'>[],
  jobs: Pick<JobRepository, 'inputs'>,
): Promise<WallPictureSource[]> {
  const byId = new Map(items.map((it) => [it.id, it]));
  const chosen = refs.map((ref, i) => {
    const item = byId.get(ref.item_id);
    if (!item) throw ApiError.invalid(`items[${i}].item_id`, `items[${i}].item_id: showcase ${showcaseId} has no item ${ref.item_id}`);
    return item;
  });
  const inputs = await jobs.inputs(chosen.filter((it) => !it.variants?.length).map((it) => it.jobId));
  const pictures = chosen.map((item, i) =>
    wallPictureOf(item, item.variants?.length ? null : (inputs.get(item.jobId) ?? null), refs[i].variant_sku, `items[${i}]`),
  );
  const seen = new Map<string, number>();
  pictures.forEach((p, i) => {
    const key = `${p.item_id}:${p.variant_sku ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw ApiError.invalid(`items[${i}]`, `items[${i}]: item ${p.item_id} is already items[${first}]; each picture hangs once`);
    seen.set(key, i);
  });
  return pictures;
}

/** The arrangement's places with their pictures' posters and titles, in order. */
export function placedPictures(arrangement: WallArrangementView, pictures: readonly WallPictureSource[]): PlacedPicture[] {
  return arrangement.items.map((place, i) => ({ ...place, poster_key: pictures[i].poster_key, title: pictures[i].title }));
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Lays the pictures out ({@link arrangeWall} over their exact framed sizes): pure arithmetic, so the API
 * answers an arrangement's 400s (overlaps, wider than 40 ft) before anything is stored or charged.
 */
export function arrangePictures(pictures: readonly WallPictureSource[], arrange: ArrangeWallOptions): WallArrangementView {
  const resolved = pictures.map((p, i) =>
    resolveWallPicture(
      {
        texture: { image: Buffer.alloc(0), mime: 'image/jpeg', width: p.texture.width, height: p.texture.height },
        sourceWidth: p.texture.width,
        sourceHeight: p.texture.height,
        spec: p.spec,
      },
      i,
      arrange.itemsParam ?? 'items',
    ),
  );
  const outers = resolved.map(wallPictureOuter);
  const layout = arrangeWall(
    outers.map((o) => ({ outer: o })),
    arrange,
  );
  return {
    items: pictures.map((p, i) => ({
      item_id: p.item_id,
      variant_sku: p.variant_sku,
      x_inches: r3(layout.positions[i].x),
      y_inches: r3(layout.positions[i].y),
      width_inches: resolved[i].outer_dimensions.width_inches,
      height_inches: resolved[i].outer_dimensions.height_inches,
    })),
    outer_dimensions: {
      width_inches: r3(layout.bounds.width),
      height_inches: r3(layout.bounds.height),
      depth_inches: r3(Math.max(...outers.map((o) => o.depth))),
    },
  };
}
