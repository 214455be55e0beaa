import { Gauge, type Registry } from 'prom-client';

/**
 * The autoscaling signal (docs/deployment.md, Kubernetes): how many jobs wait for a worker. Named in the
 * KEDA ScaledObject of deploy/kubernetes/overlays/scaled; test/kubernetes.spec.ts checks they agree.
 */
export const BACKLOG_METRIC = 'queue_backlog_jobs';

/**
 * Registers {@link BACKLOG_METRIC}: the jobs stored as `queued` in the database, read on each scrape. That is
 * every job no worker has started yet, wherever it waits: in Bull's wait list; put back as delayed because
 * its account already holds its `ACCOUNT_MAX_RUNNING_JOBS` share of a worker, or for a retry's backoff; taken
 * by a worker but waiting for its first CPU or I/O slot (the runner leaves a job `queued` until then); handed
 * back by a worker that shut down; or only in the database (stored while Redis was away, until a sweep
 * queues it). Callback deliveries count too: a worker sends them. The number comes from the database, so
 * every process reports the same one (aggregate with `max`).
 *
 * `count` resolves `undefined` when the database did not answer in time: the gauge is then NaN ("unknown",
 * not "nothing waits"), which a query such as `max(queue_backlog_jobs >= 0)` drops.
 */
export function registerBacklogGauge(registry: Registry, count: () => Promise<number | undefined>): Gauge {
  return new Gauge({
    name: BACKLOG_METRIC,
    help: 'Jobs waiting for a worker: stored as queued and not started (Bull wait list, held back by fair share or a retry backoff, waiting for a first slot, or not yet in Redis)',
    registers: [registry],
    async collect() {
      const n = await count();
      this.set(n === undefined ? NaN : n);
    },
  });
}
