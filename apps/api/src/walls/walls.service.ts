import { Inject, Injectable, Logger } from '@nestjs/common';
import { type PricingPolicy, toCredits } from '@app/billing';
import {
  DataDeletionRepository,
  JobRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type ShowcaseRow,
  ShowcaseWallRepository,
  type ShowcaseWallRow,
  type WallBuild,
} from '@app/persistence';
import type { ArrangeWallOptions, WallBuildInput, WallJobInput } from '@app/plugins';
import { isFinal, type JobStatus } from '@app/pipeline';
import { JobDeletion, JobRoutes, PRICING_POLICY, STORAGE } from '@app/runtime';
import { parseInput } from '@app/schema';
import type { StoragePort } from '@app/storage';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { JobAdmission } from '../jobs/job-admission.service';
import { deleteOwnedJobs, ownedShowcase } from '../showcases/showcases.service';
import {
  arrangePictures,
  placedPictures,
  type WallArrangementView,
  type WallItemRef,
  wallPicturesOf,
  type WallPictureSource,
} from './wall-pictures';
import { type StoredWallLayout, wallView } from './wall-views';
import { CreateWallBody, DEFAULT_WALL_NAME, UpdateWallBody, type WallSpec } from './walls.schema';

/** A wall's pictures read from the showcase and laid out: what a build job is made from. */
interface WallPlan {
  pictures: WallPictureSource[];
  arrangement: WallArrangementView;
}

/** The arrangement options of a stored spec, for the layout and the build job. */
export function arrangeOptions(spec: WallSpec): ArrangeWallOptions {
  return {
    arrangement: spec.arrangement,
    gapInches: spec.gap_inches,
    align: spec.align,
    ...(spec.columns ? { columns: spec.columns } : {}),
    ...(spec.arrangement === 'custom'
      ? { custom: spec.items.map((i) => ({ x_inches: i.x_inches as number, y_inches: i.y_inches as number })) }
      : {}),
  };
}

/** A validated request body as a stored spec: defaults filled in, custom centres kept only for `custom`. */
function toSpec(body: {
  items: WallItemRef[];
  arrangement?: string;
  gap_inches?: number;
  align?: string;
  columns?: number | null;
}): WallSpec {
  const arrangement = (body.arrangement ?? 'row') as WallSpec['arrangement'];
  return {
    items: body.items.map((i) => ({
      item_id: i.item_id,
      variant_sku: i.variant_sku ?? null,
      ...(arrangement === 'custom' && i.x_inches !== undefined ? { x_inches: i.x_inches } : {}),
      ...(arrangement === 'custom' && i.y_inches !== undefined ? { y_inches: i.y_inches } : {}),
    })),
    arrangement,
    gap_inches: body.gap_inches ?? 3,
    align: (body.align ?? 'center') as WallSpec['align'],
    columns: arrangement === 'grid' ? (body.columns ?? null) : null,
  };
}

/**
 * Saved gallery walls (/api/v2/showcases/{id}/walls, docs/gallery-walls.md): 2-12 of a showcase's pictures
 * laid out at once (an arrangement's 400s come before anything is stored or charged), then built by one
 * `gallery-wall` job into one GLB + USDZ + poster. One credit per wall (pricing kind `showcase.wall`),
 * refunded when the build fails; a rebuild (PATCH) is free.
 */
