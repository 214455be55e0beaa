/** DI token of a stage provider. */
export function stageToken(id: string): string {
  return `pipeline.stage:${id}`;
}

/** Multi-registration token for pipeline definitions. */
export const PIPELINE_DEFINITION = 'pipeline.definition';

/** Multi-registration token for job lifecycle listeners (callbacks, refunds...). */
export const JOB_LISTENER = 'pipeline.job-listener';
