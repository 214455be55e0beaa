import {
  createContainer,
  computeProgress,
  definePlugin,
  OperationalError,
  PipelineRegistry,
  PipelineRunner,
  registerPipeline,
  registerStage,
  RetryLaterError,
  toV1Status,
  UserError,
  type StageProvider,
  type PipelineStep,
  type RunnerDeps,
  NOOP_METRICS,
  WorkSlots,
} from './index';
import { MemoryJobStore } from '@app/testing';

const log = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };

function stage(id: string, run: StageProvider['run']): StageProvider {
  return { id, run };
}

async function setup(
  stages: StageProvider[],
  steps: PipelineStep[] = stages.map((s, i) => ({
    stage: s.id,
    phase: (['downloading', 'converting', 'uploading'] as const)[Math.min(i, 2)],
  })),
  deps: Partial<RunnerDeps> = {},
) {
  const container = createContainer();
  const plugin = definePlugin({
    name: 'fake',
    register(c) {
      stages.forEach((s) => registerStage(c, s));
      registerPipeline(c, { id: 'p', steps });
    },
  });
  const registry = await PipelineRegistry.boot(container, [plugin]);
  const store = new MemoryJobStore();
  const runner = new PipelineRunner({ registry, store, log, ...deps });
  return { registry, store, runner };
}

