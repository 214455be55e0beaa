import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { parseArgs, runAdminCli } from '../apps/cli/src/admin-cli';
import { Api, tempDir, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { quadrantPicture, startS3, S3_TEST_CREDENTIALS } from '@app/testing';

const OWNER = 'owner-key-for-retention-e2e-tests';
let media: Awaited<ReturnType<typeof startMediaServer>>;
let wide: Buffer;

beforeAll(async () => {
  wide = (await quadrantPicture(300, 200)).png;
  media = await startMediaServer({ '/wide.png': wide });
});
afterAll(() => media.stop());

/** A storage backend under test: the app's env for it, and every key it holds now (read behind the app's back). */
interface Backend {
  env: Record<string, string>;
  keys: () => Promise<string[]>;
  stop: () => Promise<void>;
}

const backends: [string, (dataDir: string) => Promise<Backend>][] = [
  [
    'local storage',
    async (dataDir) => ({
      env: {},
      keys: async () => {
        const root = join(dataDir, 'storage');
        try {
          return readdirSync(root, { recursive: true, withFileTypes: true })
            .filter((d) => d.isFile() && !d.name.endsWith('.meta') && !d.name.startsWith('.'))
            .map((d) => relative(root, join(d.parentPath, d.name)));
        } catch {
          return [];
        }
      },
      stop: async () => undefined,
    }),
  ],
  [
    'S3-compatible storage (s3rver)',
    async () => {
      const s3 = await startS3('retention');
      const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
      return {
        env: {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: s3.bucket,
          S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
          S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
        },
        keys: async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key!),
        stop: async () => {
          client.destroy();
          await s3.stop();
        },
      };
    },
  ],
];