@Injectable()
export class WallsService {
  private readonly log = new Logger('walls');

  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly walls: ShowcaseWallRepository,
    private readonly jobs: JobRepository,
    private readonly routes: JobRoutes,
    private readonly admission: JobAdmission,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly deletions: DataDeletionRepository,
    private readonly jobDeletion: JobDeletion,
  ) {}

  /**
   * The pictures of `spec` read from showcase `s` and laid out. 400 for an item the showcase does not have,
   * an item listed twice, an unknown SKU or an arrangement that does not fit; 409 for a picture with no files.
   */
  async plan(s: ShowcaseRow, spec: WallSpec): Promise<WallPlan> {
    const pictures = await wallPicturesOf(s.id, await this.showcaseItems.items(s.id), spec.items, this.jobs);
    return { pictures, arrangement: arrangePictures(pictures, arrangeOptions(spec)) };
  }

  private build(s: ShowcaseRow, name: string, spec: WallSpec, plan: WallPlan): WallBuild {
    const opts = arrangeOptions(spec);
    const wall: WallBuildInput = {
      pictures: plan.pictures.map((p) => ({
        glb_key: p.glb_key,
        spec: p.spec,
        ...(p.alpha ? { alpha: p.alpha } : {}),
        item_id: p.item_id,
        variant_sku: p.variant_sku,
      })),
      arrangement: spec.arrangement,
      gap_inches: spec.gap_inches,
      align: spec.align,
      ...(opts.columns ? { columns: opts.columns } : {}),
      ...(opts.custom ? { custom: opts.custom } : {}),
    };
    const layout: StoredWallLayout = {
      items: placedPictures(plan.arrangement, plan.pictures),
      outer_dimensions: plan.arrangement.outer_dimensions,
    };
    return {
      name,
      spec: spec as unknown as Record<string, unknown>,
      layout: layout as unknown as Record<string, unknown>,
      input: { showcase_id: s.id, wall } satisfies WallJobInput,
      pipeline: this.routes.pipelineFor('showcase.wall'),
    };
  }

  /** Walls as the API shows them, each with the items deleted since it was built (`missing`). */
  private async views(s: ShowcaseRow, walls: readonly ShowcaseWallRow[]) {
    const have = new Set((await this.showcaseItems.items(s.id)).map((i) => i.id));
    return walls.map((w) => {
      const missing = new Set((w.spec as unknown as WallSpec).items.map((i) => i.item_id).filter((id) => !have.has(id)));
      return wallView(w, s.publicId, this.urls, this.storage, missing);
    });
  }

  private async view(s: ShowcaseRow, w: ShowcaseWallRow) {
    return (await this.views(s, [w]))[0];
  }

  /** POST …/walls: 202 `{id, job_id, credits_charged, wall}`. */
  async create(p: Principal, id: string, body: unknown) {
    const s = await ownedShowcase(this.showcases, p, id);
    const req = parseInput(CreateWallBody, body);
    const spec = toSpec(req);
    const plan = await this.plan(s, spec);
    const cents = p.keyType === 'owner' ? 0 : this.pricing.quote({ kind: 'showcase.wall' }).totalCents;
    const before = await this.admission.admit(p.userId, 1);
    const { wall, chargedCents } = await this.walls.create(s, this.build(s, req.name ?? DEFAULT_WALL_NAME, spec, plan), cents);
    await this.admission.enqueue(p.userId, [wall.jobId], before);
    return { id: wall.publicId, job_id: wall.jobId, credits_charged: toCredits(chargedCents), wall: await this.view(s, wall) };
  }

  /** POST …/walls/layout: where an arrangement puts the pictures; nothing stored, built or charged. */
  async layout(p: Principal, id: string, body: unknown) {
    const s = await ownedShowcase(this.showcases, p, id);
    const spec = toSpec(parseInput(CreateWallBody, body));
    const plan = await this.plan(s, spec);
    return { arrangement: spec.arrangement, gap_inches: spec.gap_inches, align: spec.align, columns: spec.columns, ...plan.arrangement };
  }

  async list(p: Principal, id: string) {
    const s = await ownedShowcase(this.showcases, p, id);
    return { data: await this.views(s, await this.walls.list(s.id)) };
  }

  private async owned(p: Principal, id: string, wallId: string) {
    const s = await ownedShowcase(this.showcases, p, id);
    const w = await this.walls.find(s.id, wallId);
    if (!w) throw ApiError.notFound(`wall ${wallId.slice(0, 40)}`);
    return { s, w };
  }

  async get(p: Principal, id: string, wallId: string) {
    const { s, w } = await this.owned(p, id, wallId);
    return this.view(s, w);
  }

  /** PATCH: 200 with the wall for a new name (or nothing new), 202 `{wall, job_id}` when it is rebuilt (free). */
  async update(p: Principal, id: string, wallId: string, body: unknown): Promise<{ status: 200 | 202; body: unknown }> {
    const { s, w } = await this.owned(p, id, wallId);
    const req = parseInput(UpdateWallBody, body);
    const current = w.spec as unknown as WallSpec;
    const name = req.name ?? w.name;
    const layoutFields = ['items', 'arrangement', 'gap_inches', 'align', 'columns'] as const;
    const sent = layoutFields.filter((k) => req[k] !== undefined && req[k] !== null);
    // Made custom without new places: each picture stays where the current arrangement put it.
    const here = (w.layout as unknown as StoredWallLayout).items;
    const kept =
      req.arrangement === 'custom' && current.arrangement !== 'custom'
        ? current.items.map((i, k) => ({ ...i, x_inches: here[k].x_inches, y_inches: here[k].y_inches }))
        : current.items;
    const spec = toSpec({
      items: req.items ?? kept,
      arrangement: req.arrangement ?? current.arrangement,
      gap_inches: req.gap_inches ?? current.gap_inches,
      align: req.align ?? current.align,
      columns: req.columns ?? current.columns,
    });
    if (!sent.length || JSON.stringify(spec) === JSON.stringify(current)) {
      const renamed = name === w.name ? w : await this.walls.rename(w.id, name);
      if (!renamed) throw ApiError.notFound(`wall ${wallId.slice(0, 40)}`);
      return { status: 200, body: await this.view(s, renamed) };
    }
    if (!isFinal(w.status as JobStatus))
      throw new ApiError(
        409,
        'conflict',
        'job_not_finished',
        `wall ${w.publicId} is still being built (job ${w.jobId}); change it once it has finished`,
      );
    const plan = await this.plan(s, spec);
    const before = await this.admission.admit(p.userId, 1);
    const out = await this.walls.rebuild(w.id, s.ownerId, w.jobId, this.build(s, name, spec, plan));
    if (!out)
      throw new ApiError(409, 'conflict', 'wall_changed', `wall ${w.publicId} changed while it was being edited; send the edit again`);
    await this.admission.enqueue(p.userId, [out.wall.jobId], before);
    await this.deleteJobs([out.replacedJobId]).catch((e: Error) =>
      // The wall serves the new job already; the old files are an orphan the owner's job list still shows.
      this.log.warn(`walls: could not delete the replaced job ${out.replacedJobId}'s files: ${e.message}`),
    );
    return { status: 202, body: { wall: await this.view(s, out.wall), job_id: out.wall.jobId } };
  }

  /** DELETE: the wall with its job and files; 409 while it is being built. */
  async remove(p: Principal, id: string, wallId: string): Promise<void> {
    const { w } = await this.owned(p, id, wallId);
    if (!isFinal(w.status as JobStatus))
      throw new ApiError(
        409,
        'conflict',
        'job_not_finished',
        `wall ${w.publicId} is still being built (job ${w.jobId}): wait for it or cancel the job, then delete`,
      );
    await this.deleteJobs([w.jobId]);
  }

  private deleteJobs(ids: string[]): Promise<void> {
    return deleteOwnedJobs(this.deletions, this.jobDeletion, ids);
  }
}
