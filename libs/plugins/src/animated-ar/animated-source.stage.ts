import type { AppConfig } from '@app/config';
import { UserError, type StageProvider } from '@app/pipeline';
import { join } from 'node:path';
import { fetchSource, fetchSourceToFile, type FetchedSource } from '../fetch/fetch-source';
import type { SniffedType } from '../fetch/sniff';
import { inputOf } from '../job-inputs/job-input-fields';
import type { AnimatedArJobInput } from '../job-inputs/animated-ar-job-input';
import { freshJobTempDir, removeJobTempDir, sweepStaleJobDirs } from './job-temp';

/**
 * The downloaded source: an image in memory (`bytes`), or a video streamed to `file` in the job's temp
 * folder (see job-temp.ts: removed by the `frames` stage, which reads it).
 */
export type AnimatedSource = FetchedSource | { file: string; size: number; type: SniffedType; url: string; bytes?: undefined };

/**
 * Downloads the animated AR source under the v2 rules (docs/api.md, v2 Animated AR): https only, no redirects, the real type
 * sniffed from the bytes; an image_url must be a picture, a video_url an mp4 / mov / webm of at most
 * VIDEO_MAX_BYTES (enforced while streaming). A video goes to a file in the job's temp folder as it
 * streams, never whole in memory. Creating the stage sweeps job folders a crash left behind. A job that
 * asks for remove_background calls `warmCutOut` first (see BackgroundRemoverPort.warm).
 */
export function createAnimatedSourceStage(
  config: AppConfig,
  download: { toFile?: typeof fetchSourceToFile } = {},
  warmCutOut?: () => void,
): StageProvider<AnimatedSource> {
  const toFile = download.toFile ?? fetchSourceToFile;
  void sweepStaleJobDirs();
  return {
    id: 'animated-source',
    async run(ctx) {
      const input = inputOf<AnimatedArJobInput>(ctx.job);
      const video = typeof input.video_url === 'string';
      const url = video ? input.video_url : input.image_url;
      if (typeof url !== 'string') throw new UserError('missing_source', 'animated-source: the job has neither image_url nor video_url');
      // The cut-out's model session (2-4 s on two cores the first time) is made while the source downloads and decodes.
      if (input.remove_background) warmCutOut?.();
      ctx.progress(0.05);
      const rules = {
        maxBytes: video ? config.animated.videoMaxBytes : config.fetch.maxBytes,
        timeoutMs: video ? Math.max(config.fetch.timeoutMs, config.animated.videoTimeoutMs) : config.fetch.timeoutMs,
        connectTimeoutMs: config.fetch.connectTimeoutMs,
        strict: true,
        allowPrivateNetworks: config.allowPrivateNetworks,
        accept: video ? (['video'] as const) : (['image'] as const),
        signal: ctx.signal,
      };
      if (!video) {
        const out = await fetchSource(url, rules);
        ctx.progress(1);
        return out;
      }
      const dir = await freshJobTempDir(ctx.job.id);
      try {
        const out = await toFile(url, join(dir, 'source'), rules);
        ctx.progress(1);
        return out;
      } catch (e) {
        await removeJobTempDir(ctx.job.id);
        throw e;
      }
    },
  };
}
