import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullQueueAdapter, InProcessQueueAdapter, type JobQueuePort, type QueueOptions, QueueUnavailableError } from './index';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

type Factory = (opts: QueueOptions, name: string) => JobQueuePort;
const drivers: [string, Factory][] = [
  ['in-process', (opts) => new InProcessQueueAdapter(opts)],
  ['bull', (opts, name) => new BullQueueAdapter({ ...opts, redisUrl: REDIS_URL, name, lockMs: 1000 })],
];

describe('bull adapter: outages and crashed workers', () => {
  it('gives up an enqueue after enqueueTimeoutMs while Redis is unreachable, instead of waiting for it', async () => {
    const q = new BullQueueAdapter({
      maxAttempts: 1,
      backoffMs: 10,
      redisUrl: 'redis://127.0.0.1:1',
      name: `down-${Date.now()}`,
      lockMs: 1000,
      enqueueTimeoutMs: 500,
    });
    try {
      const t0 = Date.now();
      await expect(q.enqueue('x')).rejects.toBeInstanceOf(QueueUnavailableError);
      expect(Date.now() - t0).toBeLessThan(1500);
      await expect(q.ping()).rejects.toThrow();
    } finally {
      await q.close();
    }
  });

  it("a running consumer retakes a killed consumer's job within 1.25 x the lock time", async () => {
    const lockMs = 2000;
    const child = join(__dirname, 'queue-crash-child.fixture.js');
    const state = join(mkdtempSync(join(tmpdir(), 'qretake-')), 'state.json');
    writeFileSync(state, JSON.stringify({ pending: ['held'], started: [], done: [] }));
    const read = () => JSON.parse(readFileSync(state, 'utf8')) as { started: string[] };
    const name = `retake-${process.pid}-${Date.now()}`;
    const first = fork(child, ['bull', state, name, 'hang', String(lockMs)], { stdio: 'ignore', env: { ...process.env, REDIS_URL } });
    const firstExited = new Promise((r) => first.once('exit', r));
    const survivor = new BullQueueAdapter({ maxAttempts: 3, backoffMs: 10, redisUrl: REDIS_URL, name, lockMs });
    let retakenAt = 0;
    try {
      await until(() => read().started.length === 1);
      await survivor.consume(
        async () => {
          retakenAt = Date.now();
        },
        { concurrency: 1 },
      );
      // Let the survivor's first stalled check pass while the lock is still held.
      await sleep(300);
      first.kill('SIGKILL');
      await firstExited;
      const killedAt = Date.now();
      await until(() => retakenAt > 0, 10_000);
      expect(retakenAt - killedAt).toBeLessThanOrEqual(lockMs * 1.25 + 400);
    } finally {
      first.kill('SIGKILL');
      await survivor.obliterate().catch(() => undefined);
      await survivor.close();
    }
  });
});

