import type { StagePhase } from './job-state';

/** One step of a pipeline: which stage runs, in which phase, with which options. */
export interface PipelineStep {
  /** Step id under which the output is kept; defaults to the stage id. */
  readonly id?: string;
  /** Stage provider id. */
  readonly stage: string;
  /** v2 state the job is in while the step runs. */
  readonly phase: StagePhase;
  /** Relative share of the progress bar; default 1. */
  readonly weight?: number;
  /** Wall-clock limit of the step, ms; default the stage provider's `timeoutMs`, else the runner's. */
  readonly timeoutMs?: number;
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * A pipeline as data. The job's result is the output of the step named by `resultFrom`
 * (default: the last step).
 *
 * @example
 * ```ts
 * const still: PipelineDefinition = {
 *   id: 'still-image',
 *   steps: [
 *     { stage: 'fetch', phase: 'downloading' },
 *     { stage: 'normalise', phase: 'converting' },
 *     { stage: 'publish', phase: 'uploading' },
 *   ],
 * };
 * ```
 */
export interface PipelineDefinition {
  readonly id: string;
  readonly description?: string;
  readonly steps: readonly PipelineStep[];
  readonly resultFrom?: string;
}

export function stepId(step: PipelineStep): string {
  return step.id ?? step.stage;
}

/** Validates the shape of a definition; throws with a message naming the pipeline. */
export function validateDefinition(def: PipelineDefinition): void {
  if (!def.id || typeof def.id !== 'string') throw new Error('pipeline: a definition has no id');
  if (!Array.isArray(def.steps) || def.steps.length === 0) {
    throw new Error(`pipeline "${def.id}": has no steps`);
  }
  const seen = new Set<string>();
  const phases = ['downloading', 'converting', 'uploading'];
  let lastPhase = 0;
  for (const step of def.steps) {
    const sid = stepId(step);
    if (seen.has(sid)) throw new Error(`pipeline "${def.id}": duplicate step id "${sid}"`);
    seen.add(sid);
    const p = phases.indexOf(step.phase);
    if (p < 0) throw new Error(`pipeline "${def.id}": step "${sid}" has unknown phase "${String(step.phase)}"`);
    if (p < lastPhase) throw new Error(`pipeline "${def.id}": step "${sid}" goes back to phase "${step.phase}"`);
    lastPhase = p;
    if (step.weight !== undefined && !(step.weight > 0)) {
      throw new Error(`pipeline "${def.id}": step "${sid}" has a non-positive weight`);
    }
    if (step.timeoutMs !== undefined && !(step.timeoutMs > 0)) {
      throw new Error(`pipeline "${def.id}": step "${sid}" has a non-positive timeoutMs`);
    }
  }
  if (def.resultFrom && !seen.has(def.resultFrom)) {
    throw new Error(`pipeline "${def.id}": resultFrom names unknown step "${def.resultFrom}"`);
  }
}