describe('PipelineRunner', () => {
  it('runs steps in order, passes outputs along and moves through the v2 states', async () => {
    const order: string[] = [];
    const { store, runner } = await setup(
      [
        stage('a', async (ctx) => {
          order.push('a');
          return { n: Number(ctx.job.input.n) + 1 };
        }),
        stage('b', async (ctx) => {
          order.push('b');
          return { n: (ctx.outputs.a as { n: number }).n * 10 };
        }),
        stage('c', async (ctx) => {
          order.push('c');
          return { final: (ctx.outputs.b as { n: number }).n };
        }),
      ],
      undefined,
      { progressWriteIntervalMs: 0 },
    );
    store.add({ id: 'j1', pipeline: 'p', input: { n: 1 } });
    await expect(runner.run('j1', { attempt: 1, maxAttempts: 3 })).resolves.toBe('completed');
    expect(order).toEqual(['a', 'b', 'c']);
    const job = store.jobs.get('j1')!;
    expect(job.status).toBe('completed');
    expect(job.result).toEqual({ final: 20 });
    expect(job.progress).toBe(100);
    expect(store.statuses('j1')).toEqual(['downloading', 'converting', 'uploading', 'completed']);
    expect(job.stageProgress).toEqual({ a: 1, b: 1, c: 1 });
    // The timeline: each stage's start and duration, kept with the final state.
    expect(Object.keys(job.stageTimings!)).toEqual(['a', 'b', 'c']);
    Object.values(job.stageTimings!).forEach((t, i) =>
      expect(t).toEqual({ step: i, started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), duration_ms: expect.any(Number) }),
    );
  });

  it('a quick job with the default write interval: its start and its end are written, what is between is merged away', async () => {
    const { store, runner } = await setup([
      stage('a', async (ctx) => {
        ctx.progress(0.5);
        return 1;
      }),
      stage('b', async () => 2),
      stage('c', async () => 3),
    ]);
    store.add({ id: 'j', pipeline: 'p' });
    await runner.run('j', { attempt: 1, maxAttempts: 1 });
    expect(store.history.map((h) => h.patch.status)).toEqual(['downloading', 'completed']);
    expect(store.jobs.get('j')).toMatchObject({ status: 'completed', progress: 100, stageProgress: { a: 1, b: 1, c: 1 } });
  });

  it('a slower job still shows its progress and phase while it runs', async () => {
    const seen: unknown[] = [];
    const { store, runner } = await setup(
      [
        stage('a', async () => 1),
        stage('b', async () => {
          await new Promise((r) => setTimeout(r, 120));
          seen.push({ ...store.jobs.get('j') });
          return 2;
        }),
        stage('c', async () => 3),
      ],
      undefined,
      { progressWriteIntervalMs: 50 },
    );
    store.add({ id: 'j', pipeline: 'p' });
    await runner.run('j', { attempt: 1, maxAttempts: 1 });
    expect(seen[0]).toMatchObject({ status: 'converting', stageProgress: { a: 1 } });
  });

  it('records progress per stage, weighted, monotonically', async () => {
    const { store, runner } = await setup(
      [
        stage('a', async (ctx) => {
          ctx.progress(0.5);
          ctx.progress(1);
          return 1;
        }),
        stage('b', async (ctx) => {
          for (let i = 1; i <= 4; i++) ctx.progress(i / 4);
          return 2;
        }),
      ],
      [
        { stage: 'a', phase: 'downloading', weight: 1 },
        { stage: 'b', phase: 'converting', weight: 3 },
      ],
      { progressWriteIntervalMs: 0 },
    );
    store.add({ id: 'j', pipeline: 'p' });
    await runner.run('j', { attempt: 1, maxAttempts: 1 });
    const progresses = store.history.map((h) => h.patch.progress).filter((p): p is number => p !== undefined);
    expect(progresses).toContain(12.5);
    expect(progresses).toContain(25);
    expect(progresses).toContain(43.75);
    for (let i = 1; i < progresses.length; i++) expect(progresses[i]).toBeGreaterThanOrEqual(progresses[i - 1]);
    expect(progresses[progresses.length - 1]).toBe(100);
  });

  it.each(['a', 'b', 'c'])('a user error in stage %s fails the job at once with a message naming the stage', async (bad) => {
    const mk = (id: string) =>
      stage(id, async () => {
        if (id === bad) throw new UserError('bad_input', 'not an image');
        return id;
      });
    const { store, runner } = await setup([mk('a'), mk('b'), mk('c')]);
    store.add({ id: 'j', pipeline: 'p' });
    await expect(runner.run('j', { attempt: 1, maxAttempts: 5 })).resolves.toBe('failed');
    const job = store.jobs.get('j')!;
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({ code: 'bad_input', message: `${bad}: not an image`, stage: bad, retryable: false });
  });

  it('a bug fails the job with a generic message and logs the details', async () => {
    const { store, runner } = await setup([
      stage('a', async () => {
        throw new TypeError('x is undefined');
      }),
    ]);
    store.add({ id: 'j', pipeline: 'p' });
    await expect(runner.run('j', { attempt: 1, maxAttempts: 5 })).resolves.toBe('failed');
    expect((store.jobs.get('j')!.error as { message: string }).message).toBe('a: internal error while processing the job');
    expect(log.error).toHaveBeenCalled();
    expect(JSON.stringify(store.jobs.get('j')!.error)).not.toContain('x is undefined');
  });

  it('an operational error puts the job back to queued and asks for a retry until attempts run out', async () => {
    let calls = 0;
    const { store, runner } = await setup([
      stage('a', async () => 1),
      stage('b', async () => {
        calls++;
        if (calls < 3) throw new OperationalError('upstream_timeout', 'timed out');
        return { ok: true };
      }),
    ]);
    store.add({ id: 'j', pipeline: 'p' });
    await expect(runner.run('j', { attempt: 1, maxAttempts: 3 })).rejects.toBeInstanceOf(RetryLaterError);
    expect(store.jobs.get('j')!.status).toBe('queued');
    await expect(runner.run('j', { attempt: 2, maxAttempts: 3 })).rejects.toBeInstanceOf(RetryLaterError);
    await expect(runner.run('j', { attempt: 3, maxAttempts: 3 })).resolves.toBe('completed');
    expect(store.jobs.get('j')!.attempts).toBe(3);

    calls = -10;
    store.add({ id: 'k', pipeline: 'p' });
    await expect(runner.run('k', { attempt: 1, maxAttempts: 1 })).resolves.toBe('failed');
    expect(store.jobs.get('k')!.error).toMatchObject({ code: 'upstream_timeout', retryable: true, stage: 'b' });
  });

  it('keeps stage checkpoints across attempts, so a retried stage resumes instead of starting over', async () => {
    const started: string[] = [];
    const { store, runner } = await setup([
      stage('remote', async (ctx) => {
        let handle = ctx.checkpoints.get<{ op: string }>('op');
        if (!handle) {
          handle = { op: `op-${started.length + 1}` };
          started.push(handle.op);
          await ctx.checkpoints.set('op', handle);
        }
        if (ctx.job.attempt === 1) throw new OperationalError('worker_lost', 'the worker went away');
        return { resumed: handle.op };
      }),
    ]);
    store.add({ id: 'c', pipeline: 'p' });
    await expect(runner.run('c', { attempt: 1, maxAttempts: 3 })).rejects.toBeInstanceOf(RetryLaterError);
    expect(store.jobs.get('c')!.checkpoints).toEqual({ op: { op: 'op-1' } });
    await expect(runner.run('c', { attempt: 2, maxAttempts: 3 })).resolves.toBe('completed');
    expect(started).toEqual(['op-1']);
    expect(store.jobs.get('c')!.result).toEqual({ resumed: 'op-1' });
  });

  it('a replayed job produces the same outcome and a finished job is not run again', async () => {
    const seen: number[] = [];
    const { store, runner } = await setup([
      stage('a', async (ctx) => {
        seen.push(1);
        return { v: String(ctx.job.input.x) };
      }),
    ]);
    store.add({ id: 'j1', pipeline: 'p', input: { x: 'same' } });
    store.add({ id: 'j2', pipeline: 'p', input: { x: 'same' } });
    await runner.run('j1', { attempt: 1, maxAttempts: 1 });
    await runner.run('j2', { attempt: 1, maxAttempts: 1 });
    expect(store.jobs.get('j1')!.result).toEqual(store.jobs.get('j2')!.result);
    await expect(runner.run('j1', { attempt: 2, maxAttempts: 2 })).resolves.toBe('skipped');
    expect(seen).toHaveLength(2);
  });

  it('notifies listeners once on completion and failure', async () => {
    const container = createContainer();
    const registry = await PipelineRegistry.boot(container, [
      definePlugin({
        name: 'x',
        register(c) {
          registerStage(
            c,
            stage('ok', async () => ({ ok: 1 })),
          );
          registerStage(
            c,
            stage('bad', async () => {
              throw new UserError('nope', 'nope');
            }),
          );
          registerPipeline(c, { id: 'ok', steps: [{ stage: 'ok', phase: 'converting' }] });
          registerPipeline(c, { id: 'bad', steps: [{ stage: 'bad', phase: 'converting' }] });
        },
      }),
    ]);
    const store = new MemoryJobStore();
    const events: string[] = [];
    const runner = new PipelineRunner({
      registry,
      store,
      log,
      listeners: [
        {
          onCompleted: async (j) => {
            events.push(`done:${j.id}`);
          },
          onFailed: async (j, e) => {
            events.push(`fail:${j.id}:${e.code}`);
          },
        },
      ],
    });
    store.add({ id: '1', pipeline: 'ok' });
    store.add({ id: '2', pipeline: 'bad' });
    await runner.run('1', { attempt: 1, maxAttempts: 1 });
    await runner.run('2', { attempt: 1, maxAttempts: 1 });
    await runner.run('1', { attempt: 1, maxAttempts: 1 });
    expect(events).toEqual(['done:1', 'fail:2:nope']);
  });

  it('fails a stage that runs past its time limit with stage_timeout, aborting its signal, and tells the listeners', async () => {
    let seen: AbortSignal | undefined;
    const failed: string[] = [];
    const { store, runner } = await setup(
      [
        stage('a', async () => 1),
        // Never settles on its own, as a stage stuck in a hung call would.
        stage('stuck', (ctx) => {
          seen = ctx.signal;
          return new Promise(() => undefined);
        }),
        stage('c', async () => {
          throw new Error('must not run');
        }),
      ],
      undefined,
      {
        stageTimeoutMs: 50,
        listeners: [
          {
            onFailed: async (j, e) => {
              failed.push(`${j.id}:${e.code}`);
            },
          },
        ],
      },
    );
    store.add({ id: 'j', pipeline: 'p' });
    const started = Date.now();
    await expect(runner.run('j', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(store.jobs.get('j')!.error).toEqual({
      code: 'stage_timeout',
      message: 'stuck: took longer than 0.05 s',
      stage: 'stuck',
      retryable: false,
    });
    expect(store.jobs.get('j')!.status).toBe('failed');
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as UserError).code).toBe('stage_timeout');
    expect(failed).toEqual(['j:stage_timeout']);
  });

  it("gives a stage its provider's or its step's own time limit instead of the default", async () => {
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const slow = (id: string, timeoutMs?: number): StageProvider => ({
      id,
      timeoutMs,
      run: async () => {
        await wait(150);
        return id;
      },
    });
    const { store, runner } = await setup(
      [slow('provider-limit', 2000), slow('step-limit'), slow('step-wins', 2000)],
      [
        { stage: 'provider-limit', phase: 'converting' },
        { stage: 'step-limit', phase: 'converting', timeoutMs: 2000 },
        { stage: 'step-wins', phase: 'converting', timeoutMs: 40 },
      ],
      { stageTimeoutMs: 40 },
    );
    store.add({ id: 'j', pipeline: 'p' });
    await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('failed');
    expect(store.jobs.get('j')!.stageProgress).toMatchObject({ 'provider-limit': 1, 'step-limit': 1 });
    expect(store.jobs.get('j')!.error).toMatchObject({
      code: 'stage_timeout',
      message: 'step-wins: took longer than 0.04 s',
      stage: 'step-wins',
    });
  });

  it('still re-queues a job interrupted by shutdown, through the same stage signal', async () => {
    const shutdown = new AbortController();
    const { store, runner } = await setup(
      [
        stage(
          'a',
          (ctx) =>
            new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new OperationalError('aborted', 'interrupted')))),
        ),
      ],
      undefined,
      { stageTimeoutMs: 5000 },
    );
    store.add({ id: 'j', pipeline: 'p' });
    setTimeout(() => shutdown.abort(), 20);
    await expect(runner.run('j', { attempt: 1, maxAttempts: 3, signal: shutdown.signal })).rejects.toBeInstanceOf(RetryLaterError);
    expect(store.jobs.get('j')!.status).toBe('queued');
  });

  it("re-queues a job interrupted by shutdown whose stage rethrows the signal's reason (an AbortError), and refunds nothing", async () => {
    const shutdown = new AbortController();
    const { store, runner } = await setup(
      [stage('a', (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))))],
      undefined,
      { stageTimeoutMs: 5000 },
    );
    store.add({ id: 'j', pipeline: 'p' });
    setTimeout(() => shutdown.abort(), 20);
    await expect(runner.run('j', { attempt: 1, maxAttempts: 3, signal: shutdown.signal })).rejects.toBeInstanceOf(RetryLaterError);
    expect(store.jobs.get('j')!.status).toBe('queued');
    expect(store.jobs.get('j')!.finishedAt ?? null).toBeNull();
  });

  describe('cancel', () => {
    const events = () => {
      const seen: string[] = [];
      return {
        seen,
        listeners: [
          {
            onFailed: async (j: { id: string }, e: { code: string }) => {
              seen.push(`${j.id}:${e.code}`);
            },
            onCompleted: async (j: { id: string }) => {
              seen.push(`${j.id}:done`);
            },
          },
        ],
      };
    };

    it('fails a job cancel-requested before it starts, without running a stage, and tells the listeners once', async () => {
      const ran = jest.fn(async () => 1);
      const { seen, listeners } = events();
      const { store, runner } = await setup([stage('a', ran)], undefined, { listeners });
      store.add({ id: 'j', pipeline: 'p', cancelRequested: true });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
      await expect(runner.run('j', { attempt: 2, maxAttempts: 3 })).resolves.toBe('skipped');
      expect(ran).not.toHaveBeenCalled();
      expect(store.jobs.get('j')!.error).toEqual({
        code: 'cancelled',
        message: "the job was cancelled at the client's request",
        retryable: false,
      });
      expect(seen).toEqual(['j:cancelled']);
    });

    it('skips a job that became final between being read and starting (cancelled while queued)', async () => {
      const ran = jest.fn(async () => 1);
      const { seen, listeners } = events();
      const { store, runner } = await setup([stage('a', ran)], undefined, { listeners });
      store.add({ id: 'j', pipeline: 'p' });
      const read = store.findRunnable.bind(store);
      jest.spyOn(store, 'findRunnable').mockImplementation(async (id) => {
        const job = await read(id);
        store.jobs.get(id)!.status = 'failed';
        return job;
      });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('skipped');
      expect(ran).not.toHaveBeenCalled();
      expect(seen).toEqual([]);
    });

    it('stops a running job within one poll of the cancel request: aborts the stage signal, runs no further stage, fails it once', async () => {
      let seen: AbortSignal | undefined;
      const after = jest.fn(async () => 2);
      const ev = events();
      const { store, runner } = await setup(
        [
          // Ignores its signal, as synchronous work would: the runner does not wait for it.
          stage('slow', (ctx) => {
            seen = ctx.signal;
            return new Promise(() => undefined);
          }),
          stage('after', after),
        ],
        undefined,
        { cancelPollMs: 20, listeners: ev.listeners },
      );
      store.add({ id: 'j', pipeline: 'p' });
      const started = Date.now();
      setTimeout(() => {
        store.jobs.get('j')!.cancelRequested = true;
      }, 50);
      await expect(runner.run('j', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(seen?.aborted).toBe(true);
      expect((seen?.reason as UserError).code).toBe('cancelled');
      expect(after).not.toHaveBeenCalled();
      expect(store.jobs.get('j')!).toMatchObject({ status: 'failed', error: { code: 'cancelled', retryable: false } });
      expect(ev.seen).toEqual(['j:cancelled']);
    });

    it('fails a cancelled job with cancelled, not retried, when its stage throws an operational error on the way out', async () => {
      const { store, runner } = await setup(
        [
          stage(
            'a',
            (ctx) =>
              new Promise((_, reject) =>
                ctx.signal.addEventListener('abort', () => reject(new OperationalError('aborted', 'interrupted'))),
              ),
          ),
        ],
        undefined,
        { cancelPollMs: 10 },
      );
      store.add({ id: 'j', pipeline: 'p' });
      setTimeout(() => {
        store.jobs.get('j')!.cancelRequested = true;
      }, 20);
      await expect(runner.run('j', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
      expect(store.jobs.get('j')!.error).toMatchObject({ code: 'cancelled' });
    });

    it('cancels a job it runs at once when told in-process, and knows no job it does not run', async () => {
      const ev = events();
      const { store, runner } = await setup(
        [stage('a', (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))))],
        undefined,
        { cancelPollMs: 60_000, listeners: ev.listeners },
      );
      store.add({ id: 'j', pipeline: 'p' });
      expect(runner.cancel('j')).toBe(false);
      const run = runner.run('j', { attempt: 1, maxAttempts: 1 });
      await new Promise((r) => setTimeout(r, 20));
      expect(runner.cancel('j')).toBe(true);
      await expect(run).resolves.toBe('failed');
      expect(store.jobs.get('j')!.error).toMatchObject({ code: 'cancelled' });
      expect(runner.cancel('j')).toBe(false);
      expect(ev.seen).toEqual(['j:cancelled']);
    });

    it('completes a job whose cancel request came too late, once the last stage has finished', async () => {
      const ev = events();
      const { store, runner } = await setup([stage('a', async () => 1)], undefined, { cancelPollMs: 10, listeners: ev.listeners });
      store.add({ id: 'j', pipeline: 'p' });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('completed');
      store.jobs.get('j')!.cancelRequested = true;
      await new Promise((r) => setTimeout(r, 30));
      expect(store.jobs.get('j')!.status).toBe('completed');
      expect(ev.seen).toEqual(['j:done']);
    });
  });

  it('fails a job whose pipeline is unknown', async () => {
    const { store, runner } = await setup([stage('a', async () => 1)]);
    store.add({ id: 'j', pipeline: 'nope' });
    await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('failed');
  });

  it('reads the input once through parseInput: the stages and listeners get what it returns; a refused input fails the job at once', async () => {
    const seen: unknown[] = [];
    const failed: unknown[] = [];
    const parseInput = jest.fn((job: { input: Record<string, unknown> }) => {
      if (typeof job.input.n !== 'number') throw new UserError('invalid_job_input', 'job input: n: must be a number', { param: 'n' });
      return { n: job.input.n, parsed: true };
    });
    const run = jest.fn(async (ctx: { job: { input: unknown } }) => void seen.push(ctx.job.input));
    const { store, runner } = await setup([stage('a', run), stage('b', run)], undefined, {
      parseInput,
      listeners: [{ onFailed: async (job) => void failed.push(job.input) }],
    });
    store.add({ id: 'ok', pipeline: 'p', input: { n: 1 } });
    await expect(runner.run('ok', { attempt: 1, maxAttempts: 3 })).resolves.toBe('completed');
    expect(seen).toEqual([
      { n: 1, parsed: true },
      { n: 1, parsed: true },
    ]);
    expect(parseInput).toHaveBeenCalledTimes(1);

    store.add({ id: 'bad', pipeline: 'p', input: { n: 'one' } });
    await expect(runner.run('bad', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
    expect(run).toHaveBeenCalledTimes(2);
    expect(store.jobs.get('bad')).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_job_input', message: 'job input: n: must be a number', retryable: false },
    });
    expect(failed).toEqual([{ n: 'one' }]);
  });
});

