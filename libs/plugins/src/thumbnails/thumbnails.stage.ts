import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { StillImageResult } from '../publish/publish.stage';
import type { RawPixels } from '../normalise/normalise-image';
import { makesThumbnails, putThumbnail, renderThumbnail, renderThumbnails, THUMB_FILES } from './thumbnail-files';

/** What the thumbnails stage made: storage keys by file name (empty when it could not make them). */
export interface ThumbnailsOutput {
  thumbnails: Record<string, string>;
}

/**
 * Makes the showcase pages' thumbnails (every {@link THUMB_FILES} entry: AVIF + WebP by width, the
 * sharing JPEG) from the poster a publish step stored, at the object's outer size; none for a poster
 * narrower than {@link MIN_THUMBNAIL_POSTER_PX} ({@link makesThumbnails}: the pages show that poster itself). Options: `from`, the
 * publish step's id (default `publish`); `scene`, the step whose poster was published (default `scene`):
 * its pixels are used when it still has them, else the stored poster is read back and decoded.
 *
 * Best effort: the model is already stored, and the pages make a missing thumbnail on its first request,
 * so a failure here is logged and the job still completes.
 */
export function createThumbnailsStage(storage: StoragePort): StageProvider<ThumbnailsOutput, { from?: string; scene?: string }> {
  return {
    id: 'thumbnails',
    // Runs in the uploading phase (the files are published), but its time goes to encoding.
    resource: 'cpu',
    async run(ctx) {
      const published = ctx.outputs[ctx.options.from ?? 'publish'] as Partial<StillImageResult> | undefined;
      const posterKey = published?.files?.poster?.key;
      const outer = (published?.outer_dimensions ?? published?.dimensions) as { width_inches?: number; height_inches?: number } | undefined;
      if (!posterKey || !outer?.width_inches || !outer.height_inches) {
        ctx.log.warn('thumbnails: no poster in the published result; the pages will make them on request', { jobId: ctx.job.id });
        return { thumbnails: {} };
      }
      const shape = { w: outer.width_inches, h: outer.height_inches };
      try {
        const files = Object.keys(THUMB_FILES);
        let done = 0;
        const stored = async (file: string, body: Buffer) => {
          ctx.signal.throwIfAborted();
          const key = await putThumbnail(storage, ctx.job.id, file, body);
          ctx.progress(++done / files.length);
          return [file, key] as const;
        };
        // The pixels the published poster was encoded from (the scene step's framed poster), still in
        // memory: no decode, and one resize per width. A pipeline without them reads the stored poster back.
        const pixels = posterPixelsOf(ctx.outputs[ctx.options.scene ?? 'scene']);
        const poster = pixels ? undefined : await buffer(await storage.read(posterKey));
        const posterWidth = published.poster_px?.width ?? pixels?.width ?? (await sharp(poster!).metadata()).width;
        // A poster too small to enlarge into thumbnails is what the pages show (they read the same width).
        if (!makesThumbnails(posterWidth)) return { thumbnails: {} };
        // Side by side: libvips spreads the encodes over its threads while the writes wait on the disk.
        const made = pixels
          ? await renderThumbnails(pixels, shape, stored, files)
          : await Promise.all(files.map(async (file) => stored(file, await renderThumbnail(poster!, THUMB_FILES[file]!, shape))));
        return { thumbnails: Object.fromEntries(made) };
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        ctx.log.warn('thumbnails: could not make them; the pages will make them on request', {
          jobId: ctx.job.id,
          error: (e as Error).message,
        });
        return { thumbnails: {} };
      }
    },
  };
}

/** The published poster's pixels from the scene step's output, when it kept them. */
function posterPixelsOf(scene: unknown): RawPixels | undefined {
  const poster = (scene as { poster?: { width?: number; height?: number; pixels?: RawPixels } } | undefined)?.poster;
  const p = poster?.pixels;
  return p && p.width === poster.width && p.height === poster.height ? p : undefined;
}
