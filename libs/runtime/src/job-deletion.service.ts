import type { DataDeletionRepository, DeletableJob, DeletionReason } from '@app/persistence';
import { THUMB_FILES, thumbKey, VISITOR_WALL_FILES } from '@app/plugins';
import type { StoragePort } from '@app/storage';

/** Collects every string in a JSON value (results, inputs and checkpoints name stored keys in various places). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * The storage keys a job may have written. Keys are recorded, not listed (StoragePort has no listing, and a
 * custom backend need not offer one): the model files under `models/<id>/` (named in result.files), the
 * showcase upload it was made from (input.upload_key), and what the motion stage kept under `motion/<id>/`
 * (the still for URL-only providers, the provider's video, named in checkpoints or the result). The fixed
 * names are added too, so a job that failed after writing but before recording them leaves nothing behind.
 */
export function jobStorageKeys(job: Pick<DeletableJob, 'id' | 'input' | 'result' | 'checkpoints'>): string[] {
  const own = (k: string) => k.startsWith(`models/${job.id}/`) || k.startsWith(`motion/${job.id}/`);
  const keys = new Set<string>([
    ...strings(job.result).filter(own),
    ...strings(job.checkpoints).filter(own),
    ...['model.glb', 'model.usdz', 'poster.png', 'poster.jpg', 'poster.webp'].map((f) => `models/${job.id}/${f}`),
    // The showcase pages' thumbnails: made by the thumbnails stage, or on first request by the page.
    ...Object.keys(THUMB_FILES).map((f) => thumbKey(job.id, f)),
    ...['source.png', 'source.jpg'].map((f) => `motion/${job.id}/${f}`),
  ]);
  const upload = job.input.upload_key;
  if (typeof upload === 'string' && upload.startsWith('uploads/')) keys.add(upload);
  return [...keys];
}

/** The thumbnails a showcase page may still write for a job after its files were deleted (made on request). */
const lateKeys = (jobId: string) => Object.keys(THUMB_FILES).map((f) => thumbKey(jobId, f));

/**
 * Deletes jobs with their stored files: files first, then the rows (with a tombstone), so a failure part way
 * leaves a row to retry from, never files no row names. A file that cannot be deleted keeps its job's row.
 * Once the rows are gone the thumbnails are deleted again: a showcase page making one on request may have
 * written it after the first pass (it checks the row after writing, so only a write that landed before the
 * rows went can be left, and this pass comes after). `/files` answers 410 for a deleted job's keys anyway.
 */
export class JobDeletion {
  constructor(
    private readonly repo: DataDeletionRepository,
    private readonly storage: StoragePort,
  ) {}

  /** Deletes the stored files of these jobs; returns the jobs whose files are all gone. */
  async deleteFiles(jobs: readonly DeletableJob[]): Promise<DeletableJob[]> {
    const done: DeletableJob[] = [];
    for (const job of jobs) {
      const results = await Promise.allSettled(jobStorageKeys(job).map((k) => this.storage.delete(k)));
      if (results.every((r) => r.status === 'fulfilled')) done.push(job);
    }
    return done;
  }

  /** Deletes finished jobs (files, then rows); returns the ids deleted. */
  async deleteFinished(jobs: readonly DeletableJob[], reason: DeletionReason): Promise<string[]> {
    const cleared = await this.deleteFiles(jobs.filter((j) => j.status === 'completed' || j.status === 'failed'));
    const deleted = await this.repo.deleteFinishedJobs(
      cleared.map((j) => j.id),
      reason,
    );
    await this.deleteLateFiles(deleted);
    return deleted;
  }

  /** The second pass over files that may be written after the first (best effort: `/files` refuses them anyway). */
  private async deleteLateFiles(jobIds: readonly string[]): Promise<void> {
    await Promise.allSettled(jobIds.flatMap(lateKeys).map((k) => this.storage.delete(k)));
  }

  /**
   * One retention pass: batches of finished jobs that finished before `before`, until none is left or a
   * batch deletes nothing (only jobs whose files cannot be deleted now are left; the next sweep tries again).
   */
  async purgeExpired(before: Date, batchSize: number): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.repo.expiredJobs(before, batchSize);
      if (!batch.length) return total;
      const deleted = await this.deleteFinished(batch, 'retention');
      total += deleted.length;
      if (!deleted.length) return total;
    }
  }

  /**
   * Deletes the files of visitors' walls (built on request, no job: `walls/visitor/…`) of a showcase, of those
   * that show one of its items, or of a user's showcases, then forgets them. Throws when a file cannot be
   * deleted (the walls stay recorded, so a repeat finds them again).
   */
  async deleteVisitorWalls(scope: { showcaseId: number; itemId?: number } | { ownerId: string }): Promise<number> {
    return this.deleteVisitorWallBases(await this.repo.visitorWalls(scope));
  }

  /**
   * Deletes the files of the visitors' walls under these bases, then forgets them (the byte cap's eviction, the
   * age limit). Throws when a file cannot be deleted: those walls stay recorded, so a repeat finds them again.
   */
  async deleteVisitorWallBases(bases: readonly string[]): Promise<number> {
    for (const base of bases) {
      await Promise.all(VISITOR_WALL_FILES.map((f) => this.storage.delete(`${base}/${f}`)));
    }
    await this.repo.forgetVisitorWalls(bases);
    return bases.length;
  }

  /**
   * The age limit of visitors' walls (WALL_VISITOR_MAX_AGE_DAYS): deletes, in batches, those not served since
   * `before`, with their files. Returns how many went.
   */
  async purgeIdleVisitorWalls(before: Date, batchSize: number): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.repo.expiredVisitorWalls(before, batchSize);
      if (!batch.length) return total;
      total += await this.deleteVisitorWallBases(batch);
    }
  }

  /**
   * Deletes a user's files (every job's, in batches) and then the user with all their rows; the ledger is
   * kept, anonymised. False when there is no such user. Throws when a file cannot be deleted (nothing of
   * the user's rows is gone then, so the operator can run it again).
   */
  async deleteUser(userId: string, batchSize = 200): Promise<boolean> {
    await this.deleteVisitorWalls({ ownerId: userId });
    const seen = new Set<string>();
    for (;;) {
      // Rows stay until the end: page by skipping the jobs already cleared.
      const batch = (await this.repo.jobsOfOwner(userId, seen.size + batchSize)).filter((j) => !seen.has(j.id));
      if (!batch.length) break;
      const cleared = await this.deleteFiles(batch);
      if (cleared.length < batch.length)
        throw new Error(`could not delete the stored files of ${batch.length - cleared.length} job(s) of user ${userId}`);
      for (const j of batch) seen.add(j.id);
    }
    const deleted = await this.repo.deleteUser(userId);
    if (deleted) await this.deleteLateFiles([...seen]);
    return deleted;
  }
}