describe('progress and v1 view', () => {
  it('computes weighted progress', () => {
    const def = {
      id: 'p',
      steps: [
        { stage: 'a', phase: 'downloading' as const },
        { stage: 'b', phase: 'converting' as const, weight: 3 },
      ],
    };
    expect(computeProgress(def, {})).toBe(0);
    expect(computeProgress(def, { a: 1 })).toBe(25);
    expect(computeProgress(def, { a: 1, b: 0.5 })).toBe(62.5);
  });
  describe('metrics and scope', () => {
    const recorder = () => {
      const calls: string[] = [];
      const metrics = {
        ...NOOP_METRICS,
        jobFinished: (kind: string, outcome: string) => void calls.push(`${kind}:${outcome}`),
        stageFinished: (stage: string) => void calls.push(`stage:${stage}`),
      };
      return { calls, metrics };
    };

    it('counts outcomes (cancelled apart from failed) and successful stage runs', async () => {
      const { calls, metrics } = recorder();
      const { store, runner } = await setup(
        [
          stage('a', async () => ({})),
          stage('b', async (ctx) => {
            if (ctx.job.input.fail) throw new UserError('bad', 'no');
            return {};
          }),
        ],
        undefined,
        { metrics },
      );
      store.add({ id: 'ok', kind: 'k', pipeline: 'p' });
      store.add({ id: 'bad', kind: 'k', pipeline: 'p', input: { fail: true } });
      store.add({ id: 'gone', kind: 'k', pipeline: 'p', cancelRequested: true });
      await runner.run('ok', { attempt: 1, maxAttempts: 1 });
      await runner.run('bad', { attempt: 1, maxAttempts: 1 });
      await runner.run('gone', { attempt: 1, maxAttempts: 1 });
      expect(calls).toEqual(['stage:a', 'stage:b', 'k:completed', 'stage:a', 'k:failed', 'k:cancelled']);
    });

    it('runs the job and each stage inside the host scope, with the request id the job carries', async () => {
      const scopes: string[] = [];
      const { store, runner } = await setup([stage('a', async () => ({})), stage('b', async () => ({}))], undefined, {
        scope: (s, run) => {
          scopes.push(`${s.jobId}/${s.stage ?? '-'}/${s.requestId}`);
          return run();
        },
      });
      store.add({ id: 'j', kind: 'k', pipeline: 'p', requestId: 'req_1' });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('completed');
      expect(scopes).toEqual(['j/-/req_1', 'j/a/req_1', 'j/b/req_1']);
    });
  });

  it('maps v2 states onto v1', () => {
    expect(['queued', 'downloading', 'converting', 'uploading', 'completed', 'failed'].map((s) => toV1Status(s as never))).toEqual([
      'queued',
      'processing',
      'processing',
      'processing',
      'completed',
      'failed',
    ]);
  });

  describe('with work slots', () => {
    it("a job waits for its first stage's slot still queued; each stage holds the slot of its kind (phase, or the stage's own)", async () => {
      const slots = new WorkSlots({ cpu: 1, io: 4 });
      const seen: string[] = [];
      const note = (id: string) => async () => {
        const c = slots.counts();
        seen.push(`${id}:cpu${c.cpu.held}/io${c.io.held}`);
        return id;
      };
      const { store, runner } = await setup(
        [
          stage('dl', note('dl')),
          stage('enc', note('enc')),
          { id: 'thumbs', resource: 'cpu', run: note('thumbs') },
          stage('up', note('up')),
        ],
        [
          { stage: 'dl', phase: 'downloading' },
          { stage: 'enc', phase: 'converting' },
          { stage: 'thumbs', phase: 'uploading' },
          { stage: 'up', phase: 'uploading' },
        ],
        { slots },
      );
      store.add({ id: 'j', pipeline: 'p', ownerId: 'usr_a' });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('completed');
      expect(seen).toEqual(['dl:cpu0/io1', 'enc:cpu1/io0', 'thumbs:cpu1/io0', 'up:cpu0/io1']);
      expect(slots.counts()).toEqual({ cpu: { held: 0, waiting: 0 }, io: { held: 0, waiting: 0 } });

      // With the only CPU slot taken, a job whose first stage needs it is not started.
      const busy = await slots.acquire({ kind: 'cpu', group: 'other', order: 0 });
      const { store: s2, runner: r2 } = await setup([stage('enc', note('enc2'))], [{ stage: 'enc', phase: 'converting' }], { slots });
      s2.add({ id: 'k', pipeline: 'p', ownerId: 'usr_b' });
      const run = r2.run('k', { attempt: 1, maxAttempts: 1 });
      await new Promise((r) => setTimeout(r, 20));
      expect(s2.jobs.get('k')!.status).toBe('queued');
      busy();
      await expect(run).resolves.toBe('completed');
    });

    it('keeps its CPU slot into the next CPU stage while only its own account waits, and hands it over when another account waits', async () => {
      const slots = new WorkSlots({ cpu: 1, io: 4 });
      const log: string[] = [];
      let wake!: () => void;
      const firstDone = new Promise<void>((r) => (wake = r));
      const cpu = (id: string) =>
        stage(id, async (ctx) => {
          log.push(`${ctx.job.id}:${id}`);
          if (ctx.job.id === 'a1' && id === 'decode') {
            wake();
            await new Promise((r) => setTimeout(r, 20));
          }
          return id;
        });
      const { store, runner } = await setup(
        [cpu('decode'), cpu('encode')],
        [
          { stage: 'decode', phase: 'converting' },
          { stage: 'encode', phase: 'converting' },
        ],
        { slots },
      );
      store.add({ id: 'a1', pipeline: 'p', ownerId: 'usr_a' });
      store.add({ id: 'a2', pipeline: 'p', ownerId: 'usr_a' });
      store.add({ id: 'b1', pipeline: 'p', ownerId: 'usr_b' });
      const a1 = runner.run('a1', { attempt: 1, maxAttempts: 1 });
      await firstDone;
      const a2 = runner.run('a2', { attempt: 1, maxAttempts: 1 });
      await Promise.all([a1, a2]);
      // Only a1's own account waited: a1 finished both stages before a2 began.
      expect(log).toEqual(['a1:decode', 'a1:encode', 'a2:decode', 'a2:encode']);

      log.length = 0;
      store.add({ id: 'a1', pipeline: 'p', ownerId: 'usr_a' });
      const again = runner.run('a1', { attempt: 1, maxAttempts: 1 });
      await new Promise((r) => setTimeout(r, 5));
      const b = runner.run('b1', { attempt: 1, maxAttempts: 1 });
      await Promise.all([again, b]);
      // Another account waited at the stage boundary: it got the slot between a1's stages.
      expect(log).toEqual(['a1:decode', 'b1:decode', 'a1:encode', 'b1:encode']);
    });

    it('ctx.io lets other jobs use the CPU while a stage waits on the network, and takes the slot back after', async () => {
      const slots = new WorkSlots({ cpu: 1, io: 4 });
      let release!: () => void;
      const network = new Promise<void>((r) => (release = r));
      const during: number[] = [];
      const { store, runner } = await setup(
        [
          stage('poll', async (ctx) => {
            await ctx.io(async () => {
              during.push(slots.counts().cpu.held);
              await network;
            });
            return slots.counts().cpu.held;
          }),
        ],
        [{ stage: 'poll', phase: 'converting' }],
        { slots },
      );
      store.add({ id: 'j', pipeline: 'p', ownerId: 'usr_a' });
      const run = runner.run('j', { attempt: 1, maxAttempts: 1 });
      await new Promise((r) => setTimeout(r, 20));
      expect(during).toEqual([0]);
      // Another job's CPU work runs meanwhile.
      const other = await slots.acquire({ kind: 'cpu', group: 'usr_b', order: 99 });
      other();
      release();
      await expect(run).resolves.toBe('completed');
      expect(store.jobs.get('j')!.result).toEqual({ value: 1 });
      expect(slots.counts().cpu.held).toBe(0);
    });

    it('a stage past its time limit inside ctx.io does not keep the slot it takes back later', async () => {
      const slots = new WorkSlots({ cpu: 1, io: 1 });
      let release!: () => void;
      const network = new Promise<void>((r) => (release = r));
      let back = false;
      const { store, runner } = await setup(
        [
          stage('poll', async (ctx) => {
            await ctx.io(() => network);
            back = true;
            return 1;
          }),
        ],
        [{ stage: 'poll', phase: 'converting', timeoutMs: 30 }],
        { slots },
      );
      store.add({ id: 'j', pipeline: 'p', ownerId: 'usr_a' });
      await expect(runner.run('j', { attempt: 1, maxAttempts: 1 })).resolves.toBe('failed');
      expect(store.jobs.get('j')!.error).toMatchObject({ code: 'stage_timeout' });
      release();
      await new Promise((r) => setTimeout(r, 20));
      expect(back).toBe(true);
      expect(slots.counts().cpu).toEqual({ held: 0, waiting: 0 });
    });
  });
});
