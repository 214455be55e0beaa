import sharp, { type Sharp } from 'sharp';
import type { StoragePort } from '@app/storage';
import { type RawPixels, sharpOfPixels } from '../normalise/normalise-image';

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

/**
 * The narrowest poster (px) that gets thumbnails. A narrower one is shown as it is: enlarging it 2-50 times
 * into the 480-1200 px files adds no detail (the browser enlarges the poster just as well), and their encodes
 * were most of a small picture's conversion (a 24 px picture: 0.55 CPU-s of its 0.6). Every picture the
 * pages show at a card's size or more (300 px and up) keeps every file.
 */
export const MIN_THUMBNAIL_POSTER_PX = 240;

/**
 * Whether a poster `posterWidth` px wide gets the {@link THUMB_FILES} (made at conversion, listed by the
 * pages). Unknown width (a result written before it was recorded): yes, as it always did.
 *
 * @example
 * makesThumbnails(1024) // true
 * makesThumbnails(24)   // false: the pages show the poster
 */
export const makesThumbnails = (posterWidth: number | undefined): boolean =>
  posterWidth === undefined || posterWidth >= MIN_THUMBNAIL_POSTER_PX;

/** Where a job's thumbnail lives: next to its poster, so deleting the job's files deletes it too. */
export const thumbKey = (jobId: string, file: string): string => `models/${jobId}/thumb-${file}`;

/** A thumbnail's height: exactly the object's shape at that width, so width/height attributes and og:image sizes are true. */
export const thumbHeight = (width: number, w: number, h: number): number => Math.max(1, Math.round((width * h) / w));

/**
 * One thumbnail of a poster: exactly `spec.width` x the object's shape (`outer`, inches; a pixel of rounding
 * cropped), so the sizes the pages state are the real ones. A poster smaller than that is enlarged here
 * rather than by every browser. `poster`: the stored poster file, or (during the conversion) the pixels
 * it was encoded from, which saves decoding it once per thumbnail.
 *
 * @example
 * const webp = await renderThumbnail(posterPng, THUMB_FILES['480.webp'], { w: 24, h: 36 }); // 480 x 720
 */
export async function renderThumbnail(poster: Buffer | RawPixels, spec: ThumbSpec, outer: { w: number; h: number }): Promise<Buffer> {
  return encodeThumbnail(resized(poster, spec.width, outer), spec.format);
}

/**
 * Every thumbnail in `files` (default all of {@link THUMB_FILES}) of a poster's pixels, side by side: each
 * width is resized once and its formats are encoded from those pixels (AVIF and WebP share one resize).
 * `each` gets every file as soon as it is encoded (to store it) and its results are returned in `files` order.
 *
 * @example
 * const keys = await renderThumbnails(poster.pixels, { w: 24, h: 36 }, (file, body) => putThumbnail(storage, jobId, file, body));
 */
export async function renderThumbnails<T>(
  pixels: RawPixels,
  outer: { w: number; h: number },
  each: (file: string, body: Buffer) => Promise<T>,
  files: readonly string[] = Object.keys(THUMB_FILES),
): Promise<T[]> {
  const byWidth = new Map<number, string[]>();
  for (const file of files) {
    const spec = THUMB_FILES[file];
    if (!spec) throw new Error(`thumbnails: no ${file}`);
    byWidth.set(spec.width, [...(byWidth.get(spec.width) ?? []), file]);
  }
  const results = new Map<string, T>();
  // Widest first: libuv runs a few encodes at a time, in the order asked, and the 1200 px mozjpeg JPEG
  // alone takes about a third of the stage's CPU; started last, it would finish alone after the others.
  const widest = [...byWidth].sort(([a], [b]) => b - a);
  await Promise.all(
    widest.map(async ([width, group]) => {
      let src: () => Sharp;
      if (group.length === 1) {
        src = () => resized(pixels, width, outer);
      } else {
        const { data, info } = await resized(pixels, width, outer).raw().toBuffer({ resolveWithObject: true });
        src = () => sharpOfPixels({ data, width: info.width, height: info.height, channels: pixels.channels });
      }
      await Promise.all(
        group.map(async (file) => results.set(file, await each(file, await encodeThumbnail(src(), THUMB_FILES[file]!.format)))),
      );
    }),
  );
  return files.map((f) => results.get(f)!);
}

/** The poster (a file, bounded: it is read back from storage; or pixels) at a thumbnail's exact size. */
function resized(poster: Buffer | RawPixels, width: number, outer: { w: number; h: number }): Sharp {
  const src = Buffer.isBuffer(poster) ? sharp(poster, { limitInputPixels: 16_000_000 }) : sharpOfPixels(poster);
  return src.resize({ width, height: thumbHeight(width, outer.w, outer.h), fit: 'cover' });
}

function encodeThumbnail(img: Sharp, format: ThumbFormat): Promise<Buffer> {
  switch (format) {
    // Effort 0: a 960 px AVIF in about 90 ms instead of 300-700 ms at effort 2-3, for files within 5 %
    // of their size (measured on the fixtures); still about a quarter smaller than the WebP.
    case 'avif':
      return img.avif({ quality: 55, effort: 0 }).toBuffer();
    case 'webp':
      return img.webp({ quality: 78, effort: 4 }).toBuffer();
    case 'jpeg':
      return img.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
  }
}

/** Stores thumbnail `file` of a job next to its poster; returns its key. */
export async function putThumbnail(storage: StoragePort, jobId: string, file: string, body: Buffer): Promise<string> {
  const spec = THUMB_FILES[file];
  if (!spec) throw new Error(`thumbnails: no ${file}`);
  const key = thumbKey(jobId, file);
  await storage.put(key, body, THUMB_CONTENT_TYPES[spec.format]);
  return key;
}

/**
 * Renders thumbnail `file` (a {@link THUMB_FILES} name) of a job's poster and stores it next to the poster;
 * returns its key. The pages make a missing one this way; the conversion's thumbnails stage makes them all
 * at once from the poster's pixels ({@link renderThumbnails}), or this way when it has only the file.
 */
export async function storeThumbnail(
  storage: StoragePort,
  jobId: string,
  poster: Buffer | RawPixels,
  file: string,
  outer: { w: number; h: number },
): Promise<string> {
  const spec = THUMB_FILES[file];
  if (!spec) throw new Error(`thumbnails: no ${file}`);
  return putThumbnail(storage, jobId, file, await renderThumbnail(poster, spec, outer));
}
