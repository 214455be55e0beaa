import type { AppConfig } from '@app/config';
import { UserError, type StageProvider } from '@app/pipeline';
import { fetchSource, type FetchedSource } from '../fetch/fetch-source';
import { animatedInput } from './animated-ar-input';

/**
 * Downloads the animated AR source under the v2 rules (spec §8): https only, no redirects, the real type
 * sniffed from the bytes; an image_url must be a picture, a video_url an mp4 / mov / webm of at most
 * VIDEO_MAX_BYTES (enforced while streaming).
 */
export function createAnimatedSourceStage(config: AppConfig): StageProvider<FetchedSource> {
  return {
    id: 'animated-source',
    async run(ctx) {
      const input = animatedInput(ctx.job.input);
      const video = typeof input.video_url === 'string';
      const url = video ? input.video_url : input.image_url;
      if (typeof url !== 'string') throw new UserError('missing_source', 'animated-source: the job has neither image_url nor video_url');
      ctx.progress(0.05);
      const out = await fetchSource(url, {
        maxBytes: video ? config.animated.videoMaxBytes : config.fetch.maxBytes,
        timeoutMs: video ? Math.max(config.fetch.timeoutMs, config.animated.videoTimeoutMs) : config.fetch.timeoutMs,
        connectTimeoutMs: config.fetch.connectTimeoutMs,
        strict: true,
        allowPrivateNetworks: config.allowPrivateNetworks,
        accept: video ? ['video'] : ['image'],
        signal: ctx.signal,
      });
      ctx.progress(1);
      return out;
    },
  };
}
