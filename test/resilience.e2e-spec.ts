import { join } from 'node:path';
import { Client } from 'pg';
import {
  Api,
  type AppProcess,
  createTestDatabase,
  freePort,
  ROOT,
  sleep,
  spawnApp,
  tempDir,
  waitFor,
  waitHealthy,
  writeConfigFile,
} from './support/app-process';
import { RedisServer, TcpProxy } from './support/fault-injection';

// Outages of Redis and Postgres injected for real: a private redis-server the tests kill and freeze,
// and a TCP proxy in front of the Postgres server that refuses or holds connections.

const TRIVIAL = join(ROOT, 'test/fixtures/plugins/trivial.plugin.js');
const OWNER = 'owner-key-for-resilience-0123456789';

function config(dir: string, delayMs: number): string {
  return writeConfigFile(dir, {
    plugins: [TRIVIAL],
    pluginOptions: { trivial: { delayMs } },
    pipelines: { 'v1.convert': 'trivial', 'v2.picture': 'trivial', 'v2.animated-ar': 'trivial' },
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t0 };
}

async function newUser(owner: Api, email: string): Promise<Api> {
  const u = await owner.req('POST', '/api/admin/users', { email, credits: 0 });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  expect(k.status).toBe(201);
  return new Api(owner.base, k.body.key);
}

describe('scaled mode under dependency outages', () => {
  const apps: AppProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });

  /** A private redis-server and a throwaway database, both cleaned up after the test. */
  async function backends(): Promise<{ redis: RedisServer; db: { url: string; drop: () => Promise<void> } }> {
    const redis = await RedisServer.start();
    cleanups.push(async () => {
      redis.thaw();
      await redis.kill();
    });
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    return { redis, db };
  }

  async function scaled(opts: { redisUrl: string; databaseUrl: string; delayMs: number; extra?: Record<string, string> }) {
    const dir = tempDir();
    const port = await freePort();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `resilience-${Date.now()}`,
      QUEUE_LOCK_MS: '2000',
      CONFIG_FILE: config(dir, opts.delayMs),
      HOST: '127.0.0.1',
      ...opts.extra,
    };
    const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    apps.push(api);
    const worker = () => {
      const w = spawnApp('worker', env);
      apps.push(w);
      return w;
    };
    return { api, base: `http://127.0.0.1:${port}`, worker, env };
  }

  it('answers job-creating requests at once during a Redis outage (202, stored) and runs the jobs when Redis is back', async () => {
    const { redis, db } = await backends();
    const s = await scaled({ redisUrl: redis.url, databaseUrl: db.url, delayMs: 100 });
    await waitHealthy(s.base, s.api);
    s.worker();
    const api = new Api(s.base, OWNER);
    const first = await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
    expect((await api.waitStatus(first.body.job_id, ['completed', 'failed'])).status).toBe('completed');

    await redis.kill();
    const convert = await timed(() => api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/b.png' }));
    expect(convert.value.status).toBe(202);
    expect(convert.ms).toBeLessThan(5000);
    const showcase = await timed(() => api.req('POST', '/api/v2/showcases', { image_urls: ['https://example.com/c.png'] }));
    expect(showcase.value.status).toBe(201);
    expect(showcase.ms).toBeLessThan(5000);
    const items = await timed(() =>
      api.req('POST', `/api/v2/showcases/${showcase.value.body.id}/items`, { image_urls: ['https://example.com/d.png'] }),
    );
    expect(items.value.status).toBe(202);
    expect(items.ms).toBeLessThan(5000);
    const animated = await timed(() => api.req('POST', '/api/v2/animated-ar', { image_url: 'https://example.com/e.png' }));
    expect(animated.value.status).toBe(202);
    expect(animated.ms).toBeLessThan(5000);
    const ready = await fetch(`${s.base}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.queue).toMatch(/^unavailable/);

    await redis.restart();
    // Picked up on reconnect, not at the minute sweep.
    const done = await api.waitStatus(convert.value.body.job_id, ['completed', 'failed'], 15_000);
    expect(done.status).toBe('completed');
    // The trivial pipeline's result is no picture, so the v2 views can't show it: read the rows.
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const ids = [showcase.value.body.queued_jobs[0].job_id, items.value.body.queued_jobs[0].job_id, animated.value.body.job_id];
      const rows = await waitFor(
        async () => {
          const r = await pg.query('SELECT "status" FROM "jobs" WHERE "id" = ANY($1)', [ids]);
          return r.rows.length === 3 && r.rows.every((x) => x.status === 'completed') ? r.rows : undefined;
        },
        15_000,
        'the v2 jobs to complete',
      );
      expect(rows).toHaveLength(3);
    } finally {
      await pg.end();
    }
  });

  it('a busy worker shuts down cleanly on SIGTERM while Redis is down, finishing its job', async () => {
    const { redis, db } = await backends();
    const s = await scaled({ redisUrl: redis.url, databaseUrl: db.url, delayMs: 2500 });
    await waitHealthy(s.base, s.api);
    const w = s.worker();
    const api = new Api(s.base, OWNER);
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
    await api.waitStatus(body.job_id, ['processing']);
    await redis.kill();
    const code = await w.kill('SIGTERM');
    // Nest re-raises the signal after a clean shutdown: "by SIGTERM" or 0 is clean, an exit code is a crash.
    if (!(code === 0 || w.proc.signalCode === 'SIGTERM')) throw new Error(`worker exited with ${code}:\n${w.output()}`);
    expect(w.output()).not.toMatch(/Connection is closed|Unhandled|uncaught/i);
    const after = (await api.req('GET', `/api/v1/status/${body.job_id}`)).body;
    // Failed once in a loaded run ('processing' after the exit) and never since: the worker's log says why if it does again.
    if (after.status !== 'completed')
      throw new Error(`job ${after.status} after the worker exited:\n${JSON.stringify(after)}\n${w.output()}`);
    expect(after.status).toBe('completed');
  });

  it('answers 503 + Retry-After while Postgres is down or hung, and resumes the running job when it is back without spending attempts', async () => {
    const { redis, db } = await backends();
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const s = await scaled({
      redisUrl: redis.url,
      databaseUrl: viaProxy.toString(),
      delayMs: 2000,
      extra: { DB_QUERY_TIMEOUT_MS: '1500', DB_CONNECT_TIMEOUT_MS: '1000' },
    });
    await waitHealthy(s.base, s.api);
    s.worker();
    const api = new Api(s.base, OWNER);
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' });
    await api.waitStatus(body.job_id, ['processing']);

    await proxy.down();
    const down = await api.req('GET', `/api/v1/status/${body.job_id}`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(down.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
    expect(JSON.stringify(down.body)).not.toMatch(/ECONNREFUSED|5432/);
    // Longer than the job and Bull's retry backoff: before, every attempt burned here.
    await sleep(7000);
    await proxy.up();
    const back = Date.now();
    const done = await api.waitStatus(body.job_id, ['completed', 'failed'], 20_000);
    expect(done.status).toBe('completed');
    expect(Date.now() - back).toBeLessThan(10_000);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const row = (await pg.query('SELECT "attempts" FROM "jobs" WHERE "id" = $1', [body.job_id])).rows[0];
    await pg.end();
    expect(row.attempts).toBe(1);

    proxy.hang();
    const hung = await timed(() => api.req('GET', `/api/v1/status/${body.job_id}`));
    expect(hung.value.status).toBe(503);
    expect(hung.ms).toBeLessThan(4000);
    await proxy.up();
  });

  // What were two tests on two sets of processes, Redis servers and databases (migrations on an empty database;
  // the rate limiter failing open when Redis hangs), on one (issue 39: CI time).
  it('API and workers starting together on an empty database migrate one at a time; the rate limiter fails open and answers fast when Redis hangs', async () => {
    const { redis, db } = await backends();
    const s = await scaled({ redisUrl: redis.url, databaseUrl: db.url, delayMs: 0 });
    const workers = [s.worker(), s.worker()];
    await waitHealthy(s.base, s.api);
    await waitFor(async () => workers.every((w) => /consuming bull queue/.test(w.output())), 30_000, 'workers consuming');
    for (const p of [s.api, ...workers]) {
      expect(p.output()).not.toMatch(/duplicate key|Unable to connect to the database|Retrying/);
    }

    const user = await newUser(new Api(s.base, OWNER), 'hang@example.com');
    redis.freeze();
    const status = await timed(() => user.req('GET', '/api/v1/status/api_aaaaaaaaaaaaaaaaaaaaaaaa'));
    expect(status.value.status).toBe(404);
    expect(status.ms).toBeLessThan(1000);
    const created = await timed(() => user.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' }));
    expect(created.value.status).toBe(202);
    expect(created.ms).toBeLessThan(5000);
    redis.thaw();
  });
});

describe('fair share between accounts (embedded mode)', () => {
  let app: AppProcess;
  let owner: Api;
  beforeAll(async () => {
    const dir = tempDir();
    const port = await freePort();
    app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      OWNER_API_KEY: OWNER,
      // 2 s a stage: the account's first job must still be running when its ninth request arrives (at 600 ms it
      // had completed under a loaded CI run, and the ninth was a 202).
      CONFIG_FILE: config(dir, 2000),
      WORKER_CONCURRENCY: '1',
      ACCOUNT_MAX_ACTIVE_JOBS: '8',
    });
    await waitHealthy(`http://127.0.0.1:${port}`, app);
    owner = new Api(`http://127.0.0.1:${port}`, OWNER);
  });
  afterAll(() => app.kill('SIGKILL'));

  it("caps an account's queued + running jobs with 429, and runs a second account's job ahead of the first one's backlog", async () => {
    const a = await newUser(owner, 'busy@example.com');
    const b = await newUser(owner, 'small@example.com');
    const aJobs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await a.req('POST', '/api/v1/convert', { image_url: `https://example.com/a${i}.png` });
      expect(r.status).toBe(202);
      aJobs.push(r.body.job_id);
    }
    const over = await a.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a9.png' });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    expect(over.body.error).toMatchObject({ type: 'rate_limited', code: 'too_many_active_jobs' });
    expect(over.body.error.message).toContain('at most 8');

    const small = await b.req('POST', '/api/v1/convert', { image_url: 'https://example.com/b.png' });
    expect(small.status).toBe(202);
    await b.waitStatus(small.body.job_id, ['completed'], 30_000);
    const aDone = (await Promise.all(aJobs.map((id) => a.req('GET', `/api/v1/status/${id}`)))).filter((r) => r.body.status === 'completed');
    // The busy account's first job was running; B's ran next, before A's other seven.
    expect(aDone.length).toBeLessThanOrEqual(2);
  });

  it('does not cap the owner key (operators)', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await owner.req('POST', '/api/v1/convert', { image_url: `https://example.com/o${i}.png` })).status).toBe(202);
    }
  });
});
