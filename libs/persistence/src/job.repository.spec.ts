import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { createDataSource, JobRepository, MIGRATIONS, WebhookRepository } from './index';

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres()],
])('JobRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let repo: JobRepository;

  beforeAll(async () => {
    ({ ds, drop } = await open());
    repo = new JobRepository(ds);
  });
  afterAll(() => drop());

  it('ran the migration set', async () => {
    const rows: { name: string }[] = await ds.query('SELECT name FROM migrations');
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    expect(rows[0].name).toBe('CreateJobs1763683200000');
  });

  it('creates jobs with unguessable prefixed ids and reads them back', async () => {
    const a = await repo.create({
      kind: 'v1.convert',
      pipeline: 'still-image',
      ownerId: 'u1',
      input: { image_url: 'https://x/y.png', n: 1 },
      idPrefix: 'api',
    });
    const b = await repo.create({ kind: 'v2.item', pipeline: 'still-image', ownerId: 'u1', input: {}, idPrefix: 'v2' });
    expect(a.id).toMatch(/^api_[a-z2-7]{24}$/);
    expect(b.id).toMatch(/^v2_[a-z2-7]{24}$/);
    const back = await repo.find(a.id);
    expect(back).toMatchObject({
      kind: 'v1.convert',
      status: 'queued',
      progress: 0,
      input: { image_url: 'https://x/y.png', n: 1 },
      result: null,
      attempts: 0,
    });
    expect(back!.createdAt).toBeInstanceOf(Date);
  });

  it("reads many jobs' inputs in one query; unknown ids are left out", async () => {
    const a = await repo.create({ kind: 'k', pipeline: 'p', ownerId: 'u1', input: { width_inches: 20 }, idPrefix: 'v2' });
    const b = await repo.create({ kind: 'k', pipeline: 'p', ownerId: 'u1', input: { frame: 'thin' }, idPrefix: 'v2' });
    const got = await repo.inputs([a.id, b.id, a.id, 'v2_nope']);
    expect(got).toEqual(
      new Map<string, Record<string, unknown>>([
        [a.id, { width_inches: 20 }],
        [b.id, { frame: 'thin' }],
      ]),
    );
    expect(await repo.inputs([])).toEqual(new Map());
  });

  it('scopes jobs to their owner', async () => {
    const a = await repo.create({ kind: 'k', pipeline: 'p', ownerId: 'alice', input: {}, idPrefix: 'api' });
    expect(await repo.findForOwner(a.id, 'alice')).not.toBeNull();
    expect(await repo.findForOwner(a.id, 'bob')).toBeNull();
  });

  it('updates status, progress, result and error, and never changes a final job', async () => {
    const j = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    expect(
      await repo.update(j.id, {
        status: 'converting',
        progress: 42.5,
        stageProgress: { fetch: 1, normalise: 0.5 },
        attempts: 1,
        startedAt: new Date(),
      }),
    ).toBe(true);
    let r = await repo.find(j.id);
    expect(r).toMatchObject({ status: 'converting', progress: 42.5, stageProgress: { fetch: 1, normalise: 0.5 }, attempts: 1 });
    expect(
      await repo.update(j.id, {
        status: 'completed',
        progress: 100,
        result: { glb: 'a.glb', nested: { x: [1, 2] } },
        finishedAt: new Date(),
      }),
    ).toBe(true);
    expect(await repo.update(j.id, { status: 'failed', error: { code: 'x', message: 'x', retryable: false } })).toBe(false);
    r = await repo.find(j.id);
    expect(r).toMatchObject({ status: 'completed', progress: 100, result: { glb: 'a.glb', nested: { x: [1, 2] } }, error: null });
    expect(r!.finishedAt).toBeInstanceOf(Date);
  });

  it('rejects an impossible state at the database', async () => {
    const j = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    await expect(repo.update(j.id, { status: 'bogus' as never })).rejects.toThrow();
  });

  it('lists unfinished jobs for recovery', async () => {
    const j = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    await repo.update(j.id, { status: 'downloading' });
    const ids = await repo.listUnfinishedIds();
    expect(ids).toContain(j.id);
    const done = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    await repo.update(done.id, { status: 'failed' });
    expect(await repo.listUnfinishedIds()).not.toContain(done.id);
  });

  it('handles concurrent writers', async () => {
    const jobs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: { i }, idPrefix: 'v2' })),
    );
    await Promise.all(jobs.map((j, i) => repo.update(j.id, { progress: i })));
    const back = await Promise.all(jobs.map((j) => repo.find(j.id)));
    expect(back.map((b) => b!.progress)).toEqual(jobs.map((_, i) => i));
  });

  it('creates a fixed-id job once, however often asked', async () => {
    const id = `cb_${Date.now()}_completed`;
    expect(await repo.createOnce(id, { kind: 'callback', pipeline: 'callback', ownerId: 'o', input: { job_id: 'x' } })).toBe(true);
    expect(await repo.createOnce(id, { kind: 'callback', pipeline: 'callback', ownerId: 'o', input: { job_id: 'y' } })).toBe(false);
    expect((await repo.find(id))!.input).toEqual({ job_id: 'x' });
  });

  it('gives public pages an unguessable id and finds jobs by it', async () => {
    const j = await repo.create({ kind: 'v1.convert', pipeline: 'p', ownerId: 'o', input: {}, idPrefix: 'api', withPublicPage: true });
    expect(j.publicId).toMatch(/^emb_[a-z2-7]{24}$/);
    expect((await repo.findByPublicId(j.publicId!))!.id).toBe(j.id);
    const webhooks = new WebhookRepository(ds);
    const s1 = await webhooks.secretFor('owner-a');
    expect(s1).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    expect(await Promise.all([webhooks.secretFor('owner-a'), webhooks.secretFor('owner-a')])).toEqual([s1, s1]);
    expect(await webhooks.secretFor('owner-b')).not.toBe(s1);
    await webhooks.record({
      jobId: j.id,
      webhookId: 'msg_1',
      event: 'completed',
      url: 'https://x',
      attempt: 1,
      statusCode: 500,
      error: null,
      durationMs: 12,
      succeeded: false,
    });
    expect((await webhooks.listForJob(j.id)).map((d) => d.statusCode)).toEqual([500]);
  });

  it('cancels a queued job at once, marks a running one for its worker, and leaves a final one alone', async () => {
    const error = { code: 'cancelled', message: 'cancelled', retryable: false };
    const queued = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    expect((await repo.findRunnable(queued.id))!.cancelRequested).toBe(false);
    expect(await repo.requestCancel(queued.id, error)).toBe('failed');
    expect(await repo.find(queued.id)).toMatchObject({
      status: 'failed',
      error,
      cancelRequestedAt: expect.any(Date),
      finishedAt: expect.any(Date),
    });
    expect(await repo.requestCancel(queued.id, error)).toBe('final');

    const running = await repo.create({ kind: 'k', pipeline: 'p', ownerId: null, input: {}, idPrefix: 'api' });
    await repo.update(running.id, { status: 'converting' });
    expect(await repo.isCancelRequested(running.id)).toBe(false);
    expect(await repo.requestCancel(running.id, error)).toBe('requested');
    const first = (await repo.find(running.id))!.cancelRequestedAt;
    expect(await repo.requestCancel(running.id, error)).toBe('requested');
    expect((await repo.find(running.id))!.cancelRequestedAt).toEqual(first);
    expect(await repo.find(running.id)).toMatchObject({ status: 'converting', error: null });
    expect(await repo.isCancelRequested(running.id)).toBe(true);
    expect((await repo.findRunnable(running.id))!.cancelRequested).toBe(true);
    expect(await repo.requestCancel('api_missing', error)).toBe('missing');
  });

  it("stores the id of the request that created a job, for the worker's log lines, and reports the oldest queued job", async () => {
    let requestId: string | undefined = 'req_abc';
    const charged: number[] = [];
    const hooked = new JobRepository(ds, { requestId: () => requestId, charged: (c) => charged.push(c) });
    const a = await hooked.create({ kind: 'v1.convert', pipeline: 'still-image', ownerId: 'u1', input: {}, idPrefix: 'api' });
    expect((await hooked.findRunnable(a.id))!.requestId).toBe('req_abc');
    expect(await hooked.createOnce(`cb_${a.id}_completed`, { kind: 'callback', pipeline: 'callback', ownerId: 'u1', input: {} })).toBe(
      true,
    );
    expect((await hooked.findRunnable(`cb_${a.id}_completed`))!.requestId).toBe('req_abc');
    requestId = undefined;
    const b = await hooked.create({ kind: 'v1.convert', pipeline: 'still-image', ownerId: 'u1', input: {}, idPrefix: 'api' });
    expect((await hooked.findRunnable(b.id))!).not.toHaveProperty('requestId');
    // No price lines, nothing charged, nothing counted.
    await hooked.createCharged({ kind: 'v1.convert', pipeline: 'still-image', ownerId: 'u1', input: {}, idPrefix: 'api' }, null);
    expect(charged).toEqual([]);
    const oldest = await hooked.oldestQueuedAt();
    expect(oldest).toBeInstanceOf(Date);
    expect(Date.now() - oldest!.getTime()).toBeLessThan(10 * 60_000);
  });

  it('lists jobs for operators by status, owner and age, and puts only a failed job back to queued', async () => {
    const owner = `adm${Date.now()}`;
    const a = await repo.create({ kind: 'v1.convert', pipeline: 'p', ownerId: owner, input: {}, idPrefix: 'api' });
    // PGlite's clock has millisecond steps: two jobs created in the same one tie on created_at, and the
    // tie goes by (random) id. Apart in time, "newest first" is what is tested.
    await new Promise((r) => setTimeout(r, 5));
    const b = await repo.create({ kind: 'v1.convert', pipeline: 'p', ownerId: owner, input: {}, idPrefix: 'api' });
    expect((await repo.listForAdmin({ ownerId: owner, limit: 10 })).map((j) => j.id)).toEqual([b.id, a.id]);
    expect(await repo.listForAdmin({ ownerId: owner, since: new Date(Date.now() + 60_000), limit: 10 })).toEqual([]);
    expect(await repo.requeueFailed(a.id)).toBe(false);
    await repo.saveCheckpoint(a.id, 'op', { id: 'x' });
    await repo.requestCancel(a.id, { code: 'cancelled', message: 'cancelled', retryable: false });
    expect((await repo.listForAdmin({ ownerId: owner, status: 'failed', limit: 10 })).map((j) => j.id)).toEqual([a.id]);
    expect(await repo.countByStatus()).toMatchObject({ failed: expect.any(Number), queued: expect.any(Number) });
    expect(await repo.requeueFailed(a.id)).toBe(true);
    // Checkpoints stay: a stage resumes what it can (e.g. a hosted operation already paid for).
    expect(await repo.find(a.id)).toMatchObject({
      status: 'queued',
      error: null,
      result: null,
      progress: 0,
      attempts: 0,
      finishedAt: null,
      cancelRequestedAt: null,
      checkpoints: { op: { id: 'x' } },
    });
    expect(await repo.requeueFailed(a.id)).toBe(false);
    const oldest = await repo.oldestQueued();
    expect(oldest?.createdAt).toBeInstanceOf(Date);
    expect(oldest!.createdAt.getTime()).toBeLessThanOrEqual(a.createdAt.getTime());
  });

  it("lists an owner's jobs newest first by status and kind, paging through jobs created in the same microsecond", async () => {
    const owner = `lister-${Date.now()}`;
    await repo.create({ kind: 'v1.convert', pipeline: 'p', ownerId: 'someone-else', input: {}, idPrefix: 'api' });
    const older = await repo.create({ kind: 'v1.convert', pipeline: 'p', ownerId: owner, input: {}, idPrefix: 'api' });
    await repo.createOnce(`cb_${owner}`, { kind: 'callback', pipeline: 'callback', ownerId: owner, input: {} });
    // One transaction: created_at is the transaction's now(), the same for all three (a showcase's pictures).
    const same: string[] = [];
    await ds.transaction(async (m) => {
      for (let i = 0; i < 3; i++) {
        const id = `v2_same${i}${owner.replace(/[^a-z0-9]/g, '')}`;
        await m.query(`INSERT INTO "jobs" ("id", "kind", "pipeline", "owner_id", "input") VALUES ($1, 'v2.picture', 'p', $2, '{}')`, [
          id,
          owner,
        ]);
        same.push(id);
      }
    });
    await ds.query(`UPDATE "jobs" SET "status" = 'failed' WHERE "id" = $1`, [older.id]);
    const seen: string[] = [];
    let after: { createdUs: string; id: string } | undefined;
    for (;;) {
      const page = await repo.listForOwner(owner, { limit: 2, after });
      seen.push(...page.slice(0, 1).map((r) => r.job.id));
      if (page.length < 2) break;
      after = page[0].position;
    }
    expect(seen).toEqual([...[...same].sort().reverse(), older.id]);
    expect((await repo.listForOwner(owner, { status: 'failed', limit: 10 })).map((r) => r.job.id)).toEqual([older.id]);
    expect((await repo.listForOwner(owner, { kinds: ['v2.picture'], limit: 10 })).map((r) => r.job.kind)).toEqual([
      'v2.picture',
      'v2.picture',
      'v2.picture',
    ]);
  });

  it('answers ping', async () => {
    await expect(repo.ping()).resolves.toBeUndefined();
  });
});

it('PGlite keeps data on disk across restarts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgl-'));
  const ds1 = await createDataSource({ dataDir: dir });
  const j = await new JobRepository(ds1).create({ kind: 'k', pipeline: 'p', ownerId: null, input: { keep: true }, idPrefix: 'api' });
  await ds1.destroy();
  const ds2 = await createDataSource({ dataDir: dir });
  expect(await new JobRepository(ds2).find(j.id)).toMatchObject({ input: { keep: true } });
  await ds2.destroy();
});
