import { join } from 'node:path';
import { Api, type AppProcess, freePort, ROOT, spawnApp, tempDir, waitFor, waitHealthy, writeConfigFile } from './support/app-process';
import { startMediaServer } from './support/media-server';
import { validateGlb, startWebDav } from '@app/testing';
import { testCertificate } from './support/tls';

/**
 * The plugin SDK: the three example packages under examples/ (a motion model, a storage backend, a
 * pricing policy) loaded by the running service purely through CONFIG_FILE — no code change.
 */
const OWNER = 'owner-key-for-plugin-sdk-e2e-tests';
// A spawned process, not the in-process test app: the service must trust the test's https certificate, and Node
// reads NODE_EXTRA_CA_CERTS only when a process starts.
let app: AppProcess;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let dav: Awaited<ReturnType<typeof startWebDav>>;
let owner: Api;
let base: string;

beforeAll(async () => {
  const tls = testCertificate();
  media = await startMediaServer({}, { tls });
  dav = await startWebDav({ username: 'ar-service', password: 'dav-password-123' });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = tempDir('plugin-sdk-');
  const config = writeConfigFile(dataDir, {
    plugins: [join(ROOT, 'examples/motion-tilt')],
    pluginOptions: { 'motion-tilt': { degrees: 5, displayName: 'Gentle tilt' } },
    storage: {
      module: join(ROOT, 'examples/storage-webdav'),
      options: { url: dav.url, username: 'ar-service', password: 'dav-password-123' },
    },
    pricing: {
      policy: join(ROOT, 'examples/pricing-model-tiers'),
      options: { ai_motion: { default: 12.5, 'tilt:*': 3, procedural: 4 }, background_removal: 2 },
    },
  });
  app = spawnApp('api', {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DATA_DIR: dataDir,
    OWNER_API_KEY: OWNER,
    ALLOW_PRIVATE_NETWORKS: 'true',
    CONFIG_FILE: config,
    NODE_EXTRA_CA_CERTS: tls.certPath,
    MOTION_LOOP_S: '2',
    MOTION_FPS: '8',
    ANIMATION_MAX_FRAME_PX: '256',
  });
  await waitHealthy(base, app);
  owner = new Api(base, OWNER);
});
afterAll(async () => {
  await app?.kill('SIGKILL');
  await media?.stop();
  await dav?.stop();
});

async function newUser(email: string, credits: number): Promise<Api> {
  const u = await owner.req('POST', '/api/admin/users', { email, credits });
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  return new Api(owner.base, k.body.key);
}

describe('example plugins loaded by CONFIG_FILE', () => {
  it('the motion model is listed with its display name, priced by the custom policy', async () => {
    const r = await owner.req('GET', '/api/v2/animated-ar/options');
    expect(r.body.video_models).toContainEqual(
      expect.objectContaining({ id: 'tilt:gentle', display_name: 'Gentle tilt', provider: 'tilt' }),
    );
    // Default model (procedural): bake 1 + AI 4 (+ background removal 2).
    expect(r.body.pricing).toMatchObject({ image: 5, image_with_background_removal: 7, video: 1, video_with_background_removal: 3 });
  });

  it('a job animated by the example model, charged by the example policy, stored on WebDAV by the example backend', async () => {
    const api = await newUser('sdk@example.com', 10);
    const r = await api.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/street.jpg`, video_model: 'tilt:gentle' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      credits_charged: 4,
      pricing: {
        lines: [
          { item: 'bake', credits: 1 },
          { item: 'ai_motion', credits: 3 },
        ],
        total: 4,
      },
    });
    const job = await waitFor(
      async () => {
        const j = await api.req('GET', `/api/v2/jobs/${r.body.job_id}`);
        return j.body.status === 'completed' || j.body.status === 'failed' ? j.body : undefined;
      },
      90_000,
      'the job to finish',
    );
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ motion: { video_model: 'tilt:gentle' }, net_credits_charged: 4 });
    // The example model renders 16 frames; loop "auto" may trim its seam (docs/ar-output.md).
    expect(job.result.frames.count).toBeGreaterThanOrEqual(11);
    expect(job.result.frames.count).toBeLessThanOrEqual(16);
    expect(job.result.animation.seam_score).toBeLessThanOrEqual(1.5);
    // Files live on the WebDAV server; the service serves them at /files/ by reading them back.
    const stored = [...dav.files.keys()].filter((k) => k.includes(r.body.job_id));
    expect(stored.some((k) => k.endsWith('.glb'))).toBe(true);
    expect(stored.some((k) => k.endsWith('.usdz'))).toBe(true);
    expect(job.result.glb_url.startsWith(`${base}/files/`)).toBe(true);
    const glb = Buffer.from(await (await fetch(job.result.glb_url)).arrayBuffer());
    const key = job.result.glb_url.slice(`${base}/files/`.length);
    expect(glb.equals(dav.files.get(key)!.bytes)).toBe(true);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    expect((await api.req('GET', '/api/v2/me')).body.credits).toBe(6);
  });
});
