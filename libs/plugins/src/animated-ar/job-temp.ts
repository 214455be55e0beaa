import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Per-job temporary folders of the animated AR pipeline, for a source video streamed to disk by the
 * `animated-source` stage and read by ffprobe / ffmpeg in the `frames` stage.
 *
 * Lifetime: the folder is `<os.tmpdir()>/ar-job-<job id>`, a name known from the job alone, so
 * - `animated-source` empties it before downloading (a leftover of an earlier attempt) and removes it when
 *   the download fails or is cancelled;
 * - `frames`, the stage that consumes the file, removes it when it ends, decoded or not;
 * - what a crash, or a job failed or cancelled between the two stages, leaves behind is swept when a worker
 *   starts: {@link sweepStaleJobDirs} removes folders untouched for {@link STALE_JOB_DIR_MS}.
 */
export const JOB_DIR_PREFIX = 'ar-job-';

/** Age after which a job folder is a leftover (longer than any stage may run). */
export const STALE_JOB_DIR_MS = 6 * 60 * 60 * 1000;

/** The job's temp folder (not created). */
export function jobTempDir(jobId: string, root = tmpdir()): string {
  return join(root, JOB_DIR_PREFIX + jobId.replace(/[^A-Za-z0-9_-]/g, '_'));
}

/** Creates the job's temp folder, empty (what an earlier attempt left is removed). */
export async function freshJobTempDir(jobId: string, root = tmpdir()): Promise<string> {
  const dir = jobTempDir(jobId, root);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Removes the job's temp folder, if any. */
export async function removeJobTempDir(jobId: string, root = tmpdir()): Promise<void> {
  await rm(jobTempDir(jobId, root), { recursive: true, force: true });
}

/** Removes job folders not modified for `maxAgeMs`; returns how many. Errors are ignored (best effort). */
export async function sweepStaleJobDirs(maxAgeMs = STALE_JOB_DIR_MS, root = tmpdir(), now = Date.now()): Promise<number> {
  let removed = 0;
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(JOB_DIR_PREFIX)) continue;
    const dir = join(root, name);
    try {
      const st = await stat(dir);
      if (!st.isDirectory() || now - st.mtimeMs < maxAgeMs) continue;
      await rm(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}
