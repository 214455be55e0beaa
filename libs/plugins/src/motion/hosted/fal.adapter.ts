import type { HostedProviderConfig } from '@app/config';
import type { HostedApi, HostedModel, HostedOperation, HostedStatus } from './hosted-motion.adapter';
import { ProviderHttpError } from './provider-http';
import { clipSeconds, stillPublicUrl } from './still-upload';

export const FAL_DEFAULT_MODELS: readonly Omit<HostedModel, 'input'>[] = [
  {
    id: 'fal:fal-ai/kling-video/v2.1/standard/image-to-video',
    model: 'fal-ai/kling-video/v2.1/standard/image-to-video',
    displayName: 'Kling 2.1 Standard (fal)',
    description: 'Kling image-to-video on fal, 5 s clips',
  },
];

interface FalQueued {
  request_id: string;
  status_url: string;
  response_url: string;
  cancel_url: string;
}

interface FalOperation extends HostedOperation {
  status_url: string;
  response_url: string;
  cancel_url: string;
}

/**
 * fal queue API (https://fal.ai/docs/api-reference/inference-api): `POST {queue}/{model path}` with the
 * model's input -> `{request_id, status_url, response_url, cancel_url}` (those URLs use the app id
 * only, so they are kept from the answer, never built); `GET status_url` (IN_QUEUE | IN_PROGRESS |
 * COMPLETED); then `GET response_url` gives the model's answer — or its error, as an HTTP error: a failed
 * request is COMPLETED too. `PUT cancel_url` cancels. Auth is `Authorization: Key …`.
 */
export function falApi(config: HostedProviderConfig): HostedApi {
  const base = config.baseUrl;
  return {
    id: 'fal',
    label: 'fal',
    baseUrl: base,
    headers: () => ({ authorization: `Key ${config.apiKey}` }),

    async create(req, model, ctx) {
      const body = {
        prompt: req.prompt,
        // A URL works with every fal model (data URIs only with some).
        image_url: await stillPublicUrl(req, ctx.storage),
        duration: String(clipSeconds(req.durationS, [5, 10])),
        ...model.input,
      };
      const { body: q } = await ctx.http.json<FalQueued>('POST', `${base}/${model.model}`, { body, signal: ctx.signal });
      if (!q?.request_id || !q.status_url || !q.response_url)
        throw new Error('fal: the submit answer has no request_id / status_url / response_url');
      return { id: q.request_id, status_url: q.status_url, response_url: q.response_url, cancel_url: q.cancel_url };
    },

    async status(handle, ctx): Promise<HostedStatus> {
      const op = handle as FalOperation;
      const { body: s } = await ctx.http.json<{ status: string; queue_position?: number }>('GET', op.status_url, { signal: ctx.signal });
      if (s.status !== 'COMPLETED') return { state: 'running', progress: s.status === 'IN_PROGRESS' ? 0.5 : 0 };
      try {
        const { body: result } = await ctx.http.json<{ video?: { url?: string } }>('GET', op.response_url, { signal: ctx.signal });
        const url = result?.video?.url;
        return url
          ? { state: 'succeeded', videoUrl: url }
          : { state: 'failed', code: 'motion_failed', message: 'fal finished without a video' };
      } catch (err) {
        if (!(err instanceof ProviderHttpError) || err.kind === 'rate_limited' || err.kind === 'auth') throw err;
        // The model's own error, replayed by the result endpoint.
        const moderated = /content_policy|flagged|nsfw|moderation/i.test(err.message);
        return {
          state: 'failed',
          code: moderated ? 'motion_moderated' : 'motion_failed',
          message: `fal request failed: ${err.message}`,
          retryable: err.kind === 'unavailable',
        };
      }
    },

    async cancel(handle, ctx) {
      const op = handle as FalOperation;
      await ctx.http.json('PUT', op.cancel_url, { signal: ctx.signal }).catch((err: unknown) => {
        // 400 ALREADY_COMPLETED: nothing left to cancel.
        if (!(err instanceof ProviderHttpError && err.status === 400)) throw err;
      });
    },
  };
}
