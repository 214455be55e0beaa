import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  Api,
  type AppProcess,
  createTestDatabase,
  freePort,
  REDIS_URL,
  ROOT,
  sleep,
  spawnApp,
  tempDir,
  waitFor,
  waitHealthy,
  writeConfigFile,
} from './support/app-process';
import { startFakeProviders } from '@app/testing';
import { startMediaServer } from './support/media-server';
import { testCertificate } from './support/tls';

const OWNER = 'owner-key-for-cancel-e2e-tests-0123';
const TRIVIAL = join(ROOT, 'test/fixtures/plugins/trivial.plugin.js');
const TEST_MOTION = join(ROOT, 'test/fixtures/plugins/test-motion.plugin.js');

/** v1 jobs run the trivial stage: it waits `delayMs`, or less when its signal is aborted. */
function config(dir: string, delayMs: number): string {
  return writeConfigFile(dir, {
    plugins: [TRIVIAL, TEST_MOTION],
    pluginOptions: { trivial: { delayMs, abortable: true }, 'test-motion': { slowMs: 120_000 } },
    pipelines: { 'v1.convert': 'trivial' },
  });
}

const v2Final = (api: Api, jobId: string, ms = 10_000) =>
  waitFor(
    async () => {
      const r = await api.req('GET', `/api/v2/jobs/${jobId}`);
      return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
    },
    ms,
    `job ${jobId} to finish`,
  );

