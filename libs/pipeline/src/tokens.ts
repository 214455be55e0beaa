import type { StageToken, TOKENS } from '@image-ar/plugin-sdk';

// The tokens are part of the plugin contract: typed by `@image-ar/plugin-sdk`'s TOKENS, so they cannot drift.

/** DI token of a stage provider. */
export function stageToken(id: string): StageToken {
  return `pipeline.stage:${id}`;
}

/** Multi-registration token for pipeline definitions. */
export const PIPELINE_DEFINITION: typeof TOKENS.pipelineDefinition = 'pipeline.definition';

/** Multi-registration token for job lifecycle listeners (callbacks, refunds...). */
export const JOB_LISTENER: typeof TOKENS.jobListener = 'pipeline.job-listener';
