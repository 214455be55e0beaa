import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi';
import { ImageArError, JobFailedError, JobTimeoutError } from './errors';

type S = components['schemas'];
export type ConvertRequest = S['ConvertRequestDto'];
export type ConvertResponse = S['ConvertResponseDto'];
export type V1JobStatus = S['StatusResponseDto'];
export type V1Result = S['ResultResponseDto'];
export type V2Job = S['V2JobDto'];
export type CreateShowcaseRequest = S['CreateShowcaseRequestDto'];
export type ShowcaseCreated = S['ShowcaseCreatedDto'];
export type Showcase = S['ShowcaseDto'];
export type ShowcaseItem = S['ShowcaseItemDto'];
export type AddPicturesRequest = S['AddItemsJsonDto'];
export type PicturesAdded = S['ItemsAddedDto'];
/** The presentation of one uploaded file (a JSON item without image_url). */
export type UploadItem = Omit<S['ShowcaseItemRequestDto'], 'image_url'>;
export type AnimatedArRequest = S['AnimatedArRequestDto'];
export type AnimatedArCreated = S['AnimatedArCreatedDto'];
export type Me = S['MeDto'];
export type Usage = S['UsageDto'];
export type PriceList = S['PriceListDto'];
export type WebhookSecret = S['WebhookSecretDto'];
export type ErrorResponse = S['ErrorResponseDto'];
export type UpdateShowcaseRequest = S['UpdateShowcaseRequestDto'];
export type ShowcaseList = S['ShowcaseListDto'];
export type JobList = S['JobListDto'];
export type JobListQuery = NonNullable<paths['/api/v2/jobs']['get']['parameters']['query']>;
export type ApiKey = S['ApiKeyDto'];
export type ApiKeyCreated = S['ApiKeyCreatedDto'];
export type CreateKeyRequest = S['CreateKeyRequestDto'];
export type UpdateItemRequest = S['UpdateItemRequestDto'];
export type ItemsOrder = S['ItemsOrderDto'];
export type CatalogueImport = S['ImportDto'];
export type CatalogueImportPreview = S['ImportPreviewDto'];
/** A catalogue item of a JSON import: the fields of a showcase item (image_url, size, label, presentation...). */
export type CatalogueItem = S['ShowcaseItemRequestDto'];
/** One size and frame an item is sold in, as sent (create, or `variants` of updateItem). */
export type ItemVariantRequest = S['ItemVariantRequestDto'];
export type Analytics = S['AnalyticsDto'];
export type CreateWallRequest = S['CreateWallRequestDto'];
export type UpdateWallRequest = S['UpdateWallRequestDto'];
export type Wall = S['WallDto'];
export type WallCreated = S['WallCreatedDto'];
export type WallLayout = S['WallLayoutDto'];

/** What updateWall answers: the wall, and the job rebuilding its files when the edit rearranged it (else null). */
export interface WallUpdated {
  wall: Wall;
  job_id: string | null;
}
export type AnalyticsQuery = NonNullable<paths['/api/v2/analytics']['get']['parameters']['query']>;

/** What updateItem answers: the item, and the job rebuilding its files when the edit changed them (else null). */
export interface ItemUpdated {
  item: ShowcaseItem;
  rebuild_job_id: string | null;
}

/** A catalogue to import: a CSV (text or Blob, header row naming the item fields) or JSON items. */
export type CatalogueInput = { csv: string | Blob } | { items: CatalogueItem[] };

export interface WaitForImportOptions {
  /** Called with every state seen whose counts changed. */
  onProgress?: (imp: CatalogueImport) => void;
  /** Also wait until the import's pictures are converted (counts.queued is 0), not only until every row was dealt with. */
  untilConverted?: boolean;
  signal?: AbortSignal;
  /** Give up after this long (default 30 minutes): rejects with ImageArError code import_timeout. */
  timeoutMs?: number;
  /** Poll interval (default 1 s). */
  intervalMs?: number;
}

/** A job as waitForJob reports it: a v1 status (job ids "api_…") or a v2 job ("v2_…"). */
export type AnyJob = V1JobStatus | V2Job;

/** One picture to upload: a Blob or File (browser, Node 20+), or bytes with a file name (Node Buffer included). */
export type UploadFile = Blob | { data: Blob | ArrayBuffer | ArrayBufferView; filename: string; contentType?: string };

