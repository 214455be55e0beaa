import type { HostedProviderConfig } from '@app/config';
import type { HostedApi, HostedApiContext, HostedModel, HostedStatus } from './hosted-motion.adapter';
import { ProviderHttpError } from './provider-http';
import { dataUri } from './still-upload';

/** Data URLs are for small files; bigger ones go through the Files API (docs: input files). */
const DATA_URL_MAX_BYTES = 256 * 1024;

export const REPLICATE_DEFAULT_MODELS: readonly Omit<HostedModel, 'input'>[] = [
  {
    id: 'replicate:kwaivgi/kling-v2.1',
    model: 'kwaivgi/kling-v2.1',
    displayName: 'Kling 2.1 (Replicate)',
    imageField: 'start_image',
    description: 'Kling image-to-video on Replicate, 5 s clips',
  },
  {
    id: 'replicate:minimax/video-01',
    model: 'minimax/video-01',
    displayName: 'MiniMax Video-01 (Replicate)',
    imageField: 'first_frame_image',
    description: 'MiniMax Hailuo image-to-video on Replicate',
  },
];

interface Prediction {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  output?: unknown;
  error?: string | null;
  logs?: string | null;
}

/**
 * Replicate HTTP API (https://replicate.com/docs/topics/predictions): `POST /models/{owner}/{name}/predictions`
 * (or `POST /predictions` with `version` for `owner/name:version` ids) -> prediction; `GET
 * /predictions/{id}` (starting | processing | succeeded | failed | canceled | aborted; output files are
 * deleted after an hour); `POST /predictions/{id}/cancel`. Pictures over 256 KB are uploaded with
 * `POST /files` first. Input field names differ per model: `image_field` / `prompt_field`.
 */
export function replicateApi(config: HostedProviderConfig): HostedApi {
  const base = config.baseUrl;

  async function imageInput(req: Parameters<HostedApi['create']>[0], ctx: HostedApiContext): Promise<string> {
    if (req.image.encoded.length <= DATA_URL_MAX_BYTES) return dataUri(req.image.encoded, req.image.mime);
    const form = new FormData();
    form.append(
      'content',
      new Blob([new Uint8Array(req.image.encoded)], { type: req.image.mime }),
      req.image.mime === 'image/png' ? 'picture.png' : 'picture.jpg',
    );
    const { body } = await ctx.http.json<{ urls?: { get?: string } }>('POST', `${base}/files`, { body: form, signal: ctx.signal });
    if (!body?.urls?.get) throw new ProviderHttpError('replicate', 'rejected', 'replicate: POST /files answered without urls.get');
    return body.urls.get;
  }

  return {
    id: 'replicate',
    label: 'Replicate',
    baseUrl: base,
    headers: () => ({ authorization: `Bearer ${config.apiKey}` }),

    async create(req, model, ctx) {
      const input = {
        [model.promptField ?? 'prompt']: req.prompt,
        [model.imageField ?? 'image']: await imageInput(req, ctx),
        ...model.input,
      };
      const [name, version] = model.model.split(':');
      const { body: p } = version
        ? await ctx.http.json<Prediction>('POST', `${base}/predictions`, { body: { version, input }, signal: ctx.signal })
        : await ctx.http.json<Prediction>('POST', `${base}/models/${name}/predictions`, { body: { input }, signal: ctx.signal });
      if (!p?.id) throw new Error('replicate: the create answer has no prediction id');
      return { id: p.id };
    },

    async status(op, ctx): Promise<HostedStatus> {
      const { body: p } = await ctx.http.json<Prediction>('GET', `${base}/predictions/${encodeURIComponent(op.id)}`, {
        signal: ctx.signal,
      });
      switch (p.status) {
        case 'succeeded': {
          const url = firstUrl(p.output);
          return url
            ? { state: 'succeeded', videoUrl: url }
            : { state: 'failed', code: 'motion_failed', message: 'Replicate finished without an output video' };
        }
        case 'failed':
          return {
            state: 'failed',
            code: /nsfw|safety|flagged|sensitive/i.test(p.error ?? '') ? 'motion_moderated' : 'motion_failed',
            message: `Replicate prediction failed: ${p.error ?? 'no reason given'}`,
          };
        case 'canceled':
          return { state: 'failed', code: 'motion_cancelled', message: 'the Replicate prediction was cancelled' };
        case 'aborted':
          // Its deadline passed before it started: another attempt may find capacity.
          return {
            state: 'failed',
            code: 'motion_provider_busy',
            message: 'Replicate aborted the prediction before it started',
            retryable: true,
          };
        default:
          return { state: 'running', progress: p.status === 'processing' ? 0.5 : 0 };
      }
    },

    async cancel(op, ctx) {
      await ctx.http.json('POST', `${base}/predictions/${encodeURIComponent(op.id)}/cancel`, { signal: ctx.signal });
    },
  };
}

/** Video models return one URL or a list of URLs. */
function firstUrl(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.find((o): o is string => typeof o === 'string');
  return undefined;
}
