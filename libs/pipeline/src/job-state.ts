/** v2 job states, in order. */
export const JOB_STATES = ['queued', 'downloading', 'converting', 'uploading', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATES)[number];

/** The phase a running stage puts the job in. */
export type StagePhase = 'downloading' | 'converting' | 'uploading';

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