export interface ImageArClientOptions {
  /** The service's base URL (its PUBLIC_BASE_URL), e.g. https://ar.example.com. */
  baseUrl: string;
  /** X-API-Key: a per-user key (billed) or the owner key. Keep it on the server side. */
  apiKey: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  /** Same key + same request within 24 h returns the first answer (safe retries of creations). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface WaitForJobOptions {
  /** Called with every state seen whose status or progress changed. */
  onProgress?: (job: AnyJob) => void;
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes): rejects with JobTimeoutError. */
  timeoutMs?: number;
  /** First poll interval (default 500 ms); it grows by `backoff` (default 1.5) up to maxIntervalMs (default 5 s). */
  intervalMs?: number;
  maxIntervalMs?: number;
  backoff?: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function toBlob(file: UploadFile): { blob: Blob; filename: string } {
  if (typeof Blob !== 'undefined' && file instanceof Blob) return { blob: file, filename: (file as File).name || 'picture' };
  const f = file as Exclude<UploadFile, Blob>;
  const data = f.data instanceof Blob ? f.data : new Blob([f.data as BlobPart], f.contentType ? { type: f.contentType } : undefined);
  return { blob: data, filename: f.filename };
}

/**
 * Typed client of the Image-to-AR service. `api` is the full generated client (every route, typed from the
 * OpenAPI document); the methods are the common flows with typed errors ({@link ImageArError}).
 */
