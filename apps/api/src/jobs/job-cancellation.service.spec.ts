import type { JobEntity, JobRepository } from '@app/persistence';
import { createContainer, JOB_LISTENER, type JobListener } from '@app/pipeline';
import type { JobWorkerService } from '@apps/worker';
import { ApiError } from '../http/api-error';
import { JobCancellation } from './job-cancellation.service';

/** The cancel use case with in-memory stand-ins (the routes, with a real worker, are in test/cancel.e2e-spec.ts). */
function setup(outcome: 'failed' | 'requested' | 'final', opts: { worker?: boolean } = {}) {
  const job = {
    id: 'v2_abc',
    kind: 'v2.animated-ar',
    pipeline: 'animated-ar',
    status: 'queued',
    ownerId: 'u1',
    input: {},
    attempts: 0,
  } as unknown as JobEntity;
  const failed: string[] = [];
  const listener: JobListener = {
    onFailed: async (j, e) => {
      failed.push(`${j.id}:${e.code}`);
    },
  };
  const container = createContainer();
  container.register(JOB_LISTENER, { useValue: listener });
  let status = outcome === 'requested' ? 'converting' : outcome === 'failed' ? 'failed' : 'completed';
  const repo = {
    requestCancel: jest.fn(async () => outcome),
    find: async () => ({ ...job, status }),
  } as unknown as JobRepository;
  const worker = {
    cancel: jest.fn(() => {
      status = 'failed';
      return true;
    }),
  } as unknown as JobWorkerService;
  const service = new JobCancellation(repo, container, opts.worker ? worker : undefined);
  return { job, failed, repo, worker, service };
}

describe('JobCancellation', () => {
  it('a queued job: failed by the request itself, the listeners (refund, callback) told once', async () => {
    const { job, failed, repo, service } = setup('failed');
    await expect(service.cancel(job)).resolves.toMatchObject({ status: 'failed' });
    expect(repo.requestCancel).toHaveBeenCalledWith('v2_abc', expect.objectContaining({ code: 'cancelled', retryable: false }));
    expect(failed).toEqual(['v2_abc:cancelled']);
  });

  it('a running job: only marked, the listeners left to the worker that stops it', async () => {
    const { job, failed, service } = setup('requested');
    await expect(service.cancel({ ...job, status: 'converting' } as JobEntity)).resolves.toMatchObject({ status: 'converting' });
    expect(failed).toEqual([]);
  });

  it('a job running in this process (embedded mode): its worker is told at once', async () => {
    const { job, failed, worker, service } = setup('requested', { worker: true });
    await expect(service.cancel({ ...job, status: 'converting' } as JobEntity)).resolves.toMatchObject({ status: 'failed' });
    expect(worker.cancel).toHaveBeenCalledWith('v2_abc');
    expect(failed).toEqual([]);
  });

  it('a finished job, or one that finished meanwhile: 409 job_finished, nothing told', async () => {
    const { job, failed, repo, service } = setup('final');
    await expect(service.cancel({ ...job, status: 'completed' } as JobEntity)).rejects.toMatchObject({
      status: 409,
      type: 'conflict',
      code: 'job_finished',
    });
    expect(repo.requestCancel).not.toHaveBeenCalled();
    await expect(service.cancel(job)).rejects.toBeInstanceOf(ApiError);
    expect(failed).toEqual([]);
  });
});
