import { Api, type AppProcess, freePort, spawnApp, tempDir, waitFor, waitHealthy, writeConfigFile } from './support/app-process';
import { type FakeProviderId, type FakeProviders, startFakeProviders, validateGlb } from '@app/testing';
import { startMediaServer } from './support/media-server';
import { testCertificate } from './support/tls';

/**
 * The five hosted motion adapters through the running service: the service is pointed at local fakes
 * of the providers' APIs purely by configuration (keys and base URLs in the environment, models in
 * CONFIG_FILE), as an operator would point it at the real ones.
 */
const OWNER = 'owner-key-for-hosted-motion-e2e';
const MODELS: Record<FakeProviderId, { id: string; display_name: string }> = {
  replicate: { id: 'replicate:kwaivgi/kling-v2.1', display_name: 'Kling 2.1 on Replicate' },
  runway: { id: 'runway:gen4_turbo', display_name: 'Runway Gen-4 Turbo' },
  luma: { id: 'luma:ray-2', display_name: 'Luma Ray 2' },
  fal: { id: 'fal:fal-ai/kling-video/v2.1/standard/image-to-video', display_name: 'Kling 2.1 on fal' },
  veo: { id: 'veo:veo-3.0-fast-generate-001', display_name: 'Veo 3 Fast' },
};
const PROVIDERS = Object.keys(MODELS) as FakeProviderId[];

let fakes: FakeProviders;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let app: AppProcess;
let env: Record<string, string>;
let owner: Api;
let port: number;

beforeAll(async () => {
  const tls = testCertificate();
  fakes = await startFakeProviders();
  media = await startMediaServer({}, { tls });
  port = await freePort();
  const dataDir = tempDir('hosted-e2e-');
  const config = writeConfigFile(dataDir, {
    motion: { models: PROVIDERS.map((p) => (p === 'replicate' ? { ...MODELS[p], image_field: 'start_image' } : MODELS[p])) },
    // Per-model surcharge through the pricing policy.
    pricing: { policy: 'default', options: { model_surcharges: { 'runway:gen4_turbo': 5, 'veo:veo-3.0-fast-generate-001': 7.5 } } },
  });
  env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    OWNER_API_KEY: OWNER,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_RETRY_BASE_MS: '100',
    CONFIG_FILE: config,
    NODE_EXTRA_CA_CERTS: tls.certPath,
    MOTION_LOOP_S: '2',
    MOTION_FPS: '8',
    ANIMATION_MAX_FRAME_PX: '256',
    MOTION_POLL_INTERVAL_MS: '100',
    WORKER_CONCURRENCY: '5',
    ...fakes.env(),
  };
  app = spawnApp('api', env);
  await waitHealthy(`http://127.0.0.1:${port}`, app);
  owner = new Api(`http://127.0.0.1:${port}`, OWNER);
});
afterAll(async () => {
  await app?.kill('SIGKILL');
  await fakes?.stop();
  await media?.stop();
});
beforeEach(() => fakes.all.forEach((f) => f.reset()));

async function newUser(email: string, credits: number): Promise<Api> {
  const u = await owner.req('POST', '/api/admin/users', { email, credits });
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  return new Api(owner.base, k.body.key);
}
const finished = (api: Api, jobId: string, ms = 90_000) =>
  waitFor(
    async () => {
      const r = await api.req('GET', `/api/v2/jobs/${jobId}`);
      return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
    },
    ms,
    `job ${jobId} to finish`,
  );
const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;
const price = (p: FakeProviderId) => 13.5 + (p === 'runway' ? 5 : p === 'veo' ? 7.5 : 0);