describe('cancel, embedded mode (one worker slot: a second job waits in the queue)', () => {
  let app: AppProcess;
  let owner: Api;
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  let hooks: { base: string; received: { body: any }[]; server: Server };
  /** The app's TMPDIR: per-job temp folders (ar-job-*) live there while a video is decoded. */
  const tmp = tempDir('cancel-tmp-');

  beforeAll(async () => {
    const tls = testCertificate();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="#f2f2f2"/><circle cx="80" cy="60" r="40" fill="#c0392b"/></svg>';
    media = await startMediaServer(
      {
        '/subject.jpg': await sharp(Buffer.from(svg)).jpeg().toBuffer(),
        '/clip.mp4': readFileSync(join(ROOT, 'test/fixtures/media/clip-city-2s.mp4')),
      },
      { tls },
    );
    const received: { body: any }[] = [];
    const server = createHttpsServer(tls, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body: JSON.parse(body) });
        res.writeHead(204);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hooks = { base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };

    const port = await freePort();
    const dir = tempDir();
    app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dir,
      OWNER_API_KEY: OWNER,
      // One job at a time (one job place, one CPU slot): a second job waits in the queue, whatever its first stage.
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '1',
      WORKER_MAX_JOBS: '1',
      CONFIG_FILE: config(dir, 6000),
      NODE_EXTRA_CA_CERTS: tls.certPath,
      MOTION_LOOP_S: '1',
      MOTION_FPS: '4',
      ANIMATION_MAX_FRAME_PX: '128',
      TMPDIR: tmp,
    });
    await waitHealthy(`http://127.0.0.1:${port}`, app);
    owner = new Api(`http://127.0.0.1:${port}`, OWNER);
  });
  afterAll(async () => {
    await app?.kill('SIGKILL');
    await media?.stop();
    if (hooks) await new Promise((r) => hooks.server.close(r));
  });

  async function newUser(email: string, credits: number) {
    const u = await owner.req('POST', '/api/admin/users', { email, credits });
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    return new Api(owner.base, k.body.key);
  }

  it('v1: a queued job never starts (200, failed at once); a running one stops within 2 s; another account gets 404; a finished one 409', async () => {
    const running = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' })).body.job_id;
    const queued = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/b.png' })).body.job_id;
    await owner.waitStatus(running, ['processing']);
    expect((await owner.req('GET', `/api/v1/status/${queued}`)).body.status).toBe('queued');

    const stranger = await newUser('stranger@example.com', 0);
    const foreign = await stranger.req('POST', `/api/v1/jobs/${queued}/cancel`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ type: 'not_found' });
    expect((await owner.req('POST', '/api/v1/jobs/api_nosuchjob/cancel')).status).toBe(404);

    const q = await owner.req('POST', `/api/v1/jobs/${queued}/cancel`);
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ job_id: queued, status: 'failed', progress: 0, error: { code: 'cancelled' } });

    const asked = Date.now();
    const r = await owner.req('POST', `/api/v1/jobs/${running}/cancel`);
    expect([200, 202]).toContain(r.status);
    expect(r.body.job_id).toBe(running);
    if (r.status === 202) expect(r.body.status).toBe('processing');
    const stopped = await owner.waitStatus(running, ['completed', 'failed'], 5000);
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });

    // The slot is free again and the cancelled queued job was skipped: a new job runs to completion.
    const next = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/c.png' })).body.job_id;
    const again = await owner.req('POST', `/api/v1/jobs/${running}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: 'conflict', code: 'job_finished' });
    expect(await owner.waitStatus(next, ['completed', 'failed'], 20_000)).toMatchObject({ status: 'completed' });
    expect((await owner.req('GET', `/api/v1/status/${queued}`)).body).toMatchObject({
      status: 'failed',
      progress: 0,
      error: { code: 'cancelled' },
    });
    const done = await owner.req('POST', `/api/v1/jobs/${next}/cancel`);
    expect(done.status).toBe(409);
    expect(done.body.error).toMatchObject({ type: 'conflict', code: 'job_finished' });
    expect((await owner.req('GET', `/api/v1/status/${next}`)).body.status).toBe('completed');
  });

  it('documents both cancel routes in the OpenAPI description: 200 final at once, 202 stopping, 404, 409', async () => {
    const doc = await (await fetch(`${owner.base}/openapi.json`)).json();
    for (const path of ['/api/v1/jobs/{jobId}/cancel', '/api/v2/jobs/{jobId}/cancel']) {
      expect(Object.keys(doc.paths[path].post.responses).sort()).toEqual(expect.arrayContaining(['200', '202', '404', '409']));
    }
  });

  it('v2, billed: queued and running animated AR jobs cancelled; every charge line refunded once, one callback each', async () => {
    const api = await newUser('canceller@example.com', 40);
    const body = { image_url: `${media.base}/subject.jpg`, video_model: 'test:slow', callback_url: `${hooks.base}/hook` };
    const running = await api.req('POST', '/api/v2/animated-ar', body);
    const queued = await api.req('POST', '/api/v2/animated-ar', body);
    expect([running.status, queued.status]).toEqual([202, 202]);
    expect((await api.req('GET', '/api/v2/me')).body.credits).toBe(40 - 2 * 13.5);
    await waitFor(
      async () => (await api.req('GET', `/api/v2/jobs/${running.body.job_id}`)).body.status === 'converting',
      20_000,
      'the motion stage',
    );

    const q = await api.req('POST', `/api/v2/jobs/${queued.body.job_id}/cancel`);
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ job_id: queued.body.job_id, status: 'failed', error: { code: 'cancelled' } });
    expect((await owner.req('POST', `/api/v2/jobs/${queued.body.job_id}/cancel`)).status).toBe(404);

    const asked = Date.now();
    const r = await api.req('POST', `/api/v2/jobs/${running.body.job_id}/cancel`);
    expect([200, 202]).toContain(r.status);
    const stopped = await v2Final(api, running.body.job_id, 5000);
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect((await api.req('POST', `/api/v2/jobs/${running.body.job_id}/cancel`)).status).toBe(409);

    await waitFor(async () => (await api.req('GET', '/api/v2/me')).body.credits === 40, 10_000, 'the refunds');
    await waitFor(async () => hooks.received.length >= 2, 15_000, 'two callbacks');
    await sleep(1500); // a second delivery or refund, if any, would land by now
    const usage = (await api.req('GET', '/api/v2/usage')).body.data;
    for (const id of [queued.body.job_id, running.body.job_id]) {
      const lines = usage.filter((e: any) => e.job_id === id);
      const charges = lines.filter((e: any) => e.kind === 'charge');
      const refunds = lines.filter((e: any) => e.kind === 'refund');
      expect(charges.length).toBeGreaterThan(0);
      expect(refunds).toHaveLength(charges.length);
      expect(refunds.reduce((s: number, e: any) => s + e.amount, 0)).toBe(charges.reduce((s: number, e: any) => s + e.amount, 0));
      const deliveries = hooks.received.filter((h) => h.body.job_id === id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    }
    expect((await api.req('GET', '/api/v2/me')).body.credits).toBe(40);
    expect((await api.req('GET', `/api/v2/jobs/${running.body.job_id}`)).body).toMatchObject({
      credits_refunded: 13.5,
      net_credits_charged: 0,
    });
  });

  it('v2: a video job cancelled during background removal (real ffmpeg decode, real model in its worker) stops within 2 s, refunded, temp folder gone', async () => {
    const api = await newUser('video-canceller@example.com', 40);
    const created = await api.req('POST', '/api/v2/animated-ar', { video_url: `${media.base}/clip.mp4`, remove_background: true });
    expect(created.status).toBe(202);
    const charged = 40 - (await api.req('GET', '/api/v2/me')).body.credits;
    expect(charged).toBeGreaterThan(0);
    // Past download, decode and (skipped) motion: the model is loading or running on the first keyframe.
    await waitFor(
      async () => {
        const j = (await api.req('GET', `/api/v2/jobs/${created.body.job_id}`)).body;
        return j.status === 'converting' && j.progress >= 50;
      },
      30_000,
      'the background-removal stage',
    );
    const asked = Date.now();
    const r = await api.req('POST', `/api/v2/jobs/${created.body.job_id}/cancel`);
    expect([200, 202]).toContain(r.status);
    const stopped = await v2Final(api, created.body.job_id, 5000);
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    await waitFor(async () => (await api.req('GET', '/api/v2/me')).body.credits === 40, 10_000, 'the refund');
    expect(readdirSync(tmp).filter((n) => n.startsWith('ar-job-'))).toEqual([]);
  });
});

describe('cancel, scaled mode (API and worker in separate processes: the worker notices the mark)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const apps: AppProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
  });
  afterAll(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    await db?.drop();
  });

  it('202 while running, then failed with cancelled within 2 s', async () => {
    const dir = tempDir();
    const port = await freePort();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: db.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `e2e-cancel-${Date.now()}-${Math.random()}`,
      CONFIG_FILE: config(dir, 20_000),
      HOST: '127.0.0.1',
    };
    const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    apps.push(api);
    await waitHealthy(`http://127.0.0.1:${port}`, api);
    apps.push(spawnApp('worker', env));
    const owner = new Api(`http://127.0.0.1:${port}`, OWNER);
    const job = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' })).body.job_id;
    await owner.waitStatus(job, ['processing'], 40_000);
    const asked = Date.now();
    const r = await owner.req('POST', `/api/v1/jobs/${job}/cancel`);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ job_id: job, status: 'processing' });
    const stopped = await owner.waitStatus(job, ['completed', 'failed'], 5000);
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
  });
});

