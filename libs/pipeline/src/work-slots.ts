import { OperationalError } from './errors';
import type { StageResource } from './stage.port';

/** Groups whose last turn is remembered before idle ones are forgotten. */
const MAX_REMEMBERED_GROUPS = 10_000;

/** Hands a held slot back. Calling it twice is harmless. */
export type ReleaseSlot = () => void;

/** What a stage asks for before it runs. */
export interface SlotRequest {
  kind: StageResource;
  /** Whose job it is (the owning account); shares are counted per group. */
  group: string;
  /** Among waiters of equally served groups, the lower runs first: jobs started earlier finish earlier. */
  order: number;
  /** Aborting it gives up the wait (the job was cancelled, or the worker stops). */
  signal?: AbortSignal;
}

/** Slots per kind, for the metrics: held now and waited for now. */
export type SlotCounts = Record<StageResource, { held: number; waiting: number }>;

/** Where the runner gets a slot for each stage. */
export interface WorkSlotsPort {
  acquire(req: SlotRequest): Promise<ReleaseSlot>;
  /**
   * Whether a stage of another group waits for a slot of this kind: when none does, a job may keep its
   * slot into its next stage of the same kind instead of handing it back.
   */
  othersWaiting?(kind: StageResource, group: string): boolean;
}

interface Waiter {
  req: SlotRequest;
  grant: (release: ReleaseSlot) => void;
  fail: (err: unknown) => void;
}

/**
 * A worker's CPU and I/O slots, handed out fairly between accounts.
 *
 * CPU-bound stages (decoding, encoding, scene building) take one of `cpu` slots (about one a core);
 * I/O-bound stages (downloads, uploads, waiting for a hosted model) take one of `io` slots, so a
 * download that never answers holds no CPU. When a slot frees up it goes to the waiter whose group holds
 * the fewest slots of that kind; among equally served groups, to the one served longest ago (round
 * robin: an account with many jobs gets one turn, then another account's waiting job gets the next);
 * within a group, to its earliest job, so started jobs finish before new ones begin.
 *
 * @example
 * ```ts
 * const slots = new WorkSlots({ cpu: 2, io: 16 });
 * const release = await slots.acquire({ kind: 'cpu', group: 'usr_1', order: 7 });
 * try { await encode(); } finally { release(); }
 * ```
 */
export class WorkSlots implements WorkSlotsPort {
  private readonly held: Record<StageResource, Map<string, number>> = { cpu: new Map(), io: new Map() };
  private readonly inUse: Record<StageResource, number> = { cpu: 0, io: 0 };
  private readonly waiting: Record<StageResource, Waiter[]> = { cpu: [], io: [] };
  /** When each group was last given a slot of each kind (a running count), for the round robin. */
  private readonly lastServed: Record<StageResource, Map<string, number>> = { cpu: new Map(), io: new Map() };
  private served = 0;

  constructor(private readonly limits: Record<StageResource, number>) {
    for (const kind of ['cpu', 'io'] as const) {
      if (!(Number.isInteger(limits[kind]) && limits[kind] >= 1))
        throw new Error(`work slots: ${kind} must be a positive integer, got ${limits[kind]}`);
    }
  }

  acquire(req: SlotRequest): Promise<ReleaseSlot> {
    if (req.signal?.aborted) return Promise.reject(stopReason(req.signal));
    if (this.inUse[req.kind] < this.limits[req.kind] && this.waiting[req.kind].length === 0) {
      return Promise.resolve(this.take(req));
    }
    return new Promise<ReleaseSlot>((grant, fail) => {
      const waiter: Waiter = { req, grant, fail };
      this.waiting[req.kind].push(waiter);
      req.signal?.addEventListener(
        'abort',
        () => {
          const list = this.waiting[req.kind];
          const i = list.indexOf(waiter);
          if (i < 0) return;
          list.splice(i, 1);
          fail(stopReason(req.signal as AbortSignal));
        },
        { once: true },
      );
    });
  }

  othersWaiting(kind: StageResource, group: string): boolean {
    return this.waiting[kind].some((w) => w.req.group !== group);
  }

  counts(): SlotCounts {
    return {
      cpu: { held: this.inUse.cpu, waiting: this.waiting.cpu.length },
      io: { held: this.inUse.io, waiting: this.waiting.io.length },
    };
  }

  private take(req: SlotRequest): ReleaseSlot {
    const { kind, group } = req;
    this.inUse[kind]++;
    this.held[kind].set(group, (this.held[kind].get(group) ?? 0) + 1);
    this.lastServed[kind].set(group, ++this.served);
    if (this.lastServed[kind].size > MAX_REMEMBERED_GROUPS) this.forgetIdle(kind);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse[kind]--;
      const n = (this.held[kind].get(group) ?? 1) - 1;
      if (n > 0) this.held[kind].set(group, n);
      else this.held[kind].delete(group);
      this.grantNext(kind);
    };
  }

  private grantNext(kind: StageResource): void {
    const list = this.waiting[kind];
    while (this.inUse[kind] < this.limits[kind] && list.length) {
      let best = 0;
      for (let i = 1; i < list.length; i++) if (this.before(kind, list[i].req, list[best].req)) best = i;
      const [w] = list.splice(best, 1);
      w.grant(this.take(w.req));
    }
  }

  /**
   * True when `a` should be served before `b`: its group holds fewer slots, else was served longer ago,
   * else (the same group) it is the earlier job.
   */
  private before(kind: StageResource, a: SlotRequest, b: SlotRequest): boolean {
    const ha = this.held[kind].get(a.group) ?? 0;
    const hb = this.held[kind].get(b.group) ?? 0;
    if (ha !== hb) return ha < hb;
    const sa = this.lastServed[kind].get(a.group) ?? 0;
    const sb = this.lastServed[kind].get(b.group) ?? 0;
    return sa !== sb ? sa < sb : a.order < b.order;
  }

  /** Drops the round-robin memory of groups that hold and wait for nothing (they count as never served). */
  private forgetIdle(kind: StageResource): void {
    const waitingGroups = new Set(this.waiting[kind].map((w) => w.req.group));
    for (const group of this.lastServed[kind].keys()) {
      if (!this.held[kind].has(group) && !waitingGroups.has(group)) this.lastServed[kind].delete(group);
    }
  }
}

/** A given-up wait: the abort's reason when it is an error (a cancel), else a retryable stop. */
function stopReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error && signal.reason.name !== 'AbortError'
    ? signal.reason
    : new OperationalError('worker_stopping', 'the worker stopped before the stage could start');
}
