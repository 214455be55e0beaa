import type { StageContext } from '@app/pipeline';

/**
 * A stage context for calling one stage directly in a spec: a v2 animated AR job by default, silent
 * log, in-memory checkpoints, a fresh signal. Override what the test is about.
 */
export function fakeStageContext(
  over: {
    job?: Partial<StageContext['job']>;
    outputs?: Record<string, unknown>;
    status?: StageContext['status'];
    signal?: AbortSignal;
  } = {},
): StageContext {
  const saved = new Map<string, unknown>();
  return {
    job: { id: 'job-1', kind: 'v2.animated-ar', ownerId: null, input: {}, attempt: 1, ...over.job },
    outputs: over.outputs ?? {},
    options: {},
    progress: () => undefined,
    signal: over.signal ?? new AbortController().signal,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    status: over.status ?? 'converting',
    checkpoints: { get: <T>(k: string) => saved.get(k) as T | undefined, set: async (k, v) => void saved.set(k, v) },
    io: (work) => work(),
  };
}
