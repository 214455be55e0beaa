import type { HostedProviderConfig } from '@app/config';
import type { HostedApi, HostedModel, HostedStatus } from './hosted-motion.adapter';

export const VEO_DEFAULT_MODELS: readonly Omit<HostedModel, 'input'>[] = [
  {
    id: 'veo:veo-3.0-fast-generate-001',
    model: 'veo-3.0-fast-generate-001',
    displayName: 'Google Veo 3 Fast',
    description: 'Google Veo through the Gemini API, 8 s clips',
  },
];

interface VeoOperation {
  name: string;
  done?: boolean;
  error?: { code?: number; message?: string };
  response?: {
    generateVideoResponse?: {
      generatedSamples?: { video?: { uri?: string } }[];
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

/**
 * Google Veo through the Gemini API (https://ai.google.dev/gemini-api/docs/video):
 * `POST /models/{model}:predictLongRunning` with `instances[0] = {prompt, image: {bytesBase64Encoded,
 * mimeType}}` -> a long-running operation `{name}`; `GET /{name}` until `done`, the video at
 * `response.generateVideoResponse.generatedSamples[0].video.uri` (downloaded with the key; kept two
 * days). A finished operation with no sample and `raiMediaFilteredCount` > 0 was blocked by safety
 * filters. Veo operations have no cancel method: cancelling stops polling and lets it expire.
 */
export function veoApi(config: HostedProviderConfig): HostedApi {
  const base = config.baseUrl;
  const auth = () => ({ 'x-goog-api-key': config.apiKey as string });
  return {
    id: 'veo',
    label: 'Google Veo',
    baseUrl: base,
    headers: auth,
    downloadHeaders: auth,

    async create(req, model, ctx) {
      const { parameters, ...instance } = model.input as { parameters?: Record<string, unknown> };
      const body = {
        instances: [
          {
            prompt: req.prompt,
            image: { bytesBase64Encoded: req.image.encoded.toString('base64'), mimeType: req.image.mime },
            ...instance,
          },
        ],
        parameters: { aspectRatio: req.image.width >= req.image.height ? '16:9' : '9:16', ...parameters },
      };
      const { body: op } = await ctx.http.json<VeoOperation>('POST', `${base}/models/${model.model}:predictLongRunning`, {
        body,
        signal: ctx.signal,
      });
      if (!op?.name) throw new Error('veo: the create answer has no operation name');
      return { id: op.name };
    },

    async status(op, ctx): Promise<HostedStatus> {
      const { body: o } = await ctx.http.json<VeoOperation>('GET', `${base}/${op.id}`, { signal: ctx.signal });
      if (!o.done) return { state: 'running' };
      if (o.error) {
        return {
          state: 'failed',
          code: 'motion_failed',
          message: `Veo operation failed (${o.error.code ?? '?'}): ${o.error.message ?? 'no reason given'}`,
          retryable: o.error.code === 13 || o.error.code === 14,
        };
      }
      const r = o.response?.generateVideoResponse;
      const uri = r?.generatedSamples?.[0]?.video?.uri;
      if (uri) return { state: 'succeeded', videoUrl: uri };
      if (r?.raiMediaFilteredCount) {
        return {
          state: 'failed',
          code: 'motion_moderated',
          message: `Veo blocked the video: ${(r.raiMediaFilteredReasons ?? []).join('; ') || 'safety filters'}`,
        };
      }
      return { state: 'failed', code: 'motion_failed', message: 'Veo finished without a video', retryable: true };
    },

    async cancel(_op, ctx) {
      ctx.log.info('veo: operations cannot be cancelled; polling stopped, the operation expires on its own');
    },
  };
}
