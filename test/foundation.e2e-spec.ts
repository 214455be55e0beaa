import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  Api,
  type AppProcess,
  createTestDatabase,
  freePort,
  REDIS_URL,
  ROOT,
  spawnApp,
  tempDir,
  waitFor,
  waitHealthy,
  writeConfigFile,
} from './support/app-process';
import { startMediaServer } from './support/media-server';
import { quadrantPicture } from '@app/testing';

const TRIVIAL = join(ROOT, 'test/fixtures/plugins/trivial.plugin.js');
const OWNER = 'owner-key-for-e2e-0123456789';

function trivialConfig(dir: string, delayMs: number): string {
  return writeConfigFile(dir, { plugins: [TRIVIAL], pluginOptions: { trivial: { delayMs } }, pipelines: { 'v1.convert': 'trivial' } });
}

describe('embedded mode (PGlite + in-process queue, one process)', () => {
  const apps: AppProcess[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
  });

  /** fresh: a first start on an empty DATA_DIR (the subject of the first tests) rather than the migrated template. */
  async function start(dataDir: string, delayMs: number, extra: Record<string, string> = {}, fresh = false) {
    const port = await freePort();
    const app = spawnApp(
      'api',
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CONFIG_FILE: trivialConfig(dataDir, delayMs),
        ...extra,
      },
      [],
      { freshDatabase: fresh },
    );
    apps.push(app);
    await waitHealthy(`http://127.0.0.1:${port}`, app);
    return { app, base: `http://127.0.0.1:${port}` };
  }

  // One first start and one later start on the same DATA_DIR carry what were four tests (a first start's output and
  // readiness, the generated key printed in full then masked, DATA_DIR kept private, a job from API to worker to
  // completed): five boots, two of them migrating an empty database, became two (issue 39: CI time).
  it('starts with no other server on an empty DATA_DIR: prints its base URL and generated owner key, is ready, runs a job to completed, keeps DATA_DIR private; a later start masks the key', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755); // as a folder made by hand (mkdtemp's are private already)
    const { app, base } = await start(dir, 0, {}, true);
    expect(app.output()).toMatch(/Base URL: +http:\/\/localhost:\d+/);
    expect(/Owner API key: (sk_owner_\w+)/.exec(app.output())?.[1]).toBeDefined();
    const ready = await (await fetch(`${base}/readyz`)).json();
    expect(ready).toEqual({ status: 'ready', queue: 'in-process', checks: { database: 'ok', queue: 'ok', storage: 'ok' } });
    const unauth = await fetch(`${base}/api/v1/status/api_x`);
    expect(unauth.status).toBe(401);
    expect((await unauth.json()).error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });

    // The generated key is printed in full on the start that generated it.
    const key = readFileSync(join(dir, 'owner-api-key'), 'utf8').trim();
    expect(key).toMatch(/^sk_owner_\w{20,}$/);
    expect(app.output()).toContain(`Owner API key: ${key} `);

    // A throwaway pipeline from API to queue to worker to completed; then something in the database and in
    // storage before looking at the modes: that job, and an uploaded picture.
    const api = new Api(base, key);
    const created = await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ job_id: expect.stringMatching(/^api_/), status: 'queued' });
    const done = await api.waitStatus(created.body.job_id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    const showcase = await api.req('POST', '/api/v2/showcases', {});
    const files = new FormData();
    files.append('files', new Blob([new Uint8Array((await quadrantPicture(40, 30)).png)], { type: 'image/png' }), 'a.png');
    const up = await fetch(`${base}/api/v2/showcases/${showcase.body.id}/items`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: files,
    });
    expect(up.status).toBe(202);
    await app.kill('SIGTERM');

    // DATA_DIR private: the folder 0700, nothing under it group/other readable or writable.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const loose: string[] = [];
    const seen: string[] = [];
    const walk = (path: string) => {
      const st = statSync(path);
      seen.push(path.slice(dir.length + 1));
      if ((st.mode & 0o077) !== 0) loose.push(`${path} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    // config.json is the test's own file (written before the start), not the service's.
    for (const name of readdirSync(dir)) if (name !== 'config.json') walk(join(dir, name));
    expect(seen).toEqual(expect.arrayContaining(['owner-api-key', 'pglite', 'storage']));
    expect(seen.filter((p) => p.startsWith('pglite/')).length).toBeGreaterThan(10);
    expect(seen.some((p) => p.startsWith('storage/uploads/') && p.endsWith('.png'))).toBe(true);
    expect(loose).toEqual([]);

    // A later start shows only a masked prefix of the key it did not generate.
    const second = await start(dir, 0);
    const out = second.app.output();
    expect(out).toMatch(/Owner API key: sk_owner_\w{3}… \(in /);
    expect(out).toContain(`Owner API key: ${key.slice(0, 12)}…`);
    expect(out).not.toContain(key);
    expect(out).not.toContain(key.slice(12));
    // Still the same key: the masked start did not make a new one.
    expect((await new Api(second.base, key).req('GET', '/api/v1/status/api_x')).status).toBe(404);
  });

  // What were two tests (SIGTERM, SIGKILL), each starting twice, on one DATA_DIR: the start after the SIGTERM is the
  // one killed with SIGKILL (three starts instead of four; issue 39: CI time).
  it('lets a running job finish on SIGTERM, and finishes a job that was running when the process was killed with SIGKILL', async () => {
    const dir = tempDir();
    const first = await start(dir, 1500, { OWNER_API_KEY: OWNER });
    const api = new Api(first.base, OWNER);
    const term = (await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' })).body;
    await api.waitStatus(term.job_id, ['processing']);
    const code = await first.app.kill('SIGTERM');
    // Nest re-raises the signal after a clean shutdown, so the process ends "by SIGTERM", not by a crash.
    expect(code === 0 || first.app.proc.signalCode === 'SIGTERM').toBe(true);
    expect(first.app.output()).toContain('stopping: letting running jobs finish');
    const second = await start(dir, 4000, { OWNER_API_KEY: OWNER });
    const secondApi = new Api(second.base, OWNER);
    const after = await secondApi.req('GET', `/api/v1/status/${term.job_id}`);
    // Completed by the first process before it exited: the second never had to run it.
    expect(after.body.status).toBe('completed');

    const { body } = await secondApi.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
    // Killed in its second stage, once the first stage's progress is saved (progress writes are merged over
    // a quarter second, so it shows shortly after the job starts processing).
    const mid = await waitFor(
      async () => {
        const s = (await secondApi.req('GET', `/api/v1/status/${body.job_id}`)).body;
        return s.status === 'processing' && s.progress === 50 && s;
      },
      3000,
      'the first stage saved as done',
    );
    expect(mid).toMatchObject({ status: 'processing', progress: 50 });
    await second.app.kill('SIGKILL');

    const third = await start(dir, 100, { OWNER_API_KEY: OWNER });
    const done = await new Api(third.base, OWNER).waitStatus(body.job_id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
  });

  it('fails startup with a clear message on bad configuration', async () => {
    const dir = tempDir();
    // Both started at once (each loads the whole app before it refuses): one start's time, not two.
    const file = writeConfigFile(dir, { plugins: [TRIVIAL], pluginOptions: { trivial: { delay: 1 } } });
    const bad = spawnApp('api', { PORT: 'not-a-port', DATA_DIR: dir });
    const unknownKey = spawnApp('api', { PORT: String(await freePort()), DATA_DIR: dir, CONFIG_FILE: file });
    apps.push(bad, unknownKey);
    expect(await bad.kill('SIGCONT')).toBe(2);
    expect(bad.output()).toContain('PORT');
    expect(await unknownKey.kill('SIGCONT')).toBe(1);
    expect(unknownKey.output()).toContain('unknown config key "delay" for plugin "trivial"');
  });
});

describe('scaled mode (Postgres + Bull, API and workers as separate processes)', () => {
  const apps: AppProcess[] = [];
  let db: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
  });
  afterAll(() => db.drop());

  /**
   * API + workers on Postgres and Bull; v1.convert runs the trivial pipeline (`delayMs` a stage), every other
   * pipeline the real one. The first worker starts beside the API (`first`), not after it is healthy: two boots at
   * once on two cores.
   */
  async function scaled(delayMs: number) {
    const dir = tempDir();
    const port = await freePort();
    const env: Record<string, string> = {
      DATA_DIR: dir,
      DATABASE_URL: db.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `e2e-${Date.now()}-${Math.random()}`,
      QUEUE_LOCK_MS: '1500',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ALLOW_PRIVATE_NETWORKS: 'true',
      CONFIG_FILE: trivialConfig(dir, delayMs),
    };
    const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    apps.push(api);
    const worker = () => {
      const w = spawnApp('worker', env);
      apps.push(w);
      return w;
    };
    const first = worker();
    await waitHealthy(`http://127.0.0.1:${port}`, api);
    return { api, base: `http://127.0.0.1:${port}`, worker, first, dir };
  }

  // What were three tests on three API + worker pairs (a showcase's picture converted by a worker, thumbnails
  // included; a job run by a worker in another process; no job lost when that worker is killed mid-job), on one
  // pair: the trivial pipeline the configuration names is v1.convert's only, showcase pictures keep the real one
  // (issue 39: CI time).
  it("converts a showcase's picture in a worker (thumbnails included, served by the API), runs a job through a worker in another process, and loses no job when that worker is killed with SIGKILL mid-job", async () => {
    const media = await startMediaServer({ '/p.png': (await quadrantPicture(600, 400)).png });
    try {
      const s = await scaled(3000);
      const w1 = s.first;
      const api = new Api(s.base, OWNER);
      const ready = await (await fetch(`${s.base}/readyz`)).json();
      expect(ready).toMatchObject({ status: 'ready', queue: 'bull' });

      const created = await api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/p.png`] });
      expect(created.status).toBe(201);
      const item = await waitFor(
        async () => {
          const i = (await api.req('GET', `/api/v2/showcases/${created.body.id}`)).body.items[0];
          return i?.status === 'completed' || i?.status === 'failed' ? i : undefined;
        },
        60_000,
        'the picture to convert',
      );
      expect(item.status).toBe('completed');
      const stored = readdirSync(join(s.dir, 'storage/models', item.job_id))
        .filter((f) => f.startsWith('thumb-') && !f.endsWith('.meta'))
        .sort();
      expect(stored).toEqual([
        'thumb-1200.jpg',
        'thumb-480.avif',
        'thumb-480.webp',
        'thumb-720.avif',
        'thumb-720.webp',
        'thumb-960.avif',
        'thumb-960.webp',
      ]);
      const thumb = await fetch(`${created.body.url}/items/${item.id}/thumb/960.avif`);
      expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/avif']);

      const { body } = await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
      await api.waitStatus(body.job_id, ['processing']);
      await w1.kill('SIGKILL');
      s.worker();
      const done = await api.waitStatus(body.job_id, ['completed', 'failed'], 40_000);
      expect(done.status).toBe('completed');
      // Worker processes ran them, never the API.
      expect(s.api.output()).not.toContain('consuming');
      expect(w1.output()).toContain('consuming bull queue');
    } finally {
      await media.stop();
    }
  });

  it('refuses --role api without DATABASE_URL and REDIS_URL', async () => {
    const p = spawnApp('api', { DATA_DIR: tempDir(), PORT: String(await freePort()) }, ['--role', 'api']);
    apps.push(p);
    expect(await p.kill('SIGCONT')).toBe(2);
    expect(p.output()).toContain('needs DATABASE_URL and REDIS_URL');
  });
});
