import { createContainer, definePlugin, PipelineRegistry, registerPipeline, registerStage } from '@app/pipeline';
import type { QueueHandler } from '@app/queue';
import { MemoryJobStore } from '@app/testing';
import { JobWorkerService } from './job-worker.service';

/**
 * The worker as it consumes the queue, with stand-ins for the queue, the database and the metrics: each job's
 * stored input is parsed once with its kind's schema before the first stage (libs/runtime parseJobInput).
 */
async function worker() {
  const seen: unknown[] = [];
  const container = createContainer();
  const registry = await PipelineRegistry.boot(container, [
    definePlugin({
      name: 'fake',
      register(c) {
        registerStage(c, { id: 'look', run: async (ctx) => void seen.push(ctx.job.input) });
        registerPipeline(c, { id: 'still-image', steps: [{ stage: 'look', phase: 'converting' }] });
      },
    }),
  ]);
  const store = Object.assign(new MemoryJobStore(), { ping: async () => undefined });
  let handler: QueueHandler | undefined;
  const queue = {
    driver: 'fake',
    consume: async (h: QueueHandler) => void (handler = h),
    stop: async () => undefined,
  };
  const config = {
    worker: { concurrency: 2, ioConcurrency: 2, maxJobs: 2, accountMaxRunningJobs: 2, stageTimeoutMs: 10_000, shutdownTimeoutMs: 100 },
  };
  const metrics = { observeSlots: () => undefined, jobFinished: () => undefined, stageFinished: () => undefined };
  const svc = new JobWorkerService(config as never, queue as never, registry, container, store as never, metrics as never);
  await svc.onApplicationBootstrap();
  const run = (jobId: string) => handler!({ jobId, attempt: 1, maxAttempts: 3, signal: new AbortController().signal });
  return { store, seen, run };
}

describe('JobWorkerService', () => {
  it('hands the stages the input parsed with its kind’s schema, as stored', async () => {
    const { store, seen, run } = await worker();
    const input = { image_url: 'https://cdn.example/a.jpg', frame: 'thin', title: ' Dunes ', width_inches: 24, height_inches: 18 };
    store.add({ id: 'api_ok', kind: 'v1.convert', pipeline: 'still-image', input });
    await run('api_ok');
    expect(store.jobs.get('api_ok')!.status).toBe('completed');
    expect(seen).toEqual([input]);
  });

  it('fails a job whose stored input its schema refuses, with a message naming the field, before any stage runs', async () => {
    const { store, seen, run } = await worker();
    store.add({
      id: 'v2_rebuild',
      kind: 'v2.picture',
      pipeline: 'still-image',
      input: { upload_key: 'models/v2_a/model.glb', rebuild: { item_id: 'twelve', from_job: 'v2_a' } },
    });
    store.add({ id: 'v2_garbage', kind: 'v2.picture', pipeline: 'still-image', input: ['not', 'an', 'object'] as never });
    await run('v2_rebuild');
    await run('v2_garbage');
    expect(seen).toEqual([]);
    expect(store.jobs.get('v2_rebuild')).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_job_input', message: 'job input: rebuild.item_id: must be a whole number', retryable: false },
    });
    expect(store.jobs.get('v2_garbage')).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_job_input', message: 'job input: must be an object' },
    });
  });
});
