import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobOutcome, MetricsPort, SlotCounts } from '@app/pipeline';
import type { QueueCounts } from '@app/queue';
import { registerBacklogGauge } from './backlog-gauge';

/** Seconds buckets for HTTP requests: most answer in milliseconds, uploads take seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds buckets for stages: from a quick write to a hosted model's minutes. */
const STAGE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Seconds buckets for one background-removal inference. */
const FRAME_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

const QUEUE_STATES: readonly (keyof QueueCounts)[] = ['waiting', 'active', 'delayed', 'failed'];
const JOB_OUTCOMES: readonly JobOutcome[] = ['completed', 'failed', 'cancelled'];
const CALLBACK_OUTCOMES = ['delivered', 'failed'] as const;
/** The motion outcomes every provider can have; error codes start when they first happen. */
const MOTION_OUTCOMES = ['ok', 'failed'];

/** A gauge source that does not answer within 2 s is left out of the scrape, so a hung database cannot stall it. */
function within<T>(source: (() => Promise<T>) | undefined, ms = 2000): Promise<T | undefined> {
  if (!source) return Promise.resolve(undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((ok) => (timer = setTimeout(() => ok(undefined), ms)));
  return Promise.race([source().catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * The process's metrics (docs/operations.md), in a registry of its own: one per process, so in embedded
 * mode the API and the worker in it share one `/metrics`. Labels are kinds, stages, providers, outcomes
 * and route templates only: never a user, a key or a raw URL.
 */
export class PromMetrics implements MetricsPort {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly httpChildren = new Map<string, { observe(seconds: number): void }>();
  private readonly jobs: Counter<'kind' | 'outcome'>;
  private readonly stages: Histogram<'stage'>;
  private readonly callbacks: Counter<'outcome'>;
  private readonly charged: Counter;
  private readonly refunded: Counter;
  private readonly motion: Counter<'provider' | 'outcome'>;
  private readonly analytics: Counter<'event' | 'platform'>;
  private readonly analyticsDropped: Counter<'reason'>;
  private readonly bgFrames: Histogram;
  private queueSource?: () => Promise<QueueCounts>;
  private oldestSource?: () => Promise<Date | null>;
  private backlogSource?: () => Promise<number>;
  private slotSource?: () => SlotCounts;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.jobs = new Counter({
      name: 'jobs_total',
      help: 'Jobs that reached a final state, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.stages = new Histogram({
      name: 'job_stage_duration_seconds',
      help: 'Successful pipeline stage runs, by step id',
      labelNames: ['stage'],
      buckets: STAGE_BUCKETS,
      registers,
    });
    this.callbacks = new Counter({
      name: 'callback_deliveries_total',
      help: 'Callback delivery attempts by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.charged = new Counter({
      name: 'credits_charged_total',
      help: "Credits charged (the API's unit; 1 credit = 100 ledger cents)",
      registers,
    });
    this.refunded = new Counter({
      name: 'credits_refunded_total',
      help: "Credits refunded (the API's unit; 1 credit = 100 ledger cents)",
      registers,
    });
    this.analytics = new Counter({
      name: 'analytics_events_total',
      help: 'Engagement events counted from the public pages (docs/analytics.md), by event and AR platform',
      labelNames: ['event', 'platform'],
      registers,
    });
    this.analyticsDropped = new Counter({
      name: 'analytics_events_dropped_total',
      help: 'Engagement beacons not counted, by reason (opted_out, bot, rate_limited, duplicate, disabled, unknown_site)',
      labelNames: ['reason'],
      registers,
    });
    this.motion = new Counter({
      name: 'motion_provider_requests_total',
      help: 'Requests to motion providers (start and poll) by provider and outcome',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    this.bgFrames = new Histogram({
      name: 'background_removal_frame_seconds',
      help: 'Background removal time per frame',
      buckets: FRAME_BUCKETS,
      registers,
    });
    for (const outcome of CALLBACK_OUTCOMES) this.callbacks.inc({ outcome }, 0);
    // prom-client calls collect() with the gauge as `this`; the sources are read through these closures.
    const queueCounts = () => within(this.queueSource);
    const oldestQueued = () => within(this.oldestSource);
    const slotCounts = () => this.slotSource?.();
    new Gauge({
      name: 'worker_slots',
      help: "This worker's CPU and I/O slots: held now, and stages waiting for one",
      labelNames: ['kind', 'state'],
      registers,
      collect() {
        const counts = slotCounts();
        this.reset();
        if (!counts) return;
        for (const kind of ['cpu', 'io'] as const) {
          this.set({ kind, state: 'held' }, counts[kind].held);
          this.set({ kind, state: 'waiting' }, counts[kind].waiting);
        }
      },
    });
    new Gauge({
      name: 'queue_jobs',
      help: 'Queue messages by state (scaled mode: the whole Bull queue, the same in every process)',
      labelNames: ['state'],
      registers,
      async collect() {
        // An unreachable queue leaves the gauge out of this scrape (not stale numbers, not a failed scrape).
        const counts = await queueCounts();
        this.reset();
        if (!counts) return;
        for (const state of QUEUE_STATES) this.set({ state }, counts[state]);
      },
    });
    new Gauge({
      name: 'queue_oldest_waiting_seconds',
      help: 'Age of the oldest queued job (0 when none waits)',
      registers,
      async collect() {
        const at = await oldestQueued();
        // A gauge without labels is always written: NaN says "unknown" where 0 would say "nothing waits".
        this.set(at === undefined ? NaN : at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : 0);
      },
    });
    registerBacklogGauge(this.registry, () => within(this.backlogSource));
  }

  /**
   * Starts every label set known up front at 0 (Prometheus' guidance for labelled counters): a series that
   * appears only with its first event makes `rate()` and `increase()` miss that event and leaves alerts
   * without data until then. Callback outcomes are known here; job kinds and motion providers come from the
   * process's configuration. Error-code outcomes of motion calls still start when they first happen.
   */
  startAtZero(known: { jobKinds?: readonly string[]; motionProviders?: readonly string[] }): void {
    for (const kind of known.jobKinds ?? []) for (const outcome of JOB_OUTCOMES) this.jobs.inc({ kind, outcome }, 0);
    for (const provider of known.motionProviders ?? []) for (const outcome of MOTION_OUTCOMES) this.motion.inc({ provider, outcome }, 0);
  }

  /** Where `queue_jobs` reads its numbers on each scrape. */
  observeQueue(counts: () => Promise<QueueCounts>): void {
    this.queueSource = counts;
  }

  /** Where `worker_slots` reads this worker's slots on each scrape (processes that run no worker have none). */
  observeSlots(counts: () => SlotCounts): void {
    this.slotSource = counts;
  }

  /** Where `queue_backlog_jobs` (the autoscaling signal, backlog-gauge.ts) reads the queued jobs on each scrape. */
  observeBacklog(count: () => Promise<number>): void {
    this.backlogSource = count;
  }

  /** Where `queue_oldest_waiting_seconds` reads the oldest queued job on each scrape. */
  observeQueueAge(oldest: () => Promise<Date | null>): void {
    this.oldestSource = oldest;
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    // The labelled child is looked up once per method/route/status: hashing the label object on every
    // request was a visible part of the read path's cost. Routes are templates, so the map stays small.
    const key = `${method} ${status} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) this.httpChildren.set(key, (child = this.http.labels(method, route, String(status))));
    child.observe(seconds);
  }

  jobFinished(kind: string, outcome: JobOutcome): void {
    this.jobs.inc({ kind, outcome });
  }

  stageFinished(stage: string, seconds: number): void {
    this.stages.observe({ stage }, seconds);
  }

  callbackDelivery(outcome: 'delivered' | 'failed'): void {
    this.callbacks.inc({ outcome });
  }

  // In credits, the unit clients and price lists use, not the ledger's cents.
  /** Events counted into the daily analytics (one flush's worth; platform '' for events other than AR launches). */
  analyticsCounted(event: string, platform: string, n: number): void {
    this.analytics.inc({ event, platform: platform || 'none' }, n);
  }

  /** Events a beacon carried that were not counted, and why. */
  analyticsNotCounted(reason: string, n: number): void {
    this.analyticsDropped.inc({ reason }, n);
  }

  creditsCharged(cents: number): void {
    if (cents > 0) this.charged.inc(cents / 100);
  }

  creditsRefunded(cents: number): void {
    if (cents > 0) this.refunded.inc(cents / 100);
  }

  motionProviderRequest(provider: string, outcome: string): void {
    this.motion.inc({ provider, outcome });
  }

  backgroundRemovalFrame(seconds: number): void {
    this.bgFrames.observe(seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
