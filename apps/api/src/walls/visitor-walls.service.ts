import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { JobRepository, ShowcaseItemRepository, type ShowcaseItemRow, type ShowcaseRow, ShowcaseWallRepository } from '@app/persistence';
import {
  storeModelFiles,
  type StillImageResult,
  VISITOR_WALL_FILES,
  visitorWallBase,
  WallBuildPool,
  type WallBuildThread,
} from '@app/plugins';
import { APP_CONFIG, JobDeletion, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { clientBucket } from '../http/rate-limit/client-bucket';
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
  /**
   * The choice in canonical form for URLs: `12,15:A2-OAK,19`, sorted by item id (then SKU): a set, so the same
   * pictures named in any order are one wall, laid out in this order.
   */
  items: string;
  /** Names the built files: the pictures' own files, sizes and looks (in canonical order) and the arrangement, hashed. */
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
    // The framework decoded the query once already; decoding again would misread `%` (a 500 on `%zz`).
    const m = ITEM.exec(p);
    if (!m) throw ApiError.invalid(`items[${i}]`, `items[${i}]: "${p.slice(0, 80)}" is not an item id (12, or 12:SKU for a variant)`);
    return { item_id: Number(m[1]), variant_sku: m[2] ?? null };
  });
}

/** Where the wall build threads start (default: the compiled thread entry); tests on the sources give their own. */
export const WALL_BUILD_THREAD_TOKEN = Symbol('WALL_BUILD_THREAD');

/** How long a served wall counts as just used: its last-used time is written at most this often. */
const TOUCH_MS = 3_600_000;

/**
 * Visitors' gallery walls ("See them together on your wall", docs/gallery-walls.md): any 2-12 wall pictures of
 * a public showcase, laid out at once, their model built on first request (at most `WALL_VISITOR_BUILDS` at once
 * per API process, in worker threads: the API's event loop keeps serving meanwhile; the same build a saved
 * wall's job runs) and kept in storage under `walls/visitor/<showcase>/<key>/`, so the next visitor with the same
 * set gets the stored files. Bounded: new builds per visitor (`WALL_VISITOR_BUILDS_PER_MINUTE`, per IPv4
 * address or IPv6 /64, shared through Redis in the scaled mode), bytes per showcase
 * (`WALL_VISITOR_MAX_MB_PER_SHOWCASE`: past it the least recently used walls of that showcase are deleted), and
 * age (`WALL_VISITOR_MAX_AGE_DAYS` since last served: the worker's retention sweep deletes them). Free: nobody
 * is charged.
 */
@Injectable()
export class VisitorWalls implements OnModuleDestroy {
  private readonly logger = new Logger('VisitorWalls');
  private readonly slots: BuildSlots;
  private readonly pool: WallBuildPool;
  private readonly inFlight = new Map<string, Promise<VisitorWallFiles>>();
  /** When this process last marked each wall used (bounded: cleared when full; the database has the truth). */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly jobs: JobRepository,
    private readonly walls: ShowcaseWallRepository,
    private readonly deletion: JobDeletion,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterPort,
    @Optional() @Inject(WALL_BUILD_THREAD_TOKEN) thread?: WallBuildThread,
  ) {
    this.slots = new BuildSlots(() => this.config.visitorWalls.concurrency, MAX_WAITING);
    this.pool = new WallBuildPool(() => this.config.visitorWalls.concurrency, thread, this.config);
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
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
    const given = await wallPicturesOf(s.id, items ?? (await this.showcaseItems.items(s.id)), refs, this.jobs);
    // A set, not a sequence: `58,59` and `59,58` are one wall (one build, one key), laid out in canonical order.
    const pictures = [...given].sort((a, b) => a.item_id - b.item_id || (a.variant_sku ?? '').localeCompare(b.variant_sku ?? ''));
    const spec: WallSpec = {
      items: pictures.map((p) => ({ item_id: p.item_id, variant_sku: p.variant_sku })),
      arrangement: chosen,
      gap_inches: 3,
      align: 'center',
      columns: null,
    };
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
   * The plan's stored files, built first when there are none: a cache hit is free (and marks the wall used); a
   * build counts against the visitor's per-minute limit (429 with Retry-After beyond it), waits for a free
   * build slot (503 `busy` past 16 waiting), and may evict the showcase's least recently used visitor walls to
   * stay within its byte cap. The same plan asked twice at once is built once. 404 when visitors' walls are off.
   */
  async files(s: ShowcaseRow, plan: VisitorWallPlan, visitor: string): Promise<VisitorWallFiles> {
    if (!this.enabled) throw ApiError.notFound('visitor gallery walls (WALL_VISITOR_BUILDS=0)');
    const base = this.base(s, plan);
    const stored = await this.stored(base);
    if (stored) {
      this.touch(base);
      return stored;
    }
    const pending = this.inFlight.get(base);
    if (pending) return pending;
    // In flight from here on (set before the first await): a second request for the same plan (model-viewer's
    // GLB and poster at once) waits for this build instead of counting against the limit and building again.
    const build = (async () => {
      const d = await this.limiter
        .consume(`wall-visitor:${clientBucket(visitor)}`, this.config.visitorWalls.perMinute, 60_000)
        .catch(() => null);
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
        // The reading and the CPU-heavy part in a worker thread: this event loop serves other requests meanwhile
        // and allocates nothing for the pictures' models.
        const { bodies } = await this.pool.buildFromStorage(
          this.storage,
          plan.pictures.map((p) => ({ glb_key: p.glb_key, spec: p.spec, ...(p.alpha ? { alpha: p.alpha } : {}) })),
          arrangeOptions(plan.spec),
        );
        const bytes = bodies.glb.length + bodies.usdz.length + bodies.poster.image.length;
        // Recorded (size, used now) before its files are written, so the cap, the age limit and deleting one of
        // its pictures, the showcase or its owner always find files that may exist.
        await this.walls.recordVisitorWall(s.id, base, [...new Set(plan.pictures.map((p) => p.item_id))], bytes);
        // Each file is written whole (storage puts are atomic); `stored` serves a set only once all three are there.
        const files = await storeModelFiles(this.storage, 'wall', 'visitor', bodies, () => undefined, base);
        await this.evict(s, base);
        return files;
      });
    })().finally(() => this.inFlight.delete(base));
    this.inFlight.set(base, build);
    return build;
  }

  /** Keeps showcase `s` within its byte cap: deletes its least recently used visitor walls past it, never `keep`. */
  private async evict(s: ShowcaseRow, keep: string): Promise<void> {
    try {
      const past = await this.walls.visitorWallsPastCap(s.id, this.config.visitorWalls.maxBytesPerShowcase, keep);
      if (past.length) await this.deletion.deleteVisitorWallBases(past);
    } catch (e) {
      // The visitor's wall is built and stored; the next build evicts again.
      this.logger.warn(`showcase ${s.publicId}: could not evict visitor walls past the byte cap: ${(e as Error).message}`);
    }
  }

  /** Marks a served wall used (for the age limit and the cap's order), at most once per TOUCH_MS per process. */
  private touch(base: string): void {
    const now = Date.now();
    if (now - (this.touched.get(base) ?? 0) < TOUCH_MS) return;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(base, now);
    this.walls.touchVisitorWall(base, new Date(now), TOUCH_MS).catch((e: Error) => this.logger.warn(`visitor wall ${base}: ${e.message}`));
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
