import type { PipelineDefinition, PipelineStep } from '@image-ar/plugin-sdk';

/** Pipelines as data: the contract is `@image-ar/plugin-sdk`'s (plugins register definitions too). */
export type { PipelineDefinition, PipelineStep } from '@image-ar/plugin-sdk';

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