export class ImageArClient {
  /** Every route of the API, typed (openapi-fetch): `client.api.GET('/api/v2/me')`. */
  readonly api: Client<paths>;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(opts: ImageArClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = opts.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
    this.headers = { ...opts.headers, 'X-API-Key': opts.apiKey };
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: this.fetchImpl, headers: this.headers });
  }

  /** Unwraps an openapi-fetch answer: the data, or a typed error. */
  private async call<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    let out: { data?: T; error?: unknown; response: Response };
    try {
      out = await p;
    } catch (e) {
      throw ImageArClient.networkError(e);
    }
    if (!out.response.ok) throw ImageArError.fromResponse(out.response, out.error);
    return out.data as T;
  }

  /** A request that never reached an answer (refused, reset, DNS...): a retryable ImageArError; an abort stays an abort. */
  private static networkError(e: unknown): unknown {
    if ((e as Error)?.name === 'AbortError') return e;
    return new ImageArError({
      status: 0,
      type: 'api_error',
      code: 'network_error',
      message: `network error: ${(e as Error)?.message ?? String(e)}`,
      cause: e,
    });
  }

  /**
   * A POST with a body openapi-fetch does not serialise (multipart, CSV text): the answer's JSON, or a typed
   * error. The client's headers (key, extras) go first, `init.headers` over them.
   */
  private async post<T>(path: string, init: { headers?: Record<string, string>; body: BodyInit; signal?: AbortSignal }): Promise<T> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { ...this.headers, ...init.headers },
        body: init.body,
        signal: init.signal,
      });
    } catch (e) {
      throw ImageArClient.networkError(e);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) throw ImageArError.fromResponse(response, body);
    return body as T;
  }

  private static idem(opts?: RequestOptions): { 'Idempotency-Key'?: string } {
    return opts?.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {};
  }

  /* ---- v1 ---- */

  /** POST /api/v1/convert: submit an image; returns {job_id, status: "queued"}. Poll with waitForJob. */
  convert(body: ConvertRequest, opts?: RequestOptions): Promise<ConvertResponse> {
    return this.call(this.api.POST('/api/v1/convert', { body, params: { header: ImageArClient.idem(opts) }, signal: opts?.signal }));
  }

  /** GET /api/v1/status/{jobId}. */
  status(jobId: string, opts?: RequestOptions): Promise<V1JobStatus> {
    return this.call(this.api.GET('/api/v1/status/{jobId}', { params: { path: { jobId } }, signal: opts?.signal }));
  }

  /** GET /api/v1/result/{jobId}: models, embeds and dimensions of a completed v1 job. */
  result(jobId: string, opts?: RequestOptions): Promise<V1Result> {
    return this.call(this.api.GET('/api/v1/result/{jobId}', { params: { path: { jobId } }, signal: opts?.signal }));
  }

  /** GET /api/v1/webhook-secret: the secret verifyWebhook needs. */
  webhookSecret(opts?: RequestOptions): Promise<WebhookSecret> {
    return this.call(this.api.GET('/api/v1/webhook-secret', { signal: opts?.signal }));
  }

  /** Cancel a queued or running job (v1 "api_…" or v2 "v2_…"). */
  async cancel(jobId: string, opts?: RequestOptions): Promise<AnyJob> {
    if (jobId.startsWith('v2_'))
      return this.call(this.api.POST('/api/v2/jobs/{jobId}/cancel', { params: { path: { jobId } }, signal: opts?.signal }));
    return this.call(this.api.POST('/api/v1/jobs/{jobId}/cancel', { params: { path: { jobId } }, signal: opts?.signal }));
  }

  /* ---- v2 ---- */

  /** GET /api/v2/jobs/{jobId}. */
  getJob(jobId: string, opts?: RequestOptions): Promise<V2Job> {
    return this.call(this.api.GET('/api/v2/jobs/{jobId}', { params: { path: { jobId } }, signal: opts?.signal }));
  }

  /** POST /api/v2/showcases. */
  createShowcase(body: CreateShowcaseRequest, opts?: RequestOptions): Promise<ShowcaseCreated> {
    return this.call(this.api.POST('/api/v2/showcases', { body, params: { header: ImageArClient.idem(opts) }, signal: opts?.signal }));
  }

  /** GET /api/v2/showcases/{id}. */
  getShowcase(id: number, opts?: RequestOptions): Promise<Showcase> {
    return this.call(this.api.GET('/api/v2/showcases/{id}', { params: { path: { id: String(id) } }, signal: opts?.signal }));
  }

  /** GET /api/v2/showcases/{id}/items/{itemId}. */
  getShowcaseItem(id: number, itemId: number, opts?: RequestOptions): Promise<ShowcaseItem> {
    return this.call(
      this.api.GET('/api/v2/showcases/{id}/items/{itemId}', {
        params: { path: { id: String(id), itemId: String(itemId) } },
        signal: opts?.signal,
      }),
    );
  }

  /** POST /api/v2/showcases/{id}/items (JSON): pictures by URL. */
  addPictures(showcaseId: number, body: AddPicturesRequest, opts?: RequestOptions): Promise<PicturesAdded> {
    return this.call(
      this.api.POST('/api/v2/showcases/{id}/items', {
        body: body as never,
        params: { path: { id: String(showcaseId) }, header: ImageArClient.idem(opts) },
        signal: opts?.signal,
      }),
    );
  }

  /**
   * POST /api/v2/showcases/{id}/items (multipart): uploads picture files, each queued for conversion.
   * `items` (optional) gives each file its own presentation, in the same order as the files.
   */
  async uploadPictures(
    showcaseId: number,
    files: UploadFile[],
    opts: RequestOptions & { items?: (UploadItem | null)[] } = {},
  ): Promise<PicturesAdded> {
    if (!files.length)
      throw new ImageArError({
        status: 0,
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'files: at least one file',
        param: 'files',
      });
    const form = new FormData();
    // The items field must come before the file parts.
    if (opts.items) form.append('items', JSON.stringify(opts.items));
    for (const f of files) {
      const { blob, filename } = toBlob(f);
      form.append('files', blob, filename);
    }
    return this.post<PicturesAdded>(`/api/v2/showcases/${encodeURIComponent(String(showcaseId))}/items`, {
      headers: ImageArClient.idem(opts),
      body: form,
      signal: opts.signal,
    });
  }

  /** POST /api/v2/animated-ar. */
  createAnimatedAr(body: AnimatedArRequest, opts?: RequestOptions): Promise<AnimatedArCreated> {
    return this.call(this.api.POST('/api/v2/animated-ar', { body, params: { header: ImageArClient.idem(opts) }, signal: opts?.signal }));
  }

  /** GET /api/v2/showcases: the caller's showcases, newest first; pass next_cursor as cursor for the next page. */
  listShowcases(query: { cursor?: string; limit?: number } = {}, opts?: RequestOptions): Promise<ShowcaseList> {
    return this.call(this.api.GET('/api/v2/showcases', { params: { query }, signal: opts?.signal }));
  }

  /** PATCH /api/v2/showcases/{id}: any create field but the pictures; null clears a field. */
  updateShowcase(id: number, body: UpdateShowcaseRequest, opts?: RequestOptions): Promise<Showcase> {
    return this.call(this.api.PATCH('/api/v2/showcases/{id}', { body, params: { path: { id: String(id) } }, signal: opts?.signal }));
  }

  /** DELETE /api/v2/showcases/{id}: the showcase, its pictures and their files (no refund). */
  async deleteShowcase(id: number, opts?: RequestOptions): Promise<void> {
    await this.call(this.api.DELETE('/api/v2/showcases/{id}', { params: { path: { id: String(id) } }, signal: opts?.signal }));
  }

  /** DELETE /api/v2/showcases/{id}/items/{itemId}: one picture, its job and files (no refund). */
  async deleteShowcaseItem(id: number, itemId: number, opts?: RequestOptions): Promise<void> {
    await this.call(
      this.api.DELETE('/api/v2/showcases/{id}/items/{itemId}', {
        params: { path: { id: String(id), itemId: String(itemId) } },
        signal: opts?.signal,
      }),
    );
  }

  /**
   * PATCH /api/v2/showcases/{id}/items/{itemId}: the label, banner, availability and position apply at once
   * (free); a new size, fit, frame, mat, finish or placement rebuilds the files from the stored texture (free):
   * `rebuild_job_id` is then the job to wait for (waitForJob); the old files serve until it completes.
   */
  async updateItem(showcaseId: number, itemId: number, body: UpdateItemRequest, opts?: RequestOptions): Promise<ItemUpdated> {
    const out = await this.call(
      this.api.PATCH('/api/v2/showcases/{id}/items/{itemId}', {
        body,
        params: { path: { id: String(showcaseId), itemId: String(itemId) } },
        signal: opts?.signal,
      }),
    );
    const rebuild = out as { item?: ShowcaseItem; rebuild_job_id?: string };
    return rebuild.item && rebuild.rebuild_job_id
      ? { item: rebuild.item, rebuild_job_id: rebuild.rebuild_job_id }
      : { item: out as ShowcaseItem, rebuild_job_id: null };
  }

  /** PUT /api/v2/showcases/{id}/items/order: these items first, in this order (positions 0..n-1); free. */
  reorderItems(showcaseId: number, itemIds: number[], opts?: RequestOptions): Promise<ItemsOrder> {
    return this.call(
      this.api.PUT('/api/v2/showcases/{id}/items/order', {
        body: { item_ids: itemIds },
        params: { path: { id: String(showcaseId) } },
        signal: opts?.signal,
      }),
    );
  }

  /**
   * POST /api/v2/showcases/{id}/imports: a catalogue of up to 5,000 rows, as CSV or JSON items. Rows whose
   * external_id is already in the showcase update that item. With `dryRun` nothing is stored or charged and
   * the answer is the preview (counts, price, per-row errors); otherwise the import runs in the background:
   * follow it with waitForImport.
   */
  importCatalogue(showcaseId: number, input: CatalogueInput, opts: RequestOptions & { dryRun: true }): Promise<CatalogueImportPreview>;
  importCatalogue(showcaseId: number, input: CatalogueInput, opts?: RequestOptions & { dryRun?: false }): Promise<CatalogueImport>;
  async importCatalogue(
    showcaseId: number,
    input: CatalogueInput,
    opts: RequestOptions & { dryRun?: boolean } = {},
  ): Promise<CatalogueImport | CatalogueImportPreview> {
    const query = opts.dryRun ? '?dry_run=true' : '';
    const csv = 'csv' in input;
    return this.post(`/api/v2/showcases/${encodeURIComponent(String(showcaseId))}/imports${query}`, {
      headers: { 'content-type': csv ? 'text/csv; charset=utf-8' : 'application/json' },
      body: csv ? input.csv : JSON.stringify({ items: input.items }),
      signal: opts.signal,
    });
  }

  /** GET /api/v2/imports/{id}: status, counts and the rows that need attention. */
  getImport(importId: string, opts?: RequestOptions): Promise<CatalogueImport> {
    return this.call(
      this.api.GET('/api/v2/imports/{id}', { params: { path: { id: importId } }, signal: opts?.signal }),
    ) as Promise<CatalogueImport>;
  }

  /**
   * Polls an import until every row was dealt with (status completed), and with `untilConverted` until its
   * pictures are converted too; resolves with the final state. Transient errors (429, 5xx, network) are retried.
   */
  async waitForImport(importId: string, opts: WaitForImportOptions = {}): Promise<CatalogueImport> {
    const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
    let last = '';
    for (;;) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      let wait = opts.intervalMs ?? 1000;
      try {
        const imp = await this.getImport(importId, { signal: opts.signal });
        const seen = JSON.stringify([imp.status, imp.counts]);
        if (seen !== last) opts.onProgress?.(imp);
        last = seen;
        if (imp.status === 'completed' && (!opts.untilConverted || imp.counts.queued === 0)) return imp;
      } catch (e) {
        if (!(e instanceof ImageArError) || !e.retryable) throw e;
        if (e.retryAfterS !== undefined) wait = Math.max(wait, e.retryAfterS * 1000);
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new ImageArError({
          status: 0,
          type: 'api_error',
          code: 'import_timeout',
          message: `import ${importId} did not finish within ${opts.timeoutMs ?? 30 * 60_000} ms`,
        });
      await sleep(Math.min(wait, left), opts.signal);
    }
  }

  /**
   * POST /api/v2/showcases/{id}/walls: 2-12 of the showcase's pictures hung together as one AR model (1 credit,
   * refunded when the build fails). The answer has every picture's place at once; wait for `job_id`
   * (waitForJob) or poll getWall for the files.
   */
  createWall(showcaseId: number, body: CreateWallRequest, opts?: RequestOptions): Promise<WallCreated> {
    return this.call(
      this.api.POST('/api/v2/showcases/{id}/walls', {
        body,
        params: { path: { id: String(showcaseId) }, header: ImageArClient.idem(opts) },
        signal: opts?.signal,
      }),
    );
  }

  /** POST /api/v2/showcases/{id}/walls/layout: where an arrangement puts the pictures; nothing stored or charged. */
  wallLayout(showcaseId: number, body: CreateWallRequest, opts?: RequestOptions): Promise<WallLayout> {
    return this.call(
      this.api.POST('/api/v2/showcases/{id}/walls/layout', { body, params: { path: { id: String(showcaseId) } }, signal: opts?.signal }),
    );
  }

  /** GET /api/v2/showcases/{id}/walls: the showcase's gallery walls, newest first. */
  async listWalls(showcaseId: number, opts?: RequestOptions): Promise<Wall[]> {
    return (
      await this.call(this.api.GET('/api/v2/showcases/{id}/walls', { params: { path: { id: String(showcaseId) } }, signal: opts?.signal }))
    ).data;
  }

  /** GET /api/v2/showcases/{id}/walls/{wallId}. */
  getWall(showcaseId: number, wallId: string, opts?: RequestOptions): Promise<Wall> {
    return this.call(
      this.api.GET('/api/v2/showcases/{id}/walls/{wallId}', { params: { path: { id: String(showcaseId), wallId } }, signal: opts?.signal }),
    );
  }

  /** PATCH /api/v2/showcases/{id}/walls/{wallId}: a new name applies at once; a new arrangement rebuilds (free): `job_id`. */
  async updateWall(showcaseId: number, wallId: string, body: UpdateWallRequest, opts?: RequestOptions): Promise<WallUpdated> {
    const out = await this.call(
      this.api.PATCH('/api/v2/showcases/{id}/walls/{wallId}', {
        body,
        params: { path: { id: String(showcaseId), wallId } },
        signal: opts?.signal,
      }),
    );
    const rebuild = out as { wall?: Wall; job_id?: string };
    return rebuild.wall && rebuild.job_id ? { wall: rebuild.wall, job_id: rebuild.job_id } : { wall: out as Wall, job_id: null };
  }

  /** DELETE /api/v2/showcases/{id}/walls/{wallId}: the wall and its files (no refund). */
  async deleteWall(showcaseId: number, wallId: string, opts?: RequestOptions): Promise<void> {
    await this.call(
      this.api.DELETE('/api/v2/showcases/{id}/walls/{wallId}', {
        params: { path: { id: String(showcaseId), wallId } },
        signal: opts?.signal,
      }),
    );
  }

  /**
   * GET /api/v2/analytics: views, 3D interactions, AR launches, banner taps and unique visitors of the public
   * pages over a range of UTC days (default the last 30), with the funnel; one `showcase_id`, `item_id` or
   * `job_id` (a v1 conversion: its embed pages and the widget); `group_by` day, item, platform or referrer.
   * (CSV: call the route with format=csv yourself.)
   */
  getAnalytics(query: Omit<AnalyticsQuery, 'format'> = {}, opts?: RequestOptions): Promise<Analytics> {
    return this.call(this.api.GET('/api/v2/analytics', { params: { query }, signal: opts?.signal })) as Promise<Analytics>;
  }

  /** GET /api/v2/jobs: the caller's jobs, newest first, by status and kind; pass next_cursor as cursor for the next page. */
  listJobs(query: JobListQuery = {}, opts?: RequestOptions): Promise<JobList> {
    return this.call(this.api.GET('/api/v2/jobs', { params: { query }, signal: opts?.signal }));
  }

  /** GET /api/v2/keys: the account's live keys (never the secrets). */
  async listKeys(opts?: RequestOptions): Promise<ApiKey[]> {
    return (await this.call(this.api.GET('/api/v2/keys', { signal: opts?.signal }))).data;
  }

  /** POST /api/v2/keys: a new key; `key` (the secret) is in this answer only. A widget key needs allowed_origins. */
  createKey(body: CreateKeyRequest = {}, opts?: RequestOptions): Promise<ApiKeyCreated> {
    return this.call(this.api.POST('/api/v2/keys', { body, signal: opts?.signal }));
  }

  /** DELETE /api/v2/keys/{id}; the account's last full key needs `force: true`. */
  async revokeKey(id: string, opts: RequestOptions & { force?: boolean } = {}): Promise<void> {
    await this.call(
      this.api.DELETE('/api/v2/keys/{id}', { params: { path: { id }, query: opts.force ? { force: true } : {} }, signal: opts.signal }),
    );
  }

  /** GET /api/v2/me: identity, key, balance and showcase slots. */
  me(opts?: RequestOptions): Promise<Me> {
    return this.call(this.api.GET('/api/v2/me', { signal: opts?.signal }));
  }

  /** GET /api/v2/usage: ledger entries (newest first) and totals. */
  usage(query: { limit?: number; before?: number } = {}, opts?: RequestOptions): Promise<Usage> {
    return this.call(this.api.GET('/api/v2/usage', { params: { query }, signal: opts?.signal }));
  }

  /** GET /api/v2/pricing. */
  pricing(opts?: RequestOptions): Promise<PriceList> {
    return this.call(this.api.GET('/api/v2/pricing', { signal: opts?.signal }));
  }

  /* ---- waiting ---- */

  /**
   * Polls a job (v1 "api_…" via /api/v1/status, v2 "v2_…" via /api/v2/jobs) with exponential backoff until
   * it completes; resolves with the final state. Rejects with JobFailedError when it fails (cancelled
   * included), JobTimeoutError after timeoutMs, the signal's reason when aborted, and ImageArError on an
   * error answer that retrying will not fix (429, 503, 5xx and network failures are retried, honouring Retry-After).
   */
  async waitForJob<J extends AnyJob = AnyJob>(jobId: string, opts: WaitForJobOptions = {}): Promise<J> {
    const timeoutMs = opts.timeoutMs ?? 600_000;
    const maxInterval = opts.maxIntervalMs ?? 5_000;
    const factor = opts.backoff ?? 1.5;
    let interval = opts.intervalMs ?? 500;
    const deadline = Date.now() + timeoutMs;
    let last: AnyJob | undefined;
    for (;;) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      let wait = interval;
      try {
        const job: AnyJob = jobId.startsWith('v2_')
          ? await this.getJob(jobId, { signal: opts.signal })
          : await this.status(jobId, { signal: opts.signal });
        if (!last || last.status !== job.status || last.progress !== job.progress) opts.onProgress?.(job);
        last = job;
        if (job.status === 'completed') return job as J;
        if (job.status === 'failed')
          throw new JobFailedError(jobId, job.error?.code ?? 'failed', job.error?.message ?? 'the job failed', job);
      } catch (e) {
        if (!(e instanceof ImageArError) || !e.retryable) throw e;
        if (e.retryAfterS !== undefined) wait = Math.max(wait, e.retryAfterS * 1000);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new JobTimeoutError(jobId, timeoutMs, last);
      await sleep(Math.min(wait, left), opts.signal);
      interval = Math.min(maxInterval, interval * factor);
    }
  }
}
