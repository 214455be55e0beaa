import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { StillImageResult } from '../publish/publish.stage';
import type { RawPixels } from '../normalise/normalise-image';
import type { SceneOutput } from '../scene-builder/scene.stage';
import { makesThumbnails, putThumbnail, renderThumbnail, renderThumbnails, THUMB_FILES } from './thumbnail-files';

/** What the thumbnails stage made: storage keys by file name (empty when it could not make them). */
export interface ThumbnailsOutput {
  thumbnails: Record<string, string>;
}

/**
 * Makes the showcase pages' thumbnails (every {@link THUMB_FILES} entry: AVIF + WebP by width, the
 * sharing JPEG) from the framed poster, at the object's outer size; none for a poster narrower than
 * {@link MIN_THUMBNAIL_POSTER_PX} ({@link makesThumbnails}: the pages show that poster itself). Options: `scene`,
 * the step whose poster is made into thumbnails (default `scene`), and `from`, a publish step's id (default
 * `publish`).
 *
 * In the showcase-picture pipeline it runs before publish, from the pixels the scene step kept and the scene's
 * outer size: the job keeps the CPU slot it holds from the variants step (publish is an I/O stage, and a job
 * that went there first had to queue for a CPU slot again behind the next pictures: ~120 ms a picture, up to
 * 640 ms for a catalogue's first). A pipeline without those pixels runs it after publish, which reads the
 * stored poster back and takes the size from the publish result.
 *
 * Best effort: the pages make a missing thumbnail on its first request, so a failure here is logged and the
 * job still completes.
 */
export function createThumbnailsStage(storage: StoragePort): StageProvider<ThumbnailsOutput, { from?: string; scene?: string }> {
  return {
    id: 'thumbnails',
    // Its time goes to encoding, whatever phase a pipeline gives it.
    resource: 'cpu',
    async run(ctx) {
      const published = ctx.outputs[ctx.options.from ?? 'publish'] as Partial<StillImageResult> | undefined;
      const scene = ctx.outputs[ctx.options.scene ?? 'scene'] as Partial<Pick<SceneOutput, 'outer_dimensions' | 'dimensions'>> | undefined;
      // The pixels the poster is encoded from (the scene step's framed poster), still in memory: no decode,
      // and one resize per width. Without them, the poster publish stored is read back.
      const pixels = posterPixelsOf(scene);
      const posterKey = published?.files?.poster?.key;
      const outer = (published?.outer_dimensions ?? published?.dimensions ?? scene?.outer_dimensions ?? scene?.dimensions) as
        { width_inches?: number; height_inches?: number } | undefined;
      if ((!pixels && !posterKey) || !outer?.width_inches || !outer.height_inches) {
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
        const poster = pixels ? undefined : await buffer(await storage.read(posterKey!));
        const posterWidth = published?.poster_px?.width ?? pixels?.width ?? (await sharp(poster!).metadata()).width;
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
