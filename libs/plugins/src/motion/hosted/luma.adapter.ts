import type { HostedProviderConfig } from '@app/config';
import type { HostedApi, HostedModel, HostedStatus } from './hosted-motion.adapter';
import { clipSeconds, closestRatio, stillPublicUrl } from './still-upload';

const ASPECTS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const;

export const LUMA_DEFAULT_MODELS: readonly Omit<HostedModel, 'input'>[] = [
  { id: 'luma:ray-2', model: 'ray-2', displayName: 'Luma Ray 2', description: 'Luma Dream Machine, seamless loops' },
  { id: 'luma:ray-flash-2', model: 'ray-flash-2', displayName: 'Luma Ray Flash 2', description: 'Luma Dream Machine, faster and cheaper' },
];

interface LumaGeneration {
  id: string;
  state: 'queued' | 'dreaming' | 'completed' | 'failed';
  failure_reason?: string | null;
  assets?: { video?: string | null } | null;
}

/**
 * Luma Dream Machine API (https://docs.lumalabs.ai/docs/video-generation): `POST /generations` with
 * `keyframes.frame0 = {type: "image", url}` (a hosted image: Luma takes no data URIs) and `loop: true`
 * (a seamless loop is exactly what a flipbook needs); `GET /generations/{id}` (queued | dreaming |
 * completed | failed, `assets.video`); `DELETE /generations/{id}` removes it.
 */
export function lumaApi(config: HostedProviderConfig): HostedApi {
  const base = config.baseUrl;
  return {
    id: 'luma',
    label: 'Luma',
    baseUrl: base,
    headers: () => ({ authorization: `Bearer ${config.apiKey}` }),

    async create(req, model, ctx) {
      const body = {
        model: model.model,
        prompt: req.prompt.slice(0, 5000),
        keyframes: { frame0: { type: 'image', url: await stillPublicUrl(req, ctx.storage) } },
        loop: true,
        aspect_ratio: closestRatio(req.image.width, req.image.height, ASPECTS),
        duration: `${clipSeconds(req.durationS, [5, 9])}s`,
        ...model.input,
      };
      const { body: g } = await ctx.http.json<LumaGeneration>('POST', `${base}/generations`, { body, signal: ctx.signal });
      if (!g?.id) throw new Error('luma: the create answer has no generation id');
      return { id: g.id };
    },

    async status(op, ctx): Promise<HostedStatus> {
      const { body: g } = await ctx.http.json<LumaGeneration>('GET', `${base}/generations/${encodeURIComponent(op.id)}`, {
        signal: ctx.signal,
      });
      if (g.state === 'completed') {
        if (!g.assets?.video) return { state: 'failed', code: 'motion_failed', message: 'Luma completed without a video', retryable: true };
        return { state: 'succeeded', videoUrl: g.assets.video };
      }
      if (g.state === 'failed') {
        const reason = g.failure_reason ?? 'no reason given';
        return {
          state: 'failed',
          code: /moderation|blacklist/i.test(reason) ? 'motion_moderated' : 'motion_failed',
          message: `Luma generation failed: ${reason}`,
        };
      }
      return { state: 'running', progress: g.state === 'dreaming' ? 0.5 : 0 };
    },

    async cancel(op, ctx) {
      await ctx.http.json('DELETE', `${base}/generations/${encodeURIComponent(op.id)}`, { signal: ctx.signal });
    },
  };
}
