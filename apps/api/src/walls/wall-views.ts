import type { ShowcaseWallRow } from '@app/persistence';
import type { GalleryWallResult } from '@app/plugins';
import type { StoragePort } from '@app/storage';
import { modelLinks, progressView, type PublicUrls } from '@app/wire';
import type { PlacedPicture } from './wall-pictures';
import type { WallSpec } from './walls.schema';

/** What a wall row's `layout` holds: each picture's place (with its poster and title, for the pages) and the outer size. */
export interface StoredWallLayout {
  items: PlacedPicture[];
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
}

/**
 * A saved wall as the API shows it: its request, each picture's place, and once built its files, embed and
 * page URLs and how its textures were packed. `missing` lists items deleted since (the files still show them).
 */
export function wallView(
  w: ShowcaseWallRow,
  showcasePublicId: string,
  urls: PublicUrls,
  storage: StoragePort,
  missing: ReadonlySet<number> = new Set(),
) {
  const spec = w.spec as unknown as WallSpec;
  const layout = w.layout as unknown as StoredWallLayout;
  const done = w.status === 'completed' && w.result ? (w.result as unknown as GalleryWallResult) : null;
  return {
    id: w.publicId,
    object: 'gallery_wall' as const,
    showcase_id: w.showcaseId,
    name: w.name,
    status: w.status,
    progress: progressView(w.status, w.progress),
    job_id: w.jobId,
    arrangement: spec.arrangement,
    gap_inches: spec.gap_inches,
    align: spec.align,
    columns: spec.columns ?? null,
    items: layout.items.map((p) => ({
      item_id: p.item_id,
      variant_sku: p.variant_sku,
      x_inches: p.x_inches,
      y_inches: p.y_inches,
      width_inches: p.width_inches,
      height_inches: p.height_inches,
      ...(missing.has(p.item_id) ? { missing: true } : {}),
    })),
    outer_dimensions: done?.outer_dimensions ?? layout.outer_dimensions,
    ...(done ? modelLinks(done.files, w.embedId, urls, storage) : {}),
    page_url: urls.showcaseWall(showcasePublicId, w.publicId),
    textures: done?.wall?.textures ?? null,
    error: w.status === 'failed' && w.error ? { code: w.error.code, message: w.error.message } : null,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}
