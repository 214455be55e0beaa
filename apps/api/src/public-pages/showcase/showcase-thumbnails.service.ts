import { buffer } from 'node:stream/consumers';
import { Inject, Injectable } from '@nestjs/common';
import { JobRepository } from '@app/persistence';
import { storeThumbnail, THUMB_FILES, thumbKey } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';

/**
 * The showcase posters' thumbnails (THUMB_FILES). The conversion makes them (the showcase-picture
 * pipeline's thumbnails stage); this makes one that is missing on its first request and keeps it: pictures
 * converted before that stage existed, a stage that failed (it is best effort), or an operator's pipeline
 * without it. Concurrent first requests share one encode.
 *
 * A picture may be deleted while its thumbnail is being made (the page read the item just before). Nothing
 * is kept for a deleted job: after writing, the job's row is read again and, when it is gone, the file is
 * removed and the caller gets null. A write that lands while the deletion is between its files and its
 * rows is removed by the deletion itself (JobDeletion deletes the thumbnails again once the rows are gone),
 * and `/files` answers 410 for every key of a deleted job whatever the storage still holds.
 */
@Injectable()
export class ShowcaseThumbnails {
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly jobs: JobRepository,
  ) {}

  /**
   * The storage key of a thumbnail (`file`: a THUMB_FILES name), made from the poster if it is not there
   * yet; null when the job has been deleted meanwhile. `shape`: the object's outer size in inches, which
   * the poster shows.
   */
  async ensure(jobId: string, posterKey: string, file: string, shape: { w: number; h: number }): Promise<string | null> {
    if (!THUMB_FILES[file]) throw new Error(`thumbnails: no ${file}`);
    const key = thumbKey(jobId, file);
    if (await this.storage.stat(key)) return key;
    let p = this.making.get(key);
    if (!p) {
      p = this.make(jobId, posterKey, file, shape).finally(() => this.making.delete(key));
      this.making.set(key, p);
    }
    try {
      await p;
    } catch (e) {
      // The poster went with its job: a deleted picture, not a failure.
      if (!(await this.jobs.find(jobId))) return null;
      throw e;
    }
    if (await this.jobs.find(jobId)) return key;
    await this.storage.delete(key);
    return null;
  }

  private async make(jobId: string, posterKey: string, file: string, shape: { w: number; h: number }): Promise<void> {
    await storeThumbnail(this.storage, jobId, await buffer(await this.storage.read(posterKey)), file, shape);
  }
}