describe('operators: hosted models enabled by configuration', () => {
  it('the options endpoint lists every enabled model with its display name, the providers and the surcharged prices', async () => {
    const r = await owner.req('GET', '/api/v2/animated-ar/options');
    expect(r.status).toBe(200);
    for (const p of PROVIDERS)
      expect(r.body.video_models).toContainEqual(
        expect.objectContaining({ id: MODELS[p].id, display_name: MODELS[p].display_name, provider: p }),
      );
    expect(r.body.video_providers).toEqual(PROVIDERS.map((id) => ({ id, enabled: true })));
    const user = await newUser('options@example.com', 0);
    const runway = await user.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/street.jpg`, video_model: MODELS.runway.id });
    expect(runway.status).toBe(402);
    expect(runway.body.error.message).toContain('18.5');
  });

  it('a model listed for a provider whose key is missing stops the start with a message naming the variable', async () => {
    const dir = tempDir('hosted-e2e-bad-');
    const config = writeConfigFile(dir, { motion: { models: [{ id: 'luma:ray-2' }] } });
    const bad = spawnApp('api', { ...env, PORT: String(await freePort()), DATA_DIR: dir, CONFIG_FILE: config, LUMAAI_API_KEY: '' });
    const code = await waitFor(async () => bad.proc.exitCode ?? undefined, 20_000, 'the process to exit').catch(async () =>
      bad.kill('SIGKILL'),
    );
    expect(code).not.toBe(0);
    expect(bad.output()).toContain('LUMAAI_API_KEY: required by the luma models in CONFIG_FILE motion.models (luma:ray-2)');
  });
});

describe.each(PROVIDERS)('a still animated by %s', (p) => {
  it('completes through rate limits: one operation, the video copied and baked, charged the model price', async () => {
    const api = await newUser(`ok-${p}@example.com`, 30);
    fakes[p].plan({ rateLimitCreate: 1, rateLimitPoll: 1, polls: 3 });
    const r = await api.req('POST', '/api/v2/animated-ar', {
      image_url: `${media.base}/street.jpg`,
      video_model: MODELS[p].id,
      motion_style: 'orbit',
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ video_model: MODELS[p].id, credits_charged: price(p) });
    const job = await finished(api, r.body.job_id);
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ source_kind: 'image', motion: { video_model: MODELS[p].id }, net_credits_charged: price(p) });
    // The fixture clip (1.7 s) decoded at MOTION_FPS 8 (12-16 frames); loop "auto" may cut it at the best
    // loop point within the last third, and then it loops without a visible jump.
    expect(job.result.frames.count).toBeGreaterThanOrEqual(8);
    expect(job.result.frames.count).toBeLessThanOrEqual(16);
    expect(job.result.animation).toMatchObject({ frames: job.result.frames.count, loop: 'auto' });
    expect(job.result.animation.seam_score).toBeLessThanOrEqual(1.5);
    expect((await validateGlb(Buffer.from(await (await fetch(job.result.glb_url)).arrayBuffer()))).numErrors).toBe(0);
    // One create refused with 429, then one operation.
    expect(fakes[p].creates).toHaveLength(2);
    expect(fakes[p].operations.size).toBe(1);
    expect(
      String(
        (fakes[p].creates[0].body as any)?.prompt ??
          (fakes[p].creates[0].body as any)?.promptText ??
          (fakes[p].creates[0].body as any)?.input?.prompt ??
          (fakes[p].creates[0].body as any)?.instances?.[0]?.prompt,
      ),
    ).toMatch(/circles slowly/);
    expect(await balance(api)).toBe(30 - price(p));
  });

  it("fails with the provider's reason when the operation fails, and refunds the charge", async () => {
    const api = await newUser(`fail-${p}@example.com`, 30);
    fakes[p].plan({ polls: 0, outcome: 'moderated' });
    const r = await api.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/street.jpg`, video_model: MODELS[p].id });
    const job = await finished(api, r.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ stage: 'motion', code: 'motion_moderated' });
    expect(job.error.message).toMatch(/^motion: /);
    await waitFor(async () => (await balance(api)) === 30, 10_000, 'refund');
  });
});

describe('a restart mid-poll', () => {
  it('resumes all five operations from their checkpoints: each created once, charged once, completed', async () => {
    const api = await newUser('restart@example.com', 200);
    for (const p of PROVIDERS) fakes[p].plan({ polls: 12 });
    const jobs: Record<string, string> = {};
    for (const p of PROVIDERS) {
      const r = await api.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/street.jpg`, video_model: MODELS[p].id });
      expect(r.status).toBe(202);
      jobs[p] = r.body.job_id;
    }
    // Every operation created and polled at least once, none finished: kill the process.
    await waitFor(
      async () => PROVIDERS.every((p) => [...fakes[p].operations.values()].some((o) => o.polls >= 1)),
      60_000,
      'all five polling',
    );
    await app.kill('SIGKILL');
    for (const p of PROVIDERS) expect([...fakes[p].operations.values()][0].polls).toBeLessThan(12);
    app = spawnApp('api', env);
    await waitHealthy(`http://127.0.0.1:${port}`, app);
    for (const p of PROVIDERS) {
      const job = await finished(api, jobs[p]);
      expect(job.status).toBe('completed');
      expect(fakes[p].creates).toHaveLength(1);
    }
    const total = PROVIDERS.reduce((s, p) => s + price(p), 0);
    expect(await balance(api)).toBe(200 - total);
  });
});