describe.each(backends)('retention and deletion with %s', (_name, makeBackend) => {
  let backend: Backend;
  let dataDir: string;
  let app: TestApp | undefined;
  let owner: Api;

  async function start(extra: Record<string, string> = {}) {
    app = await startServiceApp(OWNER, {
      DATA_DIR: dataDir,
      JOB_RETRY_BASE_MS: '100',
      FETCH_TIMEOUT_MS: '60000',
      ...backend.env,
      ...extra,
    });
    owner = new Api(app.base, OWNER);
  }

  beforeAll(async () => {
    dataDir = tempDir();
    backend = await makeBackend(dataDir);
    await start();
  });
  afterAll(async () => {
    await app?.close();
    await backend.stop();
  });

  async function newUser(email: string) {
    const u = await owner.req('POST', '/api/admin/users', { email, credits: 100, showcase_slots: 2 });
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    return { id: u.body.id as string, api: new Api(owner.base, k.body.key) };
  }

  /** A showcase with one picture by URL and one uploaded (its source copy is stored too), both converted. */
  async function showcaseWithTwo(api: Api) {
    const r = await api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/wide.png`] });
    expect(r.status).toBe(201);
    const f = new FormData();
    f.append('files', new Blob([new Uint8Array(wide)], { type: 'image/png' }), 'wide.png');
    const up = await fetch(`${api.base}/api/v2/showcases/${r.body.id}/items`, {
      method: 'POST',
      headers: { 'x-api-key': api.key },
      body: f,
    });
    expect(up.status).toBe(202);
    const done = await waitFor(
      async () => {
        const s = await api.req('GET', `/api/v2/showcases/${r.body.id}`);
        return s.body.items.length === 2 && s.body.items.every((i: any) => i.status === 'completed') ? s.body : undefined;
      },
      60_000,
      'showcase items to complete',
    );
    return { id: r.body.id as number, items: done.items as any[] };
  }

  const jobKeys = async (jobId: string) => (await backend.keys()).filter((k) => k.includes(jobId));

  it('DELETE /api/v2/jobs/{id} removes a finished job and every file of it; its embed pages and files answer 410', async () => {
    const u = await newUser(`del-job-${Date.now()}@example.com`);
    const stranger = await newUser(`stranger-${Date.now()}@example.com`);
    const uploadsBefore = (await backend.keys()).filter((k) => k.startsWith('uploads/')).length;
    const sc = await showcaseWithTwo(u.api);
    const [byUrl, byUpload] = sc.items;
    expect((await backend.keys()).filter((k) => k.startsWith('uploads/')).length).toBe(uploadsBefore + 1);
    for (const item of sc.items)
      expect(await jobKeys(item.job_id)).toEqual(
        expect.arrayContaining([expect.stringMatching(/model\.glb$/), expect.stringMatching(/model\.usdz$/)]),
      );
    for (const url of [byUrl.embed_url, byUrl.glb_url]) expect((await fetch(url)).status).toBe(200);
    // Every stored file can be deleted: shared caches keep it an hour, not a year as immutable.
    expect((await fetch(byUrl.glb_url)).headers.get('cache-control')).toBe('public, max-age=3600');

    // Another account's job is not there for it.
    const foreign = await stranger.api.req('DELETE', `/api/v2/jobs/${byUrl.job_id}`);
    expect(foreign.status).toBe(404);
    expect(await jobKeys(byUrl.job_id)).not.toEqual([]);

    for (const item of [byUrl, byUpload]) expect((await u.api.req('DELETE', `/api/v2/jobs/${item.job_id}`)).status).toBe(204);
    for (const item of [byUrl, byUpload]) expect(await jobKeys(item.job_id)).toEqual([]);
    // The uploaded source copy is gone too.
    expect((await backend.keys()).filter((k) => k.startsWith('uploads/')).length).toBe(uploadsBefore);

    expect((await u.api.req('GET', `/api/v2/jobs/${byUrl.job_id}`)).status).toBe(404);
    expect((await u.api.req('DELETE', `/api/v2/jobs/${byUrl.job_id}`)).status).toBe(404);
    expect((await fetch(byUrl.embed_url)).status).toBe(410);
    expect((await fetch(byUrl.embed_url_static)).status).toBe(410);
    if (byUrl.glb_url.startsWith(owner.base)) {
      const file = await owner.req('GET', new URL(byUrl.glb_url).pathname);
      expect(file).toMatchObject({ status: 410, body: { error: { code: 'resource_deleted' } } });
      // A thumbnail a showcase page made on request and wrote after the delete (the race the pages guard
      // against) is never served: every key of a deleted job answers 410, file or no file.
      const late = `models/${byUrl.job_id}/thumb-480.webp`;
      mkdirSync(join(dataDir, 'storage', dirname(late)), { recursive: true });
      writeFileSync(join(dataDir, 'storage', late), 'RIFF late thumbnail');
      const served = await fetch(`${owner.base}/files/${late}`);
      expect(served.status).toBe(410);
      expect((await served.json()).error.code).toBe('resource_deleted');
    } else {
      expect((await fetch(byUrl.glb_url)).status).toBe(404);
    }
    expect((await u.api.req('GET', `/api/v2/showcases/${sc.id}`)).body.items).toEqual([]);
  });

  it('refuses to delete a running job (409), and the admin CLI deletes a user with all their data', async () => {
    const u = await newUser(`del-user-${Date.now()}@example.com`);
    const sc = await showcaseWithTwo(u.api);
    // A job that stays in its download (the media server never answers /hang).
    const more = await u.api.req('POST', `/api/v2/showcases/${sc.id}/items`, { image_urls: [`${media.base}/hang`] });
    expect(more.status).toBe(202);
    const running = more.body.queued_jobs[0].job_id;
    await waitFor(
      async () => ((await u.api.req('GET', `/api/v2/jobs/${running}`)).body.status === 'downloading' ? true : undefined),
      30_000,
      'job to start',
    );
    const refused = await u.api.req('DELETE', `/api/v2/jobs/${running}`);
    expect(refused).toMatchObject({ status: 409, body: { error: { type: 'conflict', code: 'job_not_finished' } } });
    const busy = await owner.req('DELETE', `/api/admin/users/${u.id}`);
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'user_has_active_jobs' } } });
    await u.api.req('POST', `/api/v2/jobs/${running}/cancel`);
    await waitFor(
      async () => ((await u.api.req('GET', `/api/v2/jobs/${running}`)).body.status === 'failed' ? true : undefined),
      30_000,
      'job to be cancelled',
    );

    const out: string[] = [];
    const code = await runAdminCli(
      parseArgs(['users', 'delete', u.id]),
      { apiUrl: owner.base, ownerKey: OWNER },
      { out: (s) => out.push(s), err: (s) => out.push(s) },
    );
    expect({ code, out }).toEqual({ code: 0, out: ['done'] });

    for (const item of sc.items) expect(await jobKeys(item.job_id)).toEqual([]);
    expect((await fetch(sc.items[0].embed_url)).status).toBe(410);
    expect((await u.api.req('GET', '/api/v2/me')).status).toBe(401);
    // The ledger entries are kept, but under a pseudonym: nothing is found under the user's id any more.
    expect((await owner.req('GET', `/api/admin/users/${u.id}/usage`)).body.data).toEqual([]);
    expect((await owner.req('GET', '/api/admin/users')).body.data.map((x: any) => x.id)).not.toContain(u.id);
    expect((await owner.req('DELETE', `/api/admin/users/${u.id}`)).status).toBe(404);
  });

  it('RETENTION_DAYS: the worker purges finished jobs and their files once they are older than that', async () => {
    const u = await newUser(`retained-${Date.now()}@example.com`);
    const sc = await showcaseWithTwo(u.api);
    for (const item of sc.items) expect(await jobKeys(item.job_id)).not.toEqual([]);
    // Restart with a retention of ~0.9 s, swept every second: both jobs are past it by the first sweep.
    await app!.close();
    await start({ RETENTION_DAYS: '0.00001', RETENTION_SWEEP_INTERVAL_S: '1', RETENTION_BATCH_SIZE: '1' });
    await waitFor(
      async () => {
        const left = (await Promise.all(sc.items.map((i) => jobKeys(i.job_id)))).flat();
        return left.length === 0 ? true : undefined;
      },
      30_000,
      'retention to purge the files',
    );
    const api = new Api(owner.base, u.api.key); // the restarted app listens elsewhere
    // Both rows, not the second alone: a sweep takes one job (RETENTION_BATCH_SIZE 1), oldest first, and under load
    // the two pictures may finish in either order (a CI run saw the first one's embed still 200 after the second's row went).
    await waitFor(
      async () =>
        (await Promise.all(sc.items.map((i) => api.req('GET', `/api/v2/jobs/${i.job_id}`)))).every((r) => r.status === 404)
          ? true
          : undefined,
      10_000,
      'the rows to go',
    );
    expect((await fetch(`${owner.base}${new URL(sc.items[0].embed_url).pathname}`)).status).toBe(410);
    // The account itself stays: only finished jobs expire.
    expect((await api.req('GET', '/api/v2/me')).status).toBe(200);
  });
});
