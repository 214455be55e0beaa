import type { HostedProviderConfig } from '@app/config';
import type { HostedApi, HostedModel, HostedOperation, HostedStatus } from './hosted-motion.adapter';
import { clipSeconds, closestRatio, stillDataUri } from './still-upload';

/** Output ratios per model (docs.dev.runwayml.com API reference, image_to_video). */
const RATIOS: Record<string, readonly string[]> = {
  gen4_turbo: ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'],
  gen3a_turbo: ['1280:768', '768:1280'],
  veo3: ['1280:720', '720:1280'],
};
const DURATIONS: Record<string, readonly number[]> = { veo3: [8] };

export const RUNWAY_DEFAULT_MODELS: readonly Omit<HostedModel, 'input'>[] = [
  { id: 'runway:gen4_turbo', model: 'gen4_turbo', displayName: 'Runway Gen-4 Turbo', description: 'Runway image-to-video, 5 s clips' },
];

interface RunwayTask {
  id: string;
  status: 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  progress?: number;
  output?: string[];
  failure?: string;
  failureCode?: string;
}

/**
 * Runway API (https://docs.dev.runwayml.com): `POST /v1/image_to_video` -> `{id}`, `GET /v1/tasks/{id}`
 * (PENDING | THROTTLED | RUNNING | SUCCEEDED | FAILED | CANCELLED; `output[]` links expire in 24-48 h),
 * `DELETE /v1/tasks/{id}` cancels. Every request carries `X-Runway-Version`.
 */
export function runwayApi(config: HostedProviderConfig, apiVersion: string): HostedApi {
  const base = config.baseUrl;
  return {
    id: 'runway',
    label: 'Runway',
    baseUrl: base,
    headers: () => ({ authorization: `Bearer ${config.apiKey}`, 'x-runway-version': apiVersion }),

    async create(req, model, ctx) {
      const body = {
        model: model.model,
        // Data URIs up to 5 MB of text (docs: Inputs).
        promptImage: await stillDataUri(req, 5_000_000),
        promptText: req.prompt.slice(0, 1000),
        ratio: closestRatio(req.image.width, req.image.height, RATIOS[model.model] ?? RATIOS.gen4_turbo),
        duration: clipSeconds(req.durationS, DURATIONS[model.model] ?? [5, 10]),
        ...model.input,
      };
      const { body: task } = await ctx.http.json<{ id: string }>('POST', `${base}/image_to_video`, { body, signal: ctx.signal });
      if (!task?.id) throw new Error('runway: the create answer has no task id');
      return { id: task.id };
    },

    async status(op: HostedOperation, ctx): Promise<HostedStatus> {
      const { body: t } = await ctx.http.json<RunwayTask>('GET', `${base}/tasks/${encodeURIComponent(op.id)}`, { signal: ctx.signal });
      switch (t.status) {
        case 'SUCCEEDED':
          if (!t.output?.length)
            return { state: 'failed', code: 'motion_failed', message: 'Runway finished without an output video', retryable: true };
          return { state: 'succeeded', videoUrl: t.output[0] };
        case 'FAILED': {
          const code = t.failureCode ?? '';
          // SAFETY.* are moderation refusals; INTERNAL.* may succeed on another attempt (docs: Task failures).
          const safety = code.startsWith('SAFETY') || code.includes('.SAFETY');
          return {
            state: 'failed',
            code: safety ? 'motion_moderated' : 'motion_failed',
            message: `Runway task failed${code ? ` (${code})` : ''}: ${t.failure ?? 'no reason given'}`,
            retryable: code.startsWith('INTERNAL') && !code.startsWith('INTERNAL.BAD_OUTPUT'),
          };
        }
        case 'CANCELLED':
          return { state: 'failed', code: 'motion_cancelled', message: 'the Runway task was cancelled' };
        case 'RUNNING':
          return { state: 'running', progress: t.progress };
        default:
          // PENDING, or THROTTLED: queued by Runway behind the organisation's concurrency limit.
          return { state: 'running', progress: 0 };
      }
    },

    async cancel(op, ctx) {
      await ctx.http.json('DELETE', `${base}/tasks/${encodeURIComponent(op.id)}`, { signal: ctx.signal });
    },
  };
}
