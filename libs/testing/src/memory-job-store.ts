import type { JobPatch, JobStorePort, RunnableJob } from '@app/pipeline';

/** The runner's job store in memory, for unit tests: records every patch; final jobs refuse updates. */
export class MemoryJobStore implements JobStorePort {
  jobs = new Map<string, RunnableJob & Record<string, unknown>>();
  history: { id: string; patch: JobPatch }[] = [];
  add(job: Partial<RunnableJob> & { id: string; pipeline: string }): void {
    this.jobs.set(job.id, { kind: 'test', status: 'queued', ownerId: null, input: {}, attempts: 0, ...job });
  }
  async findRunnable(id: string) {
    const j = this.jobs.get(id);
    return j ? { ...j } : null;
  }
  async update(id: string, patch: JobPatch) {
    const j = this.jobs.get(id)!;
    if (j.status === 'completed' || j.status === 'failed') return false;
    this.history.push({ id, patch });
    Object.assign(j, patch);
    return true;
  }
  async saveCheckpoint(id: string, key: string, value: unknown) {
    const j = this.jobs.get(id)!;
    const cp = { ...(j.checkpoints ?? {}) };
    if (value === null) delete cp[key];
    else cp[key] = value;
    j.checkpoints = cp;
  }
  async isCancelRequested(id: string) {
    return this.jobs.get(id)?.cancelRequested === true;
  }
  statuses(id: string) {
    return this.history.filter((h) => h.id === id && h.patch.status).map((h) => h.patch.status);
  }
}
