import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { JobRepository, WebhookRepository, type JobEntity } from '@app/persistence';
import { isFinal, toV1Status } from '@app/pipeline';
import { parseDimensionRequest, type PictureJobInput, type StillImageResult } from '@app/plugins';
import { parseInput } from '@app/schema';
import { ConvertBody } from './jobs.schema';
import { APP_CONFIG, JobRoutes, STORAGE } from '@app/runtime';
import { jobTimeline, presentationView, PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { JobAdmission } from './job-admission.service';
import { JobCancellation } from './job-cancellation.service';
import { callbackUrlView, requestUrl } from '../http/request-url';
import { acceptPresentation } from '../showcases/item/presentation-request';

/** v1 use cases: submit a still image, read its status and result. */
@Injectable()
export class ConversionService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly webhooks: WebhookRepository,
    private readonly urls: PublicUrls,
    private readonly routes: JobRoutes,
    private readonly admission: JobAdmission,
    private readonly cancellation: JobCancellation,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `createdByKey`: the API key asking (api_keys.id), recorded so a widget key can read the job back. */
  async submit(ownerId: string, body: unknown, createdByKey: string | null = null): Promise<{ job_id: string; status: 'queued' }> {
    const b = parseInput(ConvertBody, body);
    const callbackUrl = b.callback_url == null ? undefined : this.checkCallbackUrl(b.callback_url);
    const dims = parseDimensionRequest(b);
    // The fields as sent (validated above): the pipeline resolves them.
    const sent = body as Record<string, unknown>;
    const input: PictureJobInput = { image_url: sent.image_url as string };
    if (callbackUrl) input.callback_url = callbackUrl;
    if (dims.mode === 'explicit') Object.assign(input, { width_inches: dims.width, height_inches: dims.height });
    if (dims.mode === 'aspect') input.aspect_ratio = b.aspect_ratio;
    // Resolved once here too: a mat on an unframed picture is refused before anything is stored.
    Object.assign(input, acceptPresentation(sent));

    const before = await this.admission.admit(ownerId);
    const job = await this.jobs.create({
      kind: 'v1.convert',
      pipeline: this.routes.pipelineFor('v1.convert'),
      ownerId,
      input,
      idPrefix: 'api',
      withPublicPage: true,
      createdByKey,
    });
    await this.admission.enqueue(ownerId, [job.id], before);
    return { job_id: job.id, status: 'queued' };
  }

  /** Early, clear refusal of callback URLs that can never be called; delivery re-checks at connect time. */
  private checkCallbackUrl(value: unknown): string {
    return requestUrl('callback_url', value, { blockPrivate: !this.config.allowPrivateNetworks });
  }

  /** The caller's callback signing secret (Standard Webhooks `whsec_…`). */
  async webhookSecret(ownerId: string): Promise<{ secret: string; scheme: string }> {
    return { secret: await this.webhooks.secretFor(ownerId), scheme: 'standard-webhooks v1 (HMAC-SHA256)' };
  }

  /**
   * The account's v1 job; `readerKey` (a widget key's id, see readerKeyOf): only a job that key created.
   * Anything else is 404, as for another account's job.
   */
  private async owned(ownerId: string, jobId: string, readerKey?: string): Promise<JobEntity> {
    const job = /^api_[a-z2-7]{1,60}$/.test(jobId) ? await this.jobs.findForOwner(jobId, ownerId) : null;
    if (!job || job.kind !== 'v1.convert' || (readerKey !== undefined && job.createdByKey !== readerKey))
      throw ApiError.notFound(`job ${jobId.slice(0, 80)}`);
    return job;
  }

  async status(ownerId: string, jobId: string, readerKey?: string) {
    return this.statusView(await this.owned(ownerId, jobId, readerKey));
  }

  /** Cancels the job; `final` when the status view already shows it failed with `cancelled`. */
  async cancel(ownerId: string, jobId: string) {
    const job = await this.cancellation.cancel(await this.owned(ownerId, jobId));
    return { final: isFinal(job.status), body: await this.statusView(job) };
  }

  private async statusView(job: JobEntity) {
    const status = toV1Status(job.status);
    return {
      job_id: job.id,
      status,
      progress: status === 'completed' ? 100 : Math.min(100, Math.max(0, job.progress)),
      ...(job.status === 'failed' && job.error ? { error: { code: job.error.code, message: job.error.message } } : {}),
      ...(typeof job.input.callback_url === 'string' ? { callback: await this.callbackView(job) } : {}),
      created_at: job.createdAt.toISOString(),
      updated_at: job.updatedAt.toISOString(),
      ...jobTimeline(job),
    };
  }

  private async callbackView(job: JobEntity) {
    const attempts = await this.webhooks.listForJob(job.id);
    return {
      url: callbackUrlView(String(job.input.callback_url)),
      delivered: attempts.some((a) => a.succeeded),
      attempts: attempts.map((a) => ({
        event: a.event,
        webhook_id: a.webhookId,
        attempt: a.attempt,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        succeeded: a.succeeded,
        at: a.createdAt.toISOString(),
      })),
    };
  }

  async result(ownerId: string, jobId: string, readerKey?: string) {
    const job = await this.owned(ownerId, jobId, readerKey);
    if (job.status === 'failed') {
      throw new ApiError(409, 'conflict', 'job_failed', `job ${job.id} failed: ${job.error?.message ?? 'unknown error'}`);
    }
    if (job.status !== 'completed' || !job.result) {
      throw new ApiError(
        409,
        'conflict',
        'job_not_finished',
        `job ${job.id} is not finished yet (status ${toV1Status(job.status)}); poll GET /api/v1/status/${job.id}`,
      );
    }
    const r = job.result as StillImageResult;
    return {
      job_id: job.id,
      status: 'completed' as const,
      embed_url: this.urls.embed(job.publicId as string),
      embed_url_static: this.urls.embedStatic(job.publicId as string),
      widget_script_url: this.urls.widgetScript(),
      models: {
        usdz: { url: this.storage.url(r.files.usdz.key), bytes: r.files.usdz.bytes, content_type: r.files.usdz.content_type },
        glb: { url: this.storage.url(r.files.glb.key), bytes: r.files.glb.bytes, content_type: r.files.glb.content_type },
      },
      poster_url: this.storage.url(r.files.poster.key),
      dimensions: r.dimensions,
      // placement, allow_scaling, finish, frame, mat, outer_dimensions, banner: when the pipeline wrote them.
      ...presentationView(job.result),
    };
  }
}
