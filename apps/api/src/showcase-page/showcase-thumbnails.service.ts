import { buffer } from 'node:stream/consumers';
import { Inject, Injectable } from '@nestjs/common';
import { storeThumbnail, THUMB_FILES, thumbKey } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';

/**
 * The showcase posters' thumbnails (THUMB_FILES). The conversion makes them (the showcase-picture
 * pipeline's thumbnails stage); this makes one that is missing on its first request and keeps it: pictures
 * converted before that stage existed, a stage that failed (it is best effort), or an operator's pipeline
 * without it. Concurrent first requests share one encode.
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
    if (!THUMB_FILES[file]) throw new Error(`thumbnails: no ${file}`);
    const key = thumbKey(jobId, file);
    if (await this.storage.stat(key)) return key;
    let p = this.making.get(key);
    if (!p) {
      p = this.make(jobId, posterKey, file, shape).finally(() => this.making.delete(key));
      this.making.set(key, p);
    }
    await p;
    return key;
  }

  private async make(jobId: string, posterKey: string, file: string, shape: { w: number; h: number }): Promise<void> {
    await storeThumbnail(this.storage, jobId, await buffer(await this.storage.read(posterKey)), file, shape);
  }
}
