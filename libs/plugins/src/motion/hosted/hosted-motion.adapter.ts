import { Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostedModelConfig } from '@app/config';
import { OperationalError, UserError } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { MotionContext, MotionHandle, MotionModelInfo, MotionPoll, MotionProvider, MotionRequest } from '../motion-provider.port';
import { ProviderHttp, ProviderHttpError } from './provider-http';

/** A hosted model as an adapter sees it: the operator's settings merged over the adapter's defaults. */
export interface HostedModel {
  /** video_model id, e.g. `runway:gen4_turbo`. */
  id: string;
  /** The provider's model name, e.g. `gen4_turbo`. */
  model: string;
  displayName: string;
  description?: string;
  /** Provider-specific request fields from CONFIG_FILE (they win over what the adapter derives). */
  input: Record<string, unknown>;
  imageField?: string;
  promptField?: string;
}

/** What an adapter keeps to find its operation again, also after a worker restart (JSON only). */
export interface HostedOperation extends MotionHandle {
  id: string;
}

export type HostedStatus =
  | { state: 'running'; progress?: number }
  | { state: 'succeeded'; videoUrl: string }
  | { state: 'failed'; code: string; message: string; retryable?: boolean };

export interface HostedApiContext extends MotionContext {
  http: ProviderHttp;
}

/**
 * One provider's protocol: how to create an operation, read its status and cancel it. Everything
 * else (rate limits, transient errors, copying the result into our storage) is shared.
 */
export interface HostedApi {
  readonly id: string;
  /** Display name of the provider, for model names and messages. */
  readonly label: string;
  /** The configured API base URL: its origin is the only one that is sent {@link headers}. */
  readonly baseUrl: string;
  /** Headers on requests to the API origin: auth and API version. */
  headers(): Record<string, string>;
  create(req: MotionRequest, model: HostedModel, ctx: HostedApiContext): Promise<HostedOperation>;
  status(op: HostedOperation, ctx: HostedApiContext): Promise<HostedStatus>;
  cancel(op: HostedOperation, ctx: HostedApiContext): Promise<void>;
  /** Extra headers for downloading the result (Veo's file links need the key); sent on the API origin only. */
  downloadHeaders?(): Record<string, string>;
}

export interface HostedProviderOptions {
  storage: StoragePort;
  /** Wait between status requests when the provider gives no hint. */
  pollIntervalMs: number;
  requestTimeoutMs: number;
  /** Largest result video copied (VIDEO_MAX_BYTES). */
  maxVideoBytes: number;
  /** Create attempts on 429 / 5xx before the job is retried later. */
  createAttempts?: number;
  /** Consecutive failed status requests before the job is retried later. */
  pollErrorLimit?: number;
  /** Upper bound of one backoff wait. */
  maxBackoffMs?: number;
  /** ALLOW_PRIVATE_NETWORKS: result links off the API origin may lead to private addresses. */
  allowPrivateNetworks?: boolean;
}

/** Turns operator model settings into {@link HostedModel}s, filling in the adapter's display names. */
export function hostedModels(
  configured: readonly HostedModelConfig[] | undefined,
  defaults: readonly Omit<HostedModel, 'input'>[],
  label: string,
): HostedModel[] {
  if (!configured) return defaults.map((d) => ({ ...d, input: {} }));
  return configured.map((c) => {
    const known = defaults.find((d) => d.model === c.model);
    return {
      id: c.id,
      model: c.model,
      displayName: c.displayName ?? known?.displayName ?? `${c.model} (${label})`,
      description: c.description ?? known?.description,
      input: c.input,
      imageField: c.imageField ?? known?.imageField,
      promptField: c.promptField ?? known?.promptField,
    };
  });
}

/**
 * A {@link MotionProvider} over a hosted image-to-video API.
 *
 * - `start` creates the operation; 429 and 5xx are retried here with backoff (Retry-After wins), so a
 *   busy provider does not fail the job; after `createAttempts` the job is retried by the queue.
 * - `poll` reads the status once and tells the motion stage when to ask again: the provider's
 *   Retry-After on 429, a growing backoff on transient errors, else `pollIntervalMs`. The handle is
 *   plain JSON in the job's checkpoints, so a restarted worker polls the same operation.
 * - On success the video is copied into our storage at once (provider links expire within hours).
 */
