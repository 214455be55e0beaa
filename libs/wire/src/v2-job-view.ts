import type { AccountRepository, JobEntity } from '@app/persistence';
import type { AnimatedArResult, StillImageResult } from '@app/plugins';
import type { StoragePort } from '@app/storage';
import { toCredits } from '@app/billing';
import type { PublicUrls } from './public-urls';

/** 0..100 with one decimal; 100 once completed. */
export const progressView = (status: string, progress: number) => (status === 'completed' ? 100 : Math.round(progress * 10) / 10);

/** The model, poster and embed URLs every v2 result carries. */
export function modelLinks(files: StillImageResult['files'], embedId: string | null, urls: PublicUrls, storage: StoragePort) {
  return {
    usdz_url: storage.url(files.usdz.key),
    glb_url: storage.url(files.glb.key),
    preview_url: storage.url(files.poster.key),
    embed_url: embedId ? urls.embed(embedId) : null,
    embed_url_static: embedId ? urls.embedStatic(embedId) : null,
  };
}

/** How the model is presented (the request's presentation fields, resolved by the pipeline), in every result. */
export const PRESENTATION_RESULT_FIELDS = ['placement', 'allow_scaling', 'finish', 'frame', 'mat', 'outer_dimensions', 'banner'] as const;

/**
 * The presentation fields a job's result carries: placement, allow_scaling, finish, frame, mat (null when
 * none), outer_dimensions and banner. Results written before they existed lack them: nothing is invented.
 */
