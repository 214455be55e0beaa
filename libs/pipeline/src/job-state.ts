import type { JobStatus } from '@image-ar/plugin-sdk';

/** `JobStatus` and `StagePhase` are part of the plugin contract (`@image-ar/plugin-sdk`). */
export type { JobStatus, StagePhase } from '@image-ar/plugin-sdk';

/** v2 job states, in order: every `JobStatus` exactly once (checked below). */
export const JOB_STATES = [
  'queued',
  'downloading',
  'converting',
  'uploading',
  'completed',
  'failed',
] as const satisfies readonly JobStatus[];
type _EveryStateListed<T extends (typeof JOB_STATES)[number]> = T;
type _Check = _EveryStateListed<JobStatus>;

/** v1 view of a job. */
export type V1Status = 'queued' | 'processing' | 'completed' | 'failed';

export function isFinal(status: JobStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** Maps a v2 state onto the v1 view (queued, processing, completed, failed). */
export function toV1Status(status: JobStatus): V1Status {
  switch (status) {
    case 'queued':
    case 'completed':
    case 'failed':
      return status;
    default:
      return 'processing';
  }
}
