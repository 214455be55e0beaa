import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Api, type AppProcess, createTestDatabase, freePort, REDIS_URL, spawnApp, tempDir, waitHealthy } from './support/app-process';
import { startMediaServer } from './support/media-server';

/**
 * docs/operations.md "Backups and moving to scaled mode": the embedded mode's backup is a copy of DATA_DIR
 * taken while the service is stopped. A fresh process on the copy (another folder, another port) finds
 * the jobs with their results, serves their files, and accepts the owner key generated before.
 */
describe('embedded backup: restore a copy of DATA_DIR', () => {
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  const apps: AppProcess[] = [];

  async function start(dataDir: string): Promise<{ app: AppProcess; base: string }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // No OWNER_API_KEY: the key generated on first start lives in DATA_DIR and must come back with it.
    const app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_NETWORKS: 'true',
    });
    apps.push(app);
    await waitHealthy(base, app);
    return { app, base };
  }

  const bytes = async (url: string) => {
    const r = await fetch(url);
    return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
  };

  beforeAll(async () => {
    media = await startMediaServer();
  });

  afterAll(async () => {
    for (const app of apps) await app.kill();
    await media?.stop();
  });

  it('finds the completed job, its result, its files and the accounts on a fresh process', async () => {
    const original = tempDir('backup-original-');
    const first = await start(original);
    const key = readFileSync(join(original, 'owner-api-key'), 'utf8').trim();
    const api = new Api(first.base, key);
    const created = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, aspect_ratio: '3:2' });
    expect(created.status).toBe(202);
    const jobId = created.body.job_id as string;
    await api.waitStatus(jobId, ['completed', 'failed'], 60_000);
    const before = (await api.req('GET', `/api/v1/result/${jobId}`)).body;
    expect(before.status).toBe('completed');
    const glbBefore = await bytes(before.models.glb.url);
    expect(glbBefore.status).toBe(200);
    const user = (await api.req('POST', '/api/admin/users', { email: 'backup@example.com', credits: 7.5 })).body;

    // Stopped first: PGlite's files are only consistent while no process has them open.
    // (Nest re-raises SIGTERM after its shutdown hooks: the process ends by the signal, not an exit code.)
    await first.app.kill('SIGTERM');
    expect(first.app.proc.exitCode !== null || first.app.proc.signalCode !== null).toBe(true);
    const copy = join(tempDir('backup-copy-'), 'data');
    cpSync(original, copy, { recursive: true, preserveTimestamps: true });
    expect(readdirSync(copy).sort()).toEqual(expect.arrayContaining(['owner-api-key', 'pglite', 'storage']));

    const restored = await start(copy);
    const again = new Api(restored.base, key);
    expect((await again.req('GET', `/api/v1/status/${jobId}`)).body).toMatchObject({ job_id: jobId, status: 'completed', progress: 100 });
    const after = (await again.req('GET', `/api/v1/result/${jobId}`)).body;
    // The same result, its URLs built for where the service runs now.
    expect(after.dimensions).toEqual(before.dimensions);
    expect(after.models.glb.url).toBe(before.models.glb.url.replace(first.base, restored.base));
    const glbAfter = await bytes(after.models.glb.url);
    expect(glbAfter.status).toBe(200);
    expect(glbAfter.body.equals(glbBefore.body)).toBe(true);
    expect((await bytes(after.models.usdz.url)).status).toBe(200);
    const usage = await again.req('GET', `/api/admin/users/${user.id}/usage`);
    expect(usage.status).toBe(200);
    expect((await again.req('POST', `/api/admin/users/${user.id}/credits`, { amount: 2.5 })).body).toEqual({ balance: 10 });
  });
});

/**
 * The scaled mode's backup as docs/operations.md gives it: `pg_dump` of the running service's database,
 * then the files, restored with `pg_restore` into an empty database. Local storage on a shared DATA_DIR
 * stands in for the bucket here (its copy is the S3 tools' job).
 */
describe('Postgres backup: pg_dump / pg_restore', () => {
  const OWNER = 'owner-key-for-backup-e2e-0123456';
  const apps: AppProcess[] = [];
  const dbs: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  let media: Awaited<ReturnType<typeof startMediaServer>>;

  beforeAll(async () => {
    media = await startMediaServer();
  });
  afterAll(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    for (const db of dbs) await db.drop();
    await media?.stop();
  });

  async function startApi(env: Record<string, string>): Promise<string> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = spawnApp('api', { ...env, PORT: String(port), PUBLIC_BASE_URL: base }, ['--role', 'api']);
    apps.push(api);
    await waitHealthy(base, api);
    return base;
  }

  it('restores the jobs, results and accounts of a dump taken while the service runs', async () => {
    const source = await createTestDatabase();
    dbs.push(source);
    const dir = tempDir('pg-backup-');
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: source.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `e2e-backup-${Date.now()}-${Math.random()}`,
      HOST: '127.0.0.1',
      ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const base = await startApi(env);
    apps.push(spawnApp('worker', env));
    const api = new Api(base, OWNER);
    const jobId = (await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, aspect_ratio: '3:2' })).body
      .job_id as string;
    expect(await api.waitStatus(jobId, ['completed', 'failed'], 60_000)).toMatchObject({ status: 'completed' });
    const before = (await api.req('GET', `/api/v1/result/${jobId}`)).body;
    const user = (await api.req('POST', '/api/admin/users', { email: 'pg-backup@example.com', credits: 3 })).body;

    const dump = join(tempDir('pg-dump-'), 'ar.dump');
    execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, source.url]);
    const filesCopy = join(tempDir('pg-files-'), 'data');
    cpSync(join(dir, 'storage'), join(filesCopy, 'storage'), { recursive: true });

    const target = await createTestDatabase();
    dbs.push(target);
    execFileSync('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);
    const restored = await startApi({ ...env, DATA_DIR: filesCopy, DATABASE_URL: target.url, QUEUE_NAME: `${env.QUEUE_NAME}-restored` });
    const again = new Api(restored, OWNER);
    expect((await again.req('GET', `/api/v1/status/${jobId}`)).body).toMatchObject({ status: 'completed', progress: 100 });
    const after = (await again.req('GET', `/api/v1/result/${jobId}`)).body;
    expect(after.dimensions).toEqual(before.dimensions);
    const [glbBefore, glbAfter] = await Promise.all(
      [fetch(before.models.glb.url), fetch(after.models.glb.url)].map(async (r) => Buffer.from(await (await r).arrayBuffer())),
    );
    expect(after.models.glb.url.startsWith(restored)).toBe(true);
    expect(glbAfter.length).toBeGreaterThan(1000);
    expect(glbAfter.equals(glbBefore)).toBe(true);
    expect((await again.req('GET', `/api/admin/users/${user.id}/usage`)).status).toBe(200);
    expect((await again.req('POST', `/api/admin/users/${user.id}/credits`, { amount: 1 })).body).toEqual({ balance: 4 });
  });
});