export function presentationView(result: unknown): Partial<Record<(typeof PRESENTATION_RESULT_FIELDS)[number], unknown>> {
  if (!result || typeof result !== 'object') return {};
  const r = result as Record<string, unknown>;
  const out: Partial<Record<(typeof PRESENTATION_RESULT_FIELDS)[number], unknown>> = {};
  for (const k of PRESENTATION_RESULT_FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out;
}

/** Inches to centimetres, 2 decimals (1 in = 2.54 cm exactly). */
const toCm = (inches: number) => Math.round(inches * 254) / 100;

/** A picture's plane size in centimetres, 2 decimals: the `dimensions_cm` of every picture result. */
export const dimensionsCm = (d: { width_inches: number; height_inches: number }) => ({
  width_cm: toCm(d.width_inches),
  height_cm: toCm(d.height_inches),
});

/** Result of a completed picture job (the still-image pipeline's output, as URLs). */
export function pictureResult(r: StillImageResult, embedId: string | null, urls: PublicUrls, storage: StoragePort) {
  return {
    ...modelLinks(r.files, embedId, urls, storage),
    dimensions: r.dimensions,
    dimensions_cm: dimensionsCm(r.dimensions),
    texture: { width: r.texture.width, height: r.texture.height },
    ...(r.fit ? { fit: r.fit } : {}),
    ...presentationView(r),
  };
}

/** One variant's files as a variant build job's result holds them (libs/plugins VariantBuild). */
interface VariantBuildResult {
  id: string;
  files: StillImageResult['files'];
  dimensions: StillImageResult['dimensions'];
  outer_dimensions?: unknown;
}

/** A variant build's files, as URLs. */
function variantBuildView(v: VariantBuildResult, storage: StoragePort) {
  return {
    variant_id: v.id,
    usdz_url: storage.url(v.files.usdz.key),
    glb_url: storage.url(v.files.glb.key),
    preview_url: storage.url(v.files.poster.key),
    dimensions: v.dimensions,
    ...(v.outer_dimensions ? { outer_dimensions: v.outer_dimensions } : {}),
  };
}

/** Gross, refunded and net credits of a job (docs/api.md, v2 Animated AR: Result), from the ledger. */
export interface JobCredits {
  credits_charged: number;
  credits_refunded: number;
  net_credits_charged: number;
}

export async function jobCredits(accounts: AccountRepository, jobId: string): Promise<JobCredits> {
  const c = await accounts.jobCredits(jobId);
  return {
    credits_charged: toCredits(c.chargedCents),
    credits_refunded: toCredits(c.refundedCents),
    net_credits_charged: toCredits(c.chargedCents - c.refundedCents),
  };
}

/** Result of a completed animated AR job: every field docs/api.md lists (v2 Animated AR: Result). */
export function animatedArResult(job: JobEntity, r: AnimatedArResult, credits: JobCredits, urls: PublicUrls, storage: StoragePort) {
  return {
    ...modelLinks(r.files, job.publicId, urls, storage),
    // The model and its picture are both identified by the job here: one AR model per job.
    ar_model_id: job.id,
    image_id: job.publicId ?? job.id,
    ai_motion_skipped: r.ai_motion_skipped,
    ...credits,
    source_kind: r.source_kind,
    motion: r.motion,
    background_removed: r.background_removed,
    // Absent on results stored before it was recorded.
    background_removal: r.background_removal ?? null,
    dimensions: r.dimensions,
    frames: r.frames,
    // Absent on results stored before it was recorded.
    animation: r.animation ?? null,
    ...presentationView(r),
  };
}

/**
 * When the job's last run started and finished, and each stage it ran, in order: when it started and
 * (once done) how long it took. Stages of a run still going show as they start; a retried job shows its
 * latest run only.
 */
export function jobTimeline(job: Pick<JobEntity, 'startedAt' | 'finishedAt' | 'stageTimings'>) {
  const stages = Object.entries(job.stageTimings ?? {})
    .sort(([, a], [, b]) => a.step - b.step)
    .map(([stage, t]) => ({ stage, started_at: t.started_at, duration_ms: t.duration_ms ?? null }));
  return {
    started_at: job.startedAt ? new Date(job.startedAt).toISOString() : null,
    finished_at: job.finishedAt ? new Date(job.finishedAt).toISOString() : null,
    stages,
  };
}

/** The body of GET /api/v2/jobs/:id, also the animated AR callback's payload ("the final job payload"). */
export async function v2JobView(
  job: JobEntity,
  extras: { item?: { id: number; showcaseId: number } | null; accounts: AccountRepository },
  urls: PublicUrls,
  storage: StoragePort,
) {
  const animated = job.kind === 'v2.animated-ar';
  const credits = animated ? await jobCredits(extras.accounts, job.id) : null;
  const done = job.status === 'completed' && job.result;
  // A variant build (some variants of a showcase item, after an edit) makes files per variant, not one picture.
  const variants = done && Array.isArray(job.result!.variants) && !job.result!.files ? job.result!.variants : null;
  const result =
    !done || variants
      ? undefined
      : animated
        ? animatedArResult(job, job.result as AnimatedArResult, credits!, urls, storage)
        : {
            ...pictureResult(job.result as StillImageResult, job.publicId, urls, storage),
            // A gallery wall's build: where each picture hangs and how the textures were packed.
            ...(job.result!.wall ? { wall: job.result!.wall } : {}),
          };
  return {
    job_id: job.id,
    object: 'job' as const,
    kind: job.kind === 'v2.picture' ? 'showcase.picture' : animated ? 'animated_ar' : job.kind,
    status: job.status,
    progress: progressView(job.status, job.progress),
    ...(extras.item
      ? { showcase_id: extras.item.showcaseId, item_id: extras.item.id }
      : typeof job.input.wall === 'object' && typeof job.input.showcase_id === 'number'
        ? { showcase_id: job.input.showcase_id }
        : {}),
    ...(job.status === 'failed' && job.error
      ? { error: { code: job.error.code, message: job.error.message, ...(job.error.stage ? { stage: job.error.stage } : {}) } }
      : {}),
    ...(credits && !done ? credits : {}),
    ...(result ? { result } : {}),
    ...(variants ? { variants: (variants as VariantBuildResult[]).map((v) => variantBuildView(v, storage)) } : {}),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    ...jobTimeline(job),
  };
}
