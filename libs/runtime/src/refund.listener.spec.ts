import {
  createContainer,
  definePlugin,
  OperationalError,
  PipelineRegistry,
  PipelineRunner,
  registerPipeline,
  registerStage,
  UserError,
  type RunnableJob,
} from '@app/pipeline';
import { ANIMATED_AR_PIPELINE } from '@app/plugins';
import type { AccountRepository } from '@app/persistence';
import { MemoryJobStore } from '@app/testing';
import { RefundOnFailure } from './refund.listener';

/** The ledger as the listener needs it: refunds counted per job, at most once (like the unique index). */
class FakeLedger {
  refunded = new Map<string, number>();
  partial: string[] = [];
  async refundJob(jobId: string) {
    if (this.refunded.has(jobId)) return 0;
    this.refunded.set(jobId, 1350);
    return 1350;
  }
  async refund(jobId: string, purpose: string) {
    this.partial.push(`${jobId}:${purpose}`);
    return null;
  }
}

/** The animated AR pipeline with every stage stubbed; `failing` throws `error`. */
async function setup(failing: string, error: Error) {
  const container = createContainer();
  const plugin = definePlugin({
    name: 'stubs',
    register(c) {
      for (const step of ANIMATED_AR_PIPELINE.steps) {
        registerStage(c, {
          id: step.stage,
          run: async () => {
            if (step.stage === failing) throw error;
            return { ai_motion_skipped: false };
          },
        });
      }
      registerPipeline(c, ANIMATED_AR_PIPELINE);
    },
  });
  const registry = await PipelineRegistry.boot(container, [plugin]);
  const store = new MemoryJobStore();
  const ledger = new FakeLedger();
  const runner = new PipelineRunner({
    registry,
    store,
    log: { info: () => {}, warn: () => {}, error: () => {} },
    listeners: [new RefundOnFailure(ledger as unknown as AccountRepository)],
  });
  store.add({ id: 'v2_job', kind: 'v2.animated-ar', pipeline: 'animated-ar', ownerId: 'usr_1' });
  return { runner, store, ledger };
}

describe('animated AR: a failure in any stage refunds the up-front charge exactly once', () => {
  it.each(ANIMATED_AR_PIPELINE.steps.map((s) => s.stage))('fails in %s', async (stage) => {
    const { runner, store, ledger } = await setup(stage, new UserError('injected', 'injected failure'));
    await expect(runner.run('v2_job', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
    expect(store.jobs.get('v2_job')).toMatchObject({
      status: 'failed',
      error: { code: 'injected', stage, message: `${stage}: injected failure` },
    });
    // A replayed message (e.g. after a crash) neither runs the job again nor refunds twice.
    await expect(runner.run('v2_job', { attempt: 2, maxAttempts: 3 })).resolves.toBe('skipped');
    expect([...ledger.refunded.keys()]).toEqual(['v2_job']);
  });

  it('an operational error is retried first and refunded only when the attempts run out', async () => {
    const { runner, ledger } = await setup('motion', new OperationalError('provider_busy', 'motion: the provider is busy'));
    await expect(runner.run('v2_job', { attempt: 1, maxAttempts: 2 })).rejects.toThrow('retry later');
    expect(ledger.refunded.size).toBe(0);
    await expect(runner.run('v2_job', { attempt: 2, maxAttempts: 2 })).resolves.toBe('failed');
    expect(ledger.refunded.size).toBe(1);
  });

  it('a bug fails the job with a generic message and refunds too', async () => {
    const { runner, store, ledger } = await setup('flipbook-writer', new TypeError('x is undefined'));
    await expect(runner.run('v2_job', { attempt: 1, maxAttempts: 3 })).resolves.toBe('failed');
    expect((store.jobs.get('v2_job')!.error as { message: string }).message).not.toContain('x is undefined');
    expect(ledger.refunded.size).toBe(1);
  });

  it('a completed job whose source was already animated gets the AI part back', async () => {
    const ledger = new FakeLedger();
    const l = new RefundOnFailure(ledger as unknown as AccountRepository);
    const job = {
      id: 'v2_a',
      kind: 'v2.animated-ar',
      pipeline: 'animated-ar',
      status: 'completed' as const,
      ownerId: 'u',
      input: {},
      attempts: 1,
    } satisfies RunnableJob;
    await l.onCompleted(job, { ai_motion_skipped: true });
    await l.onCompleted({ ...job, id: 'v2_b' }, { ai_motion_skipped: false });
    expect(ledger.partial).toEqual(['v2_a:animated-ar.ai_motion', 'v2_a:animated-ar.model_surcharge']);
  });
});
