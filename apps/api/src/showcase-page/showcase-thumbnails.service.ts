import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { THUMB_FILES, thumbHeight } from './showcase-items';

/** Where an item's thumbnail lives: next to its poster, so deleting the job's files deletes it too. */
export const thumbKey = (jobId: string, file: string): string => `models/${jobId}/thumb-${file}`;

/**
 * Thumbnails of the showcase posters (THUMB_FILES), made on the first request and kept in storage. Made lazily
 * rather than in the conversion: the conversion's end-to-end time stays what it was, pictures converted
 * before thumbnails existed get them too, and only pictures somebody looks at cost the work (a 1024 px
 * poster to 480 / 960 px WebP takes tens of milliseconds). Concurrent first requests share one encode.
 */
@Injectable()
export class ShowcaseThumbnails {
  private readonly making = new Map<string, Promise<void>>();

  constructor(@Inject(STORAGE) private readonly storage: StoragePort) {}

  /**
   * The storage key of a thumbnail (`file`: a THUMB_FILES name), made from the poster if it is not there
   * yet. `shape`: the object's outer size in inches, which the poster shows.
   */
  async ensure(jobId: string, posterKey: string, file: string, shape: { w: number; h: number }): Promise<string> {
    const spec = THUMB_FILES[file];
    if (!spec) throw new Error(`thumbnails: no ${file}`);
    const key = thumbKey(jobId, file);
    if (await this.storage.stat(key)) return key;
    let p = this.making.get(key);
    if (!p) {
      p = this.make(posterKey, key, spec, thumbHeight(spec.width, shape.w, shape.h)).finally(() => this.making.delete(key));
      this.making.set(key, p);
    }
    await p;
    return key;
  }

  private async make(posterKey: string, key: string, spec: { width: number; format: 'webp' | 'jpeg' }, height: number): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of await this.storage.read(posterKey)) chunks.push(c as Buffer);
    // Our own poster (at most 1024 px), but still bounded: it is read back from storage.
    // Exactly width x height (a pixel of rounding cropped), so the sizes the pages state are the real ones;
    // a poster smaller than that is enlarged here rather than by every browser.
    const img = sharp(Buffer.concat(chunks), { limitInputPixels: 16_000_000 }).resize({ width: spec.width, height, fit: 'cover' });
    const out = spec.format === 'webp' ? await img.webp({ quality: 78, effort: 4 }).toBuffer() : await img.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    await this.storage.put(key, out, spec.format === 'webp' ? 'image/webp' : 'image/jpeg');
  }
}
