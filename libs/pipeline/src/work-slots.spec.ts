import { JobCancelledError, OperationalError, WorkSlots, type ReleaseSlot } from './index';

const tick = () => new Promise((r) => setImmediate(r));

describe('WorkSlots', () => {
  it('hands out at most the limit of each kind; cpu and io are counted apart', async () => {
    const slots = new WorkSlots({ cpu: 1, io: 2 });
    const c1 = await slots.acquire({ kind: 'cpu', group: 'a', order: 1 });
    await slots.acquire({ kind: 'io', group: 'a', order: 2 });
    await slots.acquire({ kind: 'io', group: 'a', order: 3 });
    let second = false;
    void slots.acquire({ kind: 'cpu', group: 'a', order: 4 }).then(() => (second = true));
    await tick();
    expect(second).toBe(false);
    expect(slots.counts()).toEqual({ cpu: { held: 1, waiting: 1 }, io: { held: 2, waiting: 0 } });
    c1();
    c1(); // twice is harmless
    await tick();
    expect(second).toBe(true);
    expect(slots.counts().cpu).toEqual({ held: 1, waiting: 0 });
  });

  it('gives a freed slot to the group holding the fewest, then to the earliest job', async () => {
    const slots = new WorkSlots({ cpu: 2, io: 1 });
    const a1 = await slots.acquire({ kind: 'cpu', group: 'busy', order: 1 });
    const a2 = await slots.acquire({ kind: 'cpu', group: 'busy', order: 2 });
    const got: string[] = [];
    const releases: ReleaseSlot[] = [];
    const wait = (group: string, order: number) =>
      slots.acquire({ kind: 'cpu', group, order }).then((r) => {
        got.push(`${group}${order}`);
        releases.push(r);
      });
    const waits = [wait('busy', 5), wait('busy', 3), wait('small', 9), wait('busy', 4)];
    await tick();
    a1();
    await tick();
    // busy holds 1, small 0: small's job goes first although it came later and has the highest order.
    expect(got).toEqual(['small9']);
    a2();
    await tick();
    // Now busy holds 0 and small 1: busy's earliest job.
    expect(got).toEqual(['small9', 'busy3']);
    releases.splice(0).forEach((r) => r());
    await Promise.all([waits[0], waits[3]].map((p) => Promise.race([p, tick()])));
    await tick();
    expect(got).toEqual(['small9', 'busy3', 'busy4', 'busy5']);
  });

  it('takes turns between groups holding equally many: the group served longest ago goes first', async () => {
    const slots = new WorkSlots({ cpu: 1, io: 1 });
    const got: string[] = [];
    const releases: ReleaseSlot[] = [await slots.acquire({ kind: 'cpu', group: 'busy', order: 1 })];
    for (const [group, order] of [
      ['busy', 2],
      ['busy', 3],
      ['small', 10],
      ['small', 11],
    ] as const) {
      void slots.acquire({ kind: 'cpu', group, order }).then((r) => {
        got.push(`${group}${order}`);
        releases.push(r);
      });
    }
    await tick();
    // Each time the one slot frees, both groups hold none: the one served longest ago goes first (small
    // was never served, although busy's waiting jobs started earlier), its earliest job among its own.
    for (let i = 0; i < 4; i++) {
      releases[i]();
      await tick();
    }
    expect(got).toEqual(['small10', 'busy2', 'small11', 'busy3']);
  });

  it('an aborted wait gives up: a cancel rejects with its reason, a stop with a retryable error, and the slot goes to the next', async () => {
    const slots = new WorkSlots({ cpu: 1, io: 1 });
    const held = await slots.acquire({ kind: 'cpu', group: 'a', order: 1 });
    const cancel = new AbortController();
    const stop = new AbortController();
    const cancelled = slots.acquire({ kind: 'cpu', group: 'b', order: 2, signal: cancel.signal });
    const stopped = slots.acquire({ kind: 'cpu', group: 'c', order: 3, signal: stop.signal });
    const next = slots.acquire({ kind: 'cpu', group: 'd', order: 4 });
    cancel.abort(new JobCancelledError());
    stop.abort();
    await expect(cancelled).rejects.toBeInstanceOf(JobCancelledError);
    await expect(stopped).rejects.toBeInstanceOf(OperationalError);
    held();
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(slots.counts().cpu).toEqual({ held: 1, waiting: 0 });
    await expect(slots.acquire({ kind: 'io', group: 'a', order: 5, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(OperationalError);
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new WorkSlots({ cpu: 0, io: 1 })).toThrow(/cpu must be a positive integer/);
    expect(() => new WorkSlots({ cpu: 1, io: 1.5 })).toThrow(/io must be a positive integer/);
  });
});