describe('cancel of a hosted motion operation', () => {
  it("stops polling and calls the provider's cancel endpoint (Replicate fake)", async () => {
    const tls = testCertificate();
    const fakes = await startFakeProviders();
    const media = await startMediaServer({}, { tls });
    const port = await freePort();
    const dir = tempDir();
    const app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dir,
      OWNER_API_KEY: OWNER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      NODE_EXTRA_CA_CERTS: tls.certPath,
      MOTION_POLL_INTERVAL_MS: '100',
      MOTION_LOOP_S: '1',
      MOTION_FPS: '4',
      ANIMATION_MAX_FRAME_PX: '128',
      CONFIG_FILE: writeConfigFile(dir, {
        motion: { models: [{ id: 'replicate:kwaivgi/kling-v2.1', display_name: 'Kling', image_field: 'start_image' }] },
      }),
      ...fakes.env(),
    });
    try {
      await waitHealthy(`http://127.0.0.1:${port}`, app);
      const owner = new Api(`http://127.0.0.1:${port}`, OWNER);
      fakes.replicate.plan({ polls: 100_000 });
      const job = await owner.req('POST', '/api/v2/animated-ar', {
        image_url: `${media.base}/street.jpg`,
        video_model: 'replicate:kwaivgi/kling-v2.1',
      });
      expect(job.status).toBe(202);
      await waitFor(
        async () => fakes.replicate.requests.filter((r) => r.method === 'GET').length >= 2,
        20_000,
        'the operation to be polled',
      );
      const asked = Date.now();
      const r = await owner.req('POST', `/api/v2/jobs/${job.body.job_id}/cancel`);
      expect([200, 202]).toContain(r.status);
      expect(await v2Final(owner, job.body.job_id, 5000)).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
      expect(Date.now() - asked).toBeLessThan(2000);
      await waitFor(
        async () => fakes.replicate.requests.some((q) => q.method === 'POST' && q.path.endsWith('/cancel')),
        5000,
        'the cancel call',
      );
      expect([...fakes.replicate.operations.values()].every((op) => op.cancelled)).toBe(true);
      const polls = fakes.replicate.requests.filter((q) => q.method === 'GET').length;
      await sleep(500);
      expect(fakes.replicate.requests.filter((q) => q.method === 'GET').length).toBe(polls);
    } finally {
      await app.kill('SIGKILL');
      await fakes.stop();
      await media.stop();
    }
  });
});