describe.each(drivers)('queue contract: %s adapter', (driver, make) => {
  const open: JobQueuePort[] = [];
  let n = 0;
  const newQueue = (opts: Partial<QueueOptions> = {}, name = `contract-${driver}-${process.pid}-${Date.now()}-${n++}`) => {
    const q = make({ maxAttempts: 3, backoffMs: 50, ...opts }, name);
    open.push(q);
    return q;
  };
  afterEach(async () => {
    for (const q of open.splice(0)) {
      if (q instanceof BullQueueAdapter) await q.obliterate().catch(() => undefined);
      await q.close();
    }
  });

  it('processes each job exactly once under normal operation', async () => {
    const q = newQueue();
    const seen = new Map<string, number>();
    await q.consume(
      async ({ jobId }) => {
        seen.set(jobId, (seen.get(jobId) ?? 0) + 1);
      },
      { concurrency: 4 },
    );
    const ids = Array.from({ length: 30 }, (_, i) => `job-${i}`);
    for (const id of ids) await q.enqueue(id);
    await until(() => seen.size === ids.length);
    await sleep(200);
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
  });

  it('ignores a second enqueue of a job that is still waiting or running', async () => {
    const q = newQueue();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await q.consume(
      async () => {
        calls++;
        await gate;
      },
      { concurrency: 2 },
    );
    await q.enqueue('same');
    await until(() => calls === 1);
    await q.enqueue('same');
    await sleep(200);
    release();
    await sleep(100);
    expect(calls).toBe(1);
  });

  it('honours the concurrency limit', async () => {
    const q = newQueue();
    let inFlight = 0;
    let max = 0;
    let done = 0;
    await q.consume(
      async () => {
        inFlight++;
        max = Math.max(max, inFlight);
        await sleep(60);
        inFlight--;
        done++;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 12; i++) await q.enqueue(`c-${i}`);
    await until(() => done === 12);
    expect(max).toBe(3);
  });

  it('retries a failing job with growing backoff, up to maxAttempts', async () => {
    const q = newQueue({ maxAttempts: 3, backoffMs: 100 });
    const attempts: { attempt: number; at: number }[] = [];
    const never: number[] = [];
    await q.consume(
      async ({ jobId, attempt, maxAttempts }) => {
        expect(maxAttempts).toBe(3);
        if (jobId === 'flaky') {
          attempts.push({ attempt, at: Date.now() });
          if (attempt < 3) throw new Error('transient');
        } else {
          never.push(attempt);
          throw new Error('always');
        }
      },
      { concurrency: 1 },
    );
    await q.enqueue('flaky');
    await q.enqueue('doomed');
    await until(() => attempts.length === 3 && never.length === 3);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const gap1 = attempts[1].at - attempts[0].at;
    const gap2 = attempts[2].at - attempts[1].at;
    expect(gap1).toBeGreaterThanOrEqual(90);
    expect(gap2).toBeGreaterThanOrEqual(190);
    await sleep(800);
    expect(never).toEqual([1, 2, 3]);
  });

  it('takes a per-job maxAttempts', async () => {
    const q = newQueue({ maxAttempts: 1, backoffMs: 20 });
    const seen: number[] = [];
    await q.consume(
      async ({ attempt, maxAttempts }) => {
        seen.push(attempt);
        expect(maxAttempts).toBe(4);
        throw new Error('again');
      },
      { concurrency: 1 },
    );
    await q.enqueue('more-tries', { maxAttempts: 4 });
    await until(() => seen.length === 4);
    await sleep(400);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('graceful stop lets running jobs finish and takes no new ones', async () => {
    const q = newQueue();
    const finished: string[] = [];
    const started: string[] = [];
    await q.consume(
      async ({ jobId }) => {
        started.push(jobId);
        await sleep(400);
        finished.push(jobId);
      },
      { concurrency: 2 },
    );
    for (const id of ['a', 'b', 'c', 'd']) await q.enqueue(id);
    await until(() => started.length === 2);
    const t0 = Date.now();
    await q.stop(10_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(finished.sort()).toEqual([...started].sort());
    await sleep(300);
    expect(started).toHaveLength(2);
  });

  it('aborts running handlers when the grace period runs out', async () => {
    const q = newQueue();
    let aborted = false;
    let started = false;
    await q.consume(
      async ({ signal }) => {
        started = true;
        await new Promise<void>((ok) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            ok();
          }),
        );
      },
      { concurrency: 1 },
    );
    await q.enqueue('slow');
    await until(() => started);
    await q.stop(100);
    expect(aborted).toBe(true);
  });

  it('finishes a job left running after a crash (kill -9) once a consumer restarts', async () => {
    const child = join(__dirname, 'queue-crash-child.fixture.js');
    expect(existsSync(join(__dirname, '../../../dist/libs/queue/src/index.js'))).toBe(true);
    const state = join(mkdtempSync(join(tmpdir(), 'qcrash-')), 'state.json');
    writeFileSync(state, JSON.stringify({ pending: ['crash-1', 'crash-2'], started: [], done: [] }));
    const name = `contract-crash-${driver}-${Date.now()}`;
    const read = () => JSON.parse(readFileSync(state, 'utf8')) as { pending: string[]; started: string[]; done: string[] };

    const first = fork(child, [driver, state, name, 'hang'], { stdio: 'ignore', env: { ...process.env, REDIS_URL } });
    const firstExited = new Promise((r) => first.once('exit', r));
    await until(() => read().started.length === 2);
    expect(first.exitCode).toBeNull();
    first.kill('SIGKILL');
    await firstExited;
    expect(read().done).toEqual([]);

    const second = fork(child, [driver, state, name, 'work'], { stdio: 'ignore', env: { ...process.env, REDIS_URL } });
    try {
      await until(() => read().done.length === 2, 20_000);
      expect(read().done.sort()).toEqual(['crash-1', 'crash-2']);
      expect(read().pending).toEqual([]);
    } finally {
      second.kill('SIGKILL');
      if (driver === 'bull') {
        const cleanup = new BullQueueAdapter({ maxAttempts: 1, backoffMs: 1, redisUrl: REDIS_URL, name, lockMs: 1000 });
        await cleanup.obliterate().catch(() => undefined);
        await cleanup.close();
      }
    }
  });

  it("runs lower priority numbers first, so a second account's first job overtakes the first account's backlog", async () => {
    const q = newQueue();
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await q.consume(
      async ({ jobId }) => {
        started.push(jobId);
        if (jobId === 'a-1') await gate;
      },
      { concurrency: 1 },
    );
    // Account A's jobs carry their position among A's unfinished jobs: 1, 2, 3...
    await q.enqueue('a-1', { priority: 1 });
    await until(() => started.length === 1);
    for (let i = 2; i <= 6; i++) await q.enqueue(`a-${i}`, { priority: i });
    await q.enqueue('b-1', { priority: 1 });
    await q.enqueue('c-1', { priority: 1 });
    await q.enqueue('b-2', { priority: 2 });
    release();
    await until(() => started.length === 9);
    expect(started).toEqual(['a-1', 'b-1', 'c-1', 'a-2', 'b-2', 'a-3', 'a-4', 'a-5', 'a-6']);
  });

  it("gives one group at most groupLimit slots, so another group's job starts while the first group's jobs hang", async () => {
    const q = newQueue();
    const started: { jobId: string; attempt: number }[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await q.consume(
      async ({ jobId, attempt }) => {
        started.push({ jobId, attempt });
        if (jobId.startsWith('a-')) await gate;
      },
      { concurrency: 3, groupLimit: 2 },
    );
    // Account A's sources never answer: its jobs would hold every slot without the limit.
    for (let i = 1; i <= 6; i++) await q.enqueue(`a-${i}`, { priority: i, group: 'usr_a' });
    await until(() => started.length === 2);
    await q.enqueue('b-1', { priority: 1, group: 'usr_b' });
    await until(() => started.some((s) => s.jobId === 'b-1'), 5000);
    // The third slot went to B; A still holds only two.
    expect(started.filter((s) => s.jobId.startsWith('a-')).map((s) => s.jobId)).toEqual(['a-1', 'a-2']);
    release();
    await until(() => started.length === 7, 15_000);
    // Each ran once, on its first attempt: being put back for the limit spends no attempt.
    expect(started.map((s) => s.jobId).sort()).toEqual(['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-6', 'b-1']);
    expect(started.every((s) => s.attempt === 1)).toBe(true);
  });

  it('answers ping', async () => {
    await expect(newQueue().ping()).resolves.toBeUndefined();
  });

  it('counts waiting, active and delayed messages for the queue_jobs gauge', async () => {
    const q = newQueue({ maxAttempts: 2, backoffMs: 60_000 });
    expect(await q.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await q.consume(
      async ({ jobId }) => {
        if (jobId === 'fails') throw new Error('again later');
        await gate;
      },
      { concurrency: 1 },
    );
    await q.enqueue('fails');
    await until(async () => (await q.counts()).delayed === 1);
    await q.enqueue('runs');
    await q.enqueue('waits');
    await until(async () => {
      const c = await q.counts();
      return c.active === 1 && c.waiting === 1 && c.delayed === 1;
    });
    release();
    await until(async () => (await q.counts()).active === 0 && (await q.counts()).waiting === 0);
  });
});
