import type { AppConfig } from '@app/config';
import type { StageProvider } from '@app/pipeline';
import { fetchSource, type FetchedSource } from './fetch-source';

export interface FetchStageOptions {
  /** https only, no redirects. */
  strict?: boolean;
  /** Job input field holding the URL (default image_url). */
  field?: string;
}

/** Downloads the job's source URL. */
export function createFetchStage(config: AppConfig): StageProvider<FetchedSource, FetchStageOptions> {
  return {
    id: 'fetch',
    async run(ctx) {
      const field = ctx.options.field ?? 'image_url';
      const url = String(ctx.job.input[field] ?? '');
      ctx.progress(0.1);
      const out = await fetchSource(url, {
        maxBytes: config.fetch.maxBytes,
        timeoutMs: config.fetch.timeoutMs,
        connectTimeoutMs: config.fetch.connectTimeoutMs,
        strict: ctx.options.strict,
        allowPrivateNetworks: config.allowPrivateNetworks,
        signal: ctx.signal,
      });
      ctx.progress(1);
      return out;
    },
  };
}
