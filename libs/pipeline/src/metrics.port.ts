import type { DependencyContainer } from 'tsyringe';

/** How a job ended, as counted: a cancelled job is a failed one whose error code is `cancelled`. */
export type JobOutcome = 'completed' | 'failed' | 'cancelled';

/**
 * What the kernel and plugins report for operators (docs/operations.md). The host implements it over
 * its metrics library; the pipeline and plugins only see this port, so they stay free of one.
 * Labels are low-cardinality by contract: kinds, stage ids, provider ids, outcomes — never user ids,
 * emails, keys or URLs.
 */
export interface MetricsPort {
  jobFinished(kind: string, outcome: JobOutcome): void;
  stageFinished(stage: string, seconds: number): void;
  callbackDelivery(outcome: 'delivered' | 'failed'): void;
  /** Ledger cents charged (the adapter reports credits: 100 cents = 1 credit). */
  creditsCharged(cents: number): void;
  creditsRefunded(cents: number): void;
  /** One request to a motion provider (start or poll); outcome e.g. `ok`, `rate_limited`, `failed`. */
  motionProviderRequest(provider: string, outcome: string): void;
  backgroundRemovalFrame(seconds: number): void;
}

/** Records nothing: the default where no host registered a {@link MetricsPort} (unit tests, plugins' own tests). */
export const NOOP_METRICS: MetricsPort = {
  jobFinished: () => undefined,
  stageFinished: () => undefined,
  callbackDelivery: () => undefined,
  creditsCharged: () => undefined,
  creditsRefunded: () => undefined,
  motionProviderRequest: () => undefined,
  backgroundRemovalFrame: () => undefined,
};

/** DI token of the host's {@link MetricsPort}. */
export const METRICS = 'pipeline.metrics';

/** The host's metrics, or {@link NOOP_METRICS} when it registered none. */
export function resolveMetrics(container: DependencyContainer): MetricsPort {
  return container.isRegistered(METRICS, true) ? container.resolve<MetricsPort>(METRICS) : NOOP_METRICS;
}
