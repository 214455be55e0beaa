import sharp from 'sharp';
import type { StoragePort } from '@app/storage';

/** Widths of the page thumbnails made from a poster, in AVIF and WebP. */
// 720: a phone's column at 2x without sending it the 960 laptops need.
export const THUMB_WIDTHS = [480, 720, 960] as const;

export type ThumbFormat = 'avif' | 'webp' | 'jpeg';

export interface ThumbSpec {
  width: number;
  format: ThumbFormat;
}

/**
 * The images made from a poster, by file name: AVIF and WebP for the pages' `<picture>` sources, and a
 * JPEG for link previews (chat apps and social sites read JPEG everywhere; 1200 px wide is what they show large).
 */
export const THUMB_FILES: Readonly<Record<string, ThumbSpec>> = Object.freeze({
  ...Object.fromEntries(THUMB_WIDTHS.map((w) => [`${w}.avif`, { width: w, format: 'avif' as const }])),
  ...Object.fromEntries(THUMB_WIDTHS.map((w) => [`${w}.webp`, { width: w, format: 'webp' as const }])),
  '1200.jpg': { width: 1200, format: 'jpeg' },
});

/** The JPEG a shared link shows. */
export const SHARE_FILE = '1200.jpg';

export const THUMB_CONTENT_TYPES: Readonly<Record<ThumbFormat, string>> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** Where a job's thumbnail lives: next to its poster, so deleting the job's files deletes it too. */
export const thumbKey = (jobId: string, file: string): string => `models/${jobId}/thumb-${file}`;

/** A thumbnail's height: exactly the object's shape at that width, so width/height attributes and og:image sizes are true. */
export const thumbHeight = (width: number, w: number, h: number): number => Math.max(1, Math.round((width * h) / w));

/**
 * One thumbnail of a poster: exactly `spec.width` x the object's shape (`outer`, inches; a pixel of rounding
 * cropped), so the sizes the pages state are the real ones. A poster smaller than that is enlarged here
 * rather than by every browser.
 *
 * @example
 * const webp = await renderThumbnail(posterPng, THUMB_FILES['480.webp'], { w: 24, h: 36 }); // 480 x 720
 */
export async function renderThumbnail(poster: Buffer, spec: ThumbSpec, outer: { w: number; h: number }): Promise<Buffer> {
  // Our own poster (at most 1024 px), but still bounded: it is read back from storage.
  const img = sharp(poster, { limitInputPixels: 16_000_000 }).resize({ width: spec.width, height: thumbHeight(spec.width, outer.w, outer.h), fit: 'cover' });
  switch (spec.format) {
    // Effort 0: a 960 px AVIF in about 90 ms instead of 300-700 ms at effort 2-3, for files within 5 %
    // of their size (measured on the fixtures); still about a quarter smaller than the WebP.
    case 'avif': return img.avif({ quality: 55, effort: 0 }).toBuffer();
    case 'webp': return img.webp({ quality: 78, effort: 4 }).toBuffer();
    case 'jpeg': return img.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
  }
}

/**
 * Renders thumbnail `file` (a {@link THUMB_FILES} name) of a job's poster and stores it next to the poster;
 * returns its key. The conversion's thumbnails stage makes every file this way, the pages one that is missing.
 */
export async function storeThumbnail(storage: StoragePort, jobId: string, poster: Buffer, file: string, outer: { w: number; h: number }): Promise<string> {
  const spec = THUMB_FILES[file];
  if (!spec) throw new Error(`thumbnails: no ${file}`);
  const key = thumbKey(jobId, file);
  await storage.put(key, await renderThumbnail(poster, spec, outer), THUMB_CONTENT_TYPES[spec.format]);
  return key;
}
