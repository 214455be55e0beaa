import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { Api, type AppProcess, createTestDatabase, freePort, ROOT, spawnApp, tempDir, waitFor, waitHealthy } from './support/app-process';
import { startMediaServer } from './support/media-server';

// Fair share with the real still-image pipeline and the default slots (2 CPU, 16 I/O, 18 jobs, 9 per
// account): one account's sources that never answer, or its many slow 12 MP pictures, must not keep
// another account's small job waiting.
const OWNER = 'owner-key-fair-share-0123456789';
const MODES = ['embedded', 'scaled'] as const;

async function newUser(owner: Api, email: string): Promise<Api> {
  const u = await owner.req('POST', '/api/admin/users', { email, credits: 0 });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  expect(k.status).toBe(201);
  return new Api(owner.base, k.body.key);
}

async function statuses(api: Api, ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await api.req('GET', `/api/v1/status/${id}`)).body.status as string));
}

describe.each(MODES)('fair share across accounts (%s mode)', (mode) => {
  const apps: AppProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  let owner: Api;

  beforeAll(async () => {
    // A 12 MP photograph (4000 x 3000), as a gallery's scans are.
    const big = await sharp(readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')))
      .resize(4000, 3000, { fit: 'fill' })
      .jpeg({ quality: 90 })
      .toBuffer();
    media = await startMediaServer({ '/big.jpg': big });
    cleanups.push(() => media.stop());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      DATA_DIR: tempDir(),
      OWNER_API_KEY: OWNER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      PUBLIC_BASE_URL: base,
    };
    if (mode === 'scaled') {
      const db = await createTestDatabase({ migrated: true });
      cleanups.push(() => db.drop());
      Object.assign(env, {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        QUEUE_NAME: `fair-${process.pid}-${Date.now()}`,
      });
      const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
      apps.push(api);
      await waitHealthy(base, api);
      const worker = spawnApp('worker', env);
      apps.push(worker);
      await waitFor(async () => /consuming bull queue/.test(worker.output()), 30_000, `worker consuming\n${worker.output()}`);
    } else {
      const api = spawnApp('api', { ...env, PORT: String(port) });
      apps.push(api);
      await waitHealthy(base, api);
    }
    owner = new Api(base, OWNER);
  });

  afterAll(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });

  it("another account's job completes within 10 s while one account has 40 jobs whose sources never answer", async () => {
    const stuck = await newUser(owner, `stuck-${mode}@example.com`);
    const small = await newUser(owner, `small-${mode}@example.com`);
    const stuckJobs: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await stuck.req('POST', '/api/v1/convert', { image_url: `${media.base}/hang?n=${i}` });
      expect(r.status).toBe(202);
      stuckJobs.push(r.body.job_id);
    }
    // The stuck account holds its share of the worker (9 of 18 jobs), all of them waiting on downloads.
    await waitFor(
      async () => (await statuses(stuck, stuckJobs)).filter((s) => s === 'processing').length === 9,
      20_000,
      "the stuck account's share to be running",
    );

    const t0 = Date.now();
    const r = await small.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect(r.status).toBe(202);
    const done = await small.waitStatus(r.body.job_id, ['completed', 'failed'], 20_000);
    const ms = Date.now() - t0;
    expect(done.status).toBe('completed');
    expect(ms).toBeLessThan(10_000);
    // Never more than its share running, and nothing of it finished (its sources still hang).
    const now = await statuses(stuck, stuckJobs);
    expect(now.filter((s) => s === 'processing').length).toBeLessThanOrEqual(9);
    expect(now.filter((s) => s === 'completed')).toHaveLength(0);

    // Free the worker for the next case: cancel them all (queued ones at once, running ones within a second).
    for (const id of stuckJobs) expect([200, 202]).toContain((await stuck.req('POST', `/api/v1/jobs/${id}/cancel`)).status);
    await waitFor(async () => (await statuses(stuck, stuckJobs)).every((s) => s === 'failed'), 20_000, 'the stuck jobs to be cancelled');
  });

  it("another account's job completes within 10 s while one account has 40 slow 12 MP conversions", async () => {
    const busy = await newUser(owner, `busy-${mode}@example.com`);
    const small = await newUser(owner, `small2-${mode}@example.com`);
    const busyJobs: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await busy.req('POST', '/api/v1/convert', { image_url: `${media.base}/big.jpg?n=${i}` });
      expect(r.status).toBe(202);
      busyJobs.push(r.body.job_id);
    }
    // Its conversions are under way (both CPU slots busy with 12 MP pictures).
    await waitFor(
      async () => (await statuses(busy, busyJobs)).filter((s) => s === 'processing').length >= 2,
      20_000,
      "the busy account's conversions to run",
    );

    const t0 = Date.now();
    const r = await small.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect(r.status).toBe(202);
    const done = await small.waitStatus(r.body.job_id, ['completed', 'failed'], 30_000);
    const ms = Date.now() - t0;
    expect(done.status).toBe('completed');
    expect(ms).toBeLessThan(10_000);
    // The busy account's backlog was still there when the small job finished: it did not just wait its turn.
    const left = await statuses(busy, busyJobs);
    expect(left.filter((s) => s === 'queued' || s === 'processing').length).toBeGreaterThan(10);
  });
});
