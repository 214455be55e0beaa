import type { AppConfig } from '@app/config';
import { AccountRepository, JobRepository, WebhookRepository, type JobEntity } from '@app/persistence';
import type { JobErrorInfo, JobListener, MetricsPort, RunnableJob } from '@app/pipeline';
import { type CallbackJobInput, callbackJobId, type CallbackPort, type StillImageResult } from '@app/plugins';
import type { JobQueuePort } from '@app/queue';
import type { StoragePort } from '@app/storage';
import { resolveRoutes } from './job-routes';
import { PublicUrls } from '@app/wire';
import { v2JobView } from '@app/wire';

/** Internal owner of content made with the owner shared key. */
export const SERVICE_USER_ID = 'service';

/** The v1 callback body (docs/api.md, Callbacks), also used by the embed pages' links. */
export function v1CallbackPayload(job: JobEntity, urls: PublicUrls, storage: StoragePort): Record<string, unknown> {
  const r = job.status === 'completed' ? (job.result as StillImageResult | null) : null;
  return {
    job_id: job.id,
    status: job.status === 'completed' ? 'completed' : 'failed',
    embed_url: r && job.publicId ? urls.embed(job.publicId) : null,
    embed_url_static: r && job.publicId ? urls.embedStatic(job.publicId) : null,
    usdz_url: r ? storage.url(r.files.usdz.key) : null,
    glb_url: r ? storage.url(r.files.glb.key) : null,
    ...(job.status === 'failed' && job.error ? { error: { code: job.error.code, message: job.error.message } } : {}),
  };
}

/** CallbackPort over the database: builds the message and records attempts. */
export class CallbackService implements CallbackPort {
  constructor(
    private readonly jobs: JobRepository,
    private readonly webhooks: WebhookRepository,
    private readonly urls: PublicUrls,
    private readonly storage: StoragePort,
    private readonly accounts: AccountRepository,
    private readonly metrics?: MetricsPort,
  ) {}

  async prepare(jobId: string, _event: string) {
    const job = await this.jobs.find(jobId);
    const url = job?.input.callback_url;
    if (!job || typeof url !== 'string') throw new Error(`callback: job ${jobId} has no callback_url`);
    return {
      url,
      // v1 keeps its own body (docs/api.md, Callbacks); v2 sends the final job payload, as GET /api/v2/jobs/:id shows it.
      payload: job.id.startsWith('v2_')
        ? await v2JobView(job, { accounts: this.accounts }, this.urls, this.storage)
        : v1CallbackPayload(job, this.urls, this.storage),
      secret: await this.webhooks.secretFor(job.ownerId ?? SERVICE_USER_ID),
    };
  }

  record(attempt: Parameters<CallbackPort['record']>[0]): Promise<void> {
    // Every attempt the stage made is recorded here, so this is the one place to count them.
    this.metrics?.callbackDelivery(attempt.succeeded ? 'delivered' : 'failed');
    return this.webhooks.record(attempt);
  }
}

/** Schedules a callback job when a job with a callback_url ends. Replay-safe: one callback job per event. */
export class CallbackScheduler implements JobListener {
  /** Honours a CONFIG_FILE re-route of the `callback` kind, like every other job kind. */
  private readonly pipeline: string;

  constructor(
    private readonly jobs: JobRepository,
    private readonly queue: JobQueuePort,
    private readonly config: AppConfig,
  ) {
    this.pipeline = resolveRoutes(config).callback;
  }

  onCompleted(job: RunnableJob): Promise<void> {
    return this.schedule(job, 'completed');
  }

  onFailed(job: RunnableJob, _error: JobErrorInfo): Promise<void> {
    return this.schedule(job, 'failed');
  }

  private async schedule(job: RunnableJob, event: 'completed' | 'failed'): Promise<void> {
    if (job.kind === 'callback' || typeof job.input.callback_url !== 'string') return;
    const id = callbackJobId(job.id, event);
    const input: CallbackJobInput = { job_id: job.id, event };
    await this.jobs.createOnce(id, { kind: 'callback', pipeline: this.pipeline, ownerId: job.ownerId, input });
    await this.queue.enqueue(id, { maxAttempts: this.config.callbacks.maxAttempts });
  }
}