export function createHostedMotionProvider(api: HostedApi, models: readonly HostedModel[], options: HostedProviderOptions): MotionProvider {
  const opts = { createAttempts: 5, pollErrorLimit: 8, maxBackoffMs: 60_000, ...options };
  const http = new ProviderHttp({
    provider: api.id,
    baseUrl: api.baseUrl,
    headers: api.headers(),
    timeoutMs: opts.requestTimeoutMs,
    allowPrivateNetworks: opts.allowPrivateNetworks,
  });
  const byId = new Map(models.map((m) => [m.id, m]));
  // Consecutive status errors per operation; lost on restart, which only restarts the count.
  const pollErrors = new Map<string, number>();
  const backoff = (attempt: number, hint?: number) => Math.min(opts.maxBackoffMs, hint ?? opts.pollIntervalMs * 2 ** attempt);
  const actx = (ctx: MotionContext): HostedApiContext => ({ ...ctx, http });

  return {
    id: api.id,
    acceptsTransparency: false,
    models: (): MotionModelInfo[] =>
      models.map((m) => ({
        id: m.id,
        display_name: m.displayName,
        provider: api.id,
        ...(m.description ? { description: m.description } : {}),
      })),

    async start(req, ctx) {
      const model = byId.get(req.model);
      if (!model) throw new Error(`${api.id}: model "${req.model}" is not one of this provider's`);
      for (let attempt = 0; ; attempt++) {
        try {
          const op = await api.create(req, model, actx(ctx));
          ctx.log.info(`${api.id}: operation created`, { jobId: req.jobId, model: req.model, operation: op.id });
          return op;
        } catch (err) {
          if (!(err instanceof ProviderHttpError)) throw err;
          if (err.kind === 'auth')
            throw new UserError(
              'motion_provider_auth',
              `motion: ${api.label} refused our credentials (${err.message}); the operator must check the key`,
            );
          if (err.kind === 'rejected') throw new UserError('motion_rejected', `motion: ${api.label} refused the request: ${err.message}`);
          if (attempt + 1 >= opts.createAttempts || ctx.signal.aborted) {
            throw new OperationalError(
              err.kind === 'rate_limited' ? 'motion_provider_busy' : 'motion_provider_unavailable',
              `motion: ${err.message} (${attempt + 1} attempts); the job will be retried`,
            );
          }
          const wait = backoff(attempt, err.retryAfterMs);
          ctx.log.warn(`${api.id}: create ${err.kind === 'rate_limited' ? 'rate limited' : 'failed'}, retrying in ${wait} ms`, {
            jobId: req.jobId,
            status: err.status,
          });
          await sleep(wait, undefined, { signal: ctx.signal }).catch(() => undefined);
        }
      }
    },

    async poll(handle, req, ctx): Promise<MotionPoll> {
      const op = handle as HostedOperation;
      let status: HostedStatus;
      try {
        status = await api.status(op, actx(ctx));
        pollErrors.delete(op.id);
      } catch (err) {
        if (!(err instanceof ProviderHttpError)) throw err;
        if (err.kind === 'auth')
          return { state: 'failed', code: 'motion_provider_auth', message: `${api.label} refused our credentials (${err.message})` };
        if (err.kind === 'rejected') {
          // The operation is gone (expired, deleted): a new attempt starts a new one.
          return {
            state: 'failed',
            code: 'motion_operation_lost',
            message: `${api.label} no longer knows operation ${op.id}: ${err.message}`,
            retryable: true,
          };
        }
        const n = (pollErrors.get(op.id) ?? 0) + 1;
        pollErrors.set(op.id, n);
        if (err.kind !== 'rate_limited' && n >= opts.pollErrorLimit) {
          pollErrors.delete(op.id);
          return {
            state: 'failed',
            code: 'motion_provider_unavailable',
            message: `${err.message} (${n} status requests in a row)`,
            retryable: true,
          };
        }
        const wait = backoff(err.kind === 'rate_limited' ? 0 : n, err.retryAfterMs);
        ctx.log.warn(`${api.id}: status ${err.kind === 'rate_limited' ? 'rate limited' : 'failed'}, asking again in ${wait} ms`, {
          jobId: req.jobId,
          operation: op.id,
          status: err.status,
        });
        return { state: 'running', retryAfterMs: wait };
      }
      if (status.state === 'running') return { state: 'running', progress: status.progress, retryAfterMs: opts.pollIntervalMs };
      if (status.state === 'failed') return status;
      try {
        return {
          state: 'succeeded',
          output: { kind: 'video', storageKey: await copyResult(api, http, status.videoUrl, req, op, ctx, opts) },
        };
      } catch (err) {
        if (!(err instanceof ProviderHttpError)) throw err;
        return {
          state: 'failed',
          code: 'motion_result_unavailable',
          message: `the result of ${api.label} could not be copied: ${err.message}`,
          retryable: true,
        };
      }
    },

    async cancel(handle, ctx) {
      await api.cancel(handle as HostedOperation, actx(ctx));
      ctx.log.info(`${api.id}: operation cancelled`, { operation: (handle as HostedOperation).id });
    },
  };
}

/** Streams the provider's video into our storage, capped at `maxVideoBytes`; returns the key. */
async function copyResult(
  api: HostedApi,
  http: ProviderHttp,
  url: string,
  req: MotionRequest,
  op: HostedOperation,
  ctx: MotionContext,
  opts: HostedProviderOptions,
): Promise<string> {
  const key = `motion/${req.jobId}/${api.id}-${op.id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-80)}.mp4`;
  const { stream, length } = await http.stream(url, { signal: ctx.signal, headers: api.downloadHeaders?.() });
  if (length !== undefined && length > opts.maxVideoBytes) {
    stream.destroy();
    throw new UserError(
      'motion_result_too_large',
      `motion: the ${api.label} video is ${length} bytes, over the ${opts.maxVideoBytes} byte limit`,
    );
  }
  let seen = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > opts.maxVideoBytes)
        done(new UserError('motion_result_too_large', `motion: the ${api.label} video is over the ${opts.maxVideoBytes} byte limit`));
      else done(null, chunk);
    },
  });
  stream.on('error', (err) => cap.destroy(err));
  try {
    await opts.storage.putStream(key, stream.pipe(cap), 'video/mp4');
  } catch (err) {
    if (err instanceof UserError) throw err;
    if (err instanceof ProviderHttpError) throw err;
    // A broken download stream (connection reset) is transient.
    throw new ProviderHttpError(api.id, 'unavailable', `${api.id}: download interrupted: ${(err as Error).message}`);
  }
  ctx.log.info(`${api.id}: result copied into storage`, { jobId: req.jobId, key, bytes: seen });
  return key;
}
