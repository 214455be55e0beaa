import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { JobRepository, type ShowcaseItemRow, ShowcaseRepository, type ShowcaseRow, ShowcaseWallRepository } from '@app/persistence';
import {
  buildGalleryWall,
  loadWallPictures,
  storeModelFiles,
  type StillImageResult,
  VISITOR_WALL_FILES,
  visitorWallBase,
} from '@app/plugins';
import { APP_CONFIG, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { RATE_LIMITER, type RateLimiterPort } from '../http/rate-limit/rate-limiter.port';
import { arrangePictures, type WallArrangementView, wallPicturesOf, type WallPictureSource } from './wall-pictures';
import { arrangeOptions } from './walls.service';
import { BuildSlots } from './build-slots';
import type { WallSpec } from './walls.schema';

/** A visitor's choice of pictures laid out: what the together page draws and the files are built from. */
export interface VisitorWallPlan {
  spec: WallSpec;
  pictures: WallPictureSource[];
  arrangement: WallArrangementView;
  /** The choice in canonical form for URLs: `12,15:A2-OAK,19`. */
  items: string;
  /** Names the built files: the pictures' own files, sizes and looks and the arrangement, hashed. */
  key: string;
}

/** A visitor wall's three stored files. */
export type VisitorWallFiles = StillImageResult['files'];

/** The arrangements a visitor chooses from (custom places are the owner's, in the console). */
export const VISITOR_ARRANGEMENTS = ['row', 'grid', 'salon'] as const;
/** Builds that may wait for a slot in one process; more are refused with 503 (each waits about 0.5 s a build ahead). */
const MAX_WAITING = 16;
const ITEM = /^([1-9][0-9]{0,9})(?::([^,:\s]{1,64}))?$/;

/**
 * `items` of a together URL: 2-12 entries `<item id>[:<variant sku>]`, comma-separated, each once. A
 * malformed list is a 400 naming `items`.
 */
export function parseTogetherItems(v: unknown): { item_id: number; variant_sku: string | null }[] {
  const raw = typeof v === 'string' ? v : '';
  const parts = raw.split(',').filter((s) => s.length > 0);
  if (parts.length < 2 || parts.length > 12) throw ApiError.invalid('items', 'items: choose 2 to 12 pictures (items=12,15,19)');
  return parts.map((p, i) => {
    const m = ITEM.exec(decodeURIComponent(p));
    if (!m) throw ApiError.invalid(`items[${i}]`, `items[${i}]: "${p.slice(0, 80)}" is not an item id (12, or 12:SKU for a variant)`);
    return { item_id: Number(m[1]), variant_sku: m[2] ?? null };
  });
}

/**
 * Visitors' gallery walls ("See them together on your wall", docs/gallery-walls.md): any 2-12 wall pictures of
 * a public showcase, laid out at once, their model built on first request by this API process (at most
 * `WALL_VISITOR_BUILDS` at once, the same build a saved wall's job runs) and kept in storage under
 * `walls/visitor/<showcase>/<key>/`, so the next visitor with the same choice gets the stored files. New builds
 * are limited per visitor (`WALL_VISITOR_BUILDS_PER_MINUTE`, shared through Redis in the scaled mode). Free:
 * nobody is charged.
 */
@Injectable()
export class VisitorWalls {
  private readonly slots: BuildSlots;
  private readonly inFlight = new Map<string, Promise<VisitorWallFiles>>();

  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly jobs: JobRepository,
    private readonly walls: ShowcaseWallRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterPort,
  ) {
    this.slots = new BuildSlots(() => this.config.visitorWalls.concurrency, MAX_WAITING);
  }

  /** Whether this deployment builds visitors' walls (WALL_VISITOR_BUILDS > 0). */
  get enabled(): boolean {
    return this.config.visitorWalls.concurrency > 0;
  }

  /**
   * The pictures `items` names of showcase `s` (wall pictures with files; 400/409 otherwise) laid out by
   * `arrangement` (row, grid or salon; default row up to 4 pictures, grid beyond).
   */
  async plan(s: ShowcaseRow, picked: unknown, arrangement?: unknown, items?: readonly ShowcaseItemRow[]): Promise<VisitorWallPlan> {
    const refs = parseTogetherItems(picked);
    const chosen =
      arrangement === undefined || arrangement === null || arrangement === ''
        ? refs.length <= 4
          ? 'row'
          : 'grid'
        : (VISITOR_ARRANGEMENTS as readonly unknown[]).includes(arrangement)
          ? (arrangement as WallSpec['arrangement'])
          : null;
    if (!chosen) throw ApiError.invalid('arrangement', `arrangement: must be one of ${VISITOR_ARRANGEMENTS.join(', ')}`);
    const spec: WallSpec = { items: refs, arrangement: chosen, gap_inches: 3, align: 'center', columns: null };
    const pictures = await wallPicturesOf(s.id, items ?? (await this.showcases.items(s.id)), refs, this.jobs);
    const laid = arrangePictures(pictures, arrangeOptions(spec));
    const key = createHash('sha256')
      .update(JSON.stringify([s.id, pictures.map((p) => [p.glb_key, p.spec, p.alpha ?? null]), arrangeOptions(spec)]))
      .digest('hex')
      .slice(0, 32);
    const canonical = pictures.map((p) => (p.variant_sku ? `${p.item_id}:${p.variant_sku}` : String(p.item_id))).join(',');
    return { spec, pictures, arrangement: laid, items: canonical, key };
  }

  private base(s: ShowcaseRow, plan: VisitorWallPlan): string {
    return visitorWallBase(s.publicId, plan.key);
  }

  /**
   * The plan's stored files, built first when there are none: a cache hit is free; a build counts against the
   * visitor's per-minute limit (429 with Retry-After beyond it) and waits for a free build slot. The same plan
   * asked twice at once is built once. 404 when visitors' walls are off.
   */
  async files(s: ShowcaseRow, plan: VisitorWallPlan, visitor: string): Promise<VisitorWallFiles> {
    if (!this.enabled) throw ApiError.notFound('visitor gallery walls (WALL_VISITOR_BUILDS=0)');
    const base = this.base(s, plan);
    const stored = await this.stored(base);
    if (stored) return stored;
    const pending = this.inFlight.get(base);
    if (pending) return pending;
    // In flight from here on (set before the first await): a second request for the same plan (model-viewer's
    // GLB and poster at once) waits for this build instead of counting against the limit and building again.
    const build = (async () => {
      const d = await this.limiter.consume(`wall-visitor:${visitor}`, this.config.visitorWalls.perMinute, 60_000).catch(() => null);
      if (d && !d.allowed) {
        const retry = String(Math.max(1, Math.ceil(d.resetMs / 1000)));
        throw new ApiError(
          429,
          'rate_limited',
          'rate_limit_exceeded',
          `too many new walls: ${d.limit} a minute; retry in ${retry} s`,
          undefined,
          {
            'retry-after': retry,
          },
        );
      }
      return this.slots.run(async () => {
        const pictures = await loadWallPictures(
          this.storage,
          plan.pictures.map((p) => ({ glb_key: p.glb_key, spec: p.spec, ...(p.alpha ? { alpha: p.alpha } : {}) })),
        );
        const wall = await buildGalleryWall(pictures, arrangeOptions(plan.spec));
        // Each file is written whole (storage puts are atomic); `stored` serves a set only once all three are there.
        const files = await storeModelFiles(this.storage, 'wall', 'visitor', wall.bodies, () => undefined, base);
        // Recorded, so deleting one of its pictures, the showcase or its owner deletes these files too.
        await this.walls.recordVisitorWall(s.id, base, [...new Set(plan.pictures.map((p) => p.item_id))]);
        return files;
      });
    })().finally(() => this.inFlight.delete(base));
    this.inFlight.set(base, build);
    return build;
  }

  /** The three files under `base` when all are there (each is written whole), else null: build (again). */
  private async stored(base: string): Promise<VisitorWallFiles | null> {
    const keys = VISITOR_WALL_FILES.map((f) => `${base}/${f}`);
    const stats = await Promise.all(keys.map((k) => this.storage.stat(k)));
    if (stats.some((x) => !x)) return null;
    const [glb, usdz, poster] = stats.map((x, i) => ({ key: keys[i], bytes: x!.size, content_type: x!.contentType }));
    return { glb, usdz, poster };
  }
}
