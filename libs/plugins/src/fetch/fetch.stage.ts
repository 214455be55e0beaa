import type { AppConfig } from '@app/config';
import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { inputOf, type PictureSource } from '../job-inputs/job-input-fields';
import { fetchSource, type FetchedSource } from './fetch-source';
import { readUpload } from './read-upload';

export interface FetchStageOptions {
  /** https only, no redirects. */
  strict?: boolean;
  /** Job input field holding the URL (default image_url). */
  field?: string;
}

/** Downloads the job's source URL, or reads its upload (`upload_key`) back from storage. */
export function createFetchStage(config: AppConfig, storage: StoragePort): StageProvider<FetchedSource, FetchStageOptions> {
  return {
    id: 'fetch',
    async run(ctx) {
      const input = inputOf<PictureSource>(ctx.job);
      if (typeof input.upload_key === 'string') {
        const out = await readUpload(storage, input.upload_key, config.fetch.maxBytes);
        ctx.progress(1);
        return out;
      }
      const field = ctx.options.field ?? 'image_url';
      const url = String(input[field] ?? '');
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
