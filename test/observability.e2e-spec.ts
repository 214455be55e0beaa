import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

const OWNER = 'owner-key-for-observability-e2e';
const METRICS_TOKEN = 'metrics-token-for-observability-e2e';
const PROVIDER_TOKEN = 'r8_providertokenthatmustnotshow0123';

/** One series' value from a Prometheus text exposition, or undefined when the series is absent. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** The process output as JSON log lines (anything else, e.g. a crash trace, is kept as { raw }). */
function logLines(out: string): Record<string, unknown>[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { raw: l };
      }
    });
}

describe('embedded mode: /metrics, request ids and redacted JSON logs', () => {
  let app: AppProcess;
  let base: string;
  let owner: Api;
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  let receiver: Server;
  let hook: string;
  let hits = 0;

  beforeAll(async () => {
    media = await startMediaServer();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits++;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: tempDir(),
      OWNER_API_KEY: OWNER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'debug',
      METRICS_TOKEN,
      JOB_RETRY_BASE_MS: '100',
      // A provider secret in the environment: it must never be printed, even at debug level.
      REPLICATE_API_TOKEN: PROVIDER_TOKEN,
    });
    await waitHealthy(base, app);
    owner = new Api(base, OWNER);
  });
  afterAll(async () => {
    await app.kill('SIGKILL');
    await media.stop();
    await new Promise((r) => receiver.close(r));
  });

  it('starts every known series of the labelled counters at 0, before the first job or callback', async () => {
    const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    const text = await r.text();
    for (const outcome of ['delivered', 'failed']) expect(series(text, 'callback_deliveries_total', { outcome })).toBe(0);
    for (const kind of ['v1.convert', 'v2.picture', 'v2.animated-ar', 'callback']) {
      for (const outcome of ['completed', 'failed', 'cancelled']) expect(series(text, 'jobs_total', { kind, outcome })).toBe(0);
    }
    // REPLICATE_API_TOKEN enables the Replicate provider: its fixed outcomes are there too.
    for (const outcome of ['ok', 'failed'])
      expect(series(text, 'motion_provider_requests_total', { provider: 'replicate', outcome })).toBe(0);
  });

  it('counts a conversion in jobs_total and the HTTP histogram by route template; logs carry ids and no secrets', async () => {
    const u = await owner.req('POST', '/api/admin/users', { email: 'ops@example.com', name: 'Ops', credits: 1000 });
    expect(u.status).toBe(201);
    const key: string = (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key;
    expect(key).toMatch(/^sk_/);
    const user = new Api(base, key);
    const secret: string = (await user.req('GET', '/api/v1/webhook-secret')).body.secret;
    expect(secret).toMatch(/^whsec_/);

    const requestId = 'e2e-observability-0001';
    const created = await user.req(
      'POST',
      '/api/v1/convert',
      { image_url: `${media.base}/street.jpg?X-Amz-Signature=deadbeefsignature`, callback_url: hook },
      { 'x-request-id': requestId },
    );
    expect(created.status).toBeLessThan(300);
    expect(created.headers.get('x-request-id')).toBe(requestId);
    const jobId: string = created.body.job_id;
    await user.waitStatus(jobId, ['completed']);
    await waitFor(async () => hits >= 1, 30_000, 'the callback');

    // Our own id when the caller's is not a tame one.
    const odd = await user.req('GET', `/api/v1/status/${jobId}`, undefined, { 'x-request-id': 'has spaces and {braces}' });
    expect(odd.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    // A bearer token and a signed URL on a request must not reach the logs either.
    await fetch(`${base}/api/v1/status/${jobId}?sig=anothersecretsignature`, {
      headers: { 'x-api-key': key, authorization: `Bearer ${key}` },
    });

    // /metrics: refused without the token, or with a wrong one.
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer not-the-metrics-token-at-all' } })).status).toBe(401);
    const text = await waitFor(
      async () => {
        const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        const t = await r.text();
        // The callback is counted when its attempt is recorded, just after the receiver answered.
        return r.status === 200 && series(t, 'callback_deliveries_total', { outcome: 'delivered' }) ? t : undefined;
      },
      10_000,
      'metrics with the delivered callback',
    );
    expect(series(text, 'jobs_total', { kind: 'v1.convert', outcome: 'completed' })).toBe(1);
    expect(series(text, 'jobs_total', { kind: 'callback', outcome: 'completed' })).toBe(1);
    expect(
      series(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/convert', status: String(created.status) }),
    ).toBe(1);
    expect(
      series(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/status/:jobId', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(series(text, 'job_stage_duration_seconds_count', { stage: 'fetch' })).toBe(1);
    expect(series(text, 'queue_jobs', { state: 'waiting' })).toBe(0);
    expect(series(text, 'queue_jobs', { state: 'active' })).toBeDefined();
    expect(series(text, 'queue_oldest_waiting_seconds', {})).toBe(0);
    expect(series(text, 'credits_charged_total', {})).toBeDefined();
    expect(series(text, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    // Labels are templates and kinds: no raw URL, job id, key or email.
    for (const s of [jobId, key, 'ops@example.com', '/api/v1/status/v', 'street.jpg']) expect(text).not.toContain(s);

    // A paid job that fails: charged, then refunded, in credits (the API's unit).
    // v2 wants https: a port nobody listens on fails the download (after quick retries).
    const paid = await user.req('POST', '/api/v2/animated-ar', { image_url: `https://127.0.0.1:${await freePort()}/missing.jpg` });
    expect(paid.status).toBe(202);
    expect(paid.body.credits_charged).toBeGreaterThan(0);
    await waitFor(
      async () => (await user.req('GET', `/api/v2/jobs/${paid.body.job_id}`)).body.status === 'failed',
      30_000,
      'the paid job to fail',
    );
    const after = await waitFor(
      async () => {
        const t = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        return series(t, 'credits_refunded_total', {}) ? t : undefined;
      },
      10_000,
      'the refund in the metrics',
    );
    expect(series(after, 'credits_charged_total', {})).toBe(paid.body.credits_charged);
    expect(series(after, 'credits_refunded_total', {})).toBe(paid.body.credits_charged);
    expect(series(after, 'jobs_total', { kind: 'v2.animated-ar', outcome: 'failed' })).toBe(1);

    const out = app.output();
    for (const s of [key, key.slice(12), secret, secret.slice(6), OWNER, PROVIDER_TOKEN, 'deadbeefsignature', 'anothersecretsignature'])
      expect(out).not.toContain(s);
    const lines = logLines(out);
    // JSON lines when not on a terminal.
    expect(lines.filter((l) => 'raw' in l)).toEqual([]);
    // The request's own lines.
    expect(lines.find((l) => l.requestId === requestId && l.msg === 'request completed')).toBeDefined();
    // The job's lines, in the worker, with the id of the request that made it, and their stage.
    const jobLines = lines.filter((l) => l.jobId === jobId);
    expect(jobLines.find((l) => l.stage === 'fetch' && l.requestId === requestId)).toBeDefined();
    expect(jobLines.every((l) => l.requestId === requestId)).toBe(true);
    // The callback job it scheduled carries the same request id.
    expect(
      lines.find((l) => typeof l.jobId === 'string' && (l.jobId as string).startsWith('cb_') && l.requestId === requestId && l.stage),
    ).toBeDefined();
  });
});

describe('scaled mode: a worker serves its own /metrics on METRICS_PORT', () => {
  const apps: AppProcess[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
  });
  afterAll(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    await db.drop();
  });

  it('counts the job in the worker that ran it; the API reports the Bull queue', async () => {
    const dir = tempDir();
    const port = await freePort();
    const metricsPort = await freePort();
    const config = writeConfigFile(dir, {
      plugins: [join(ROOT, 'test/fixtures/plugins/trivial.plugin.js')],
      pluginOptions: { trivial: { delayMs: 50 } },
      pipelines: { 'v1.convert': 'trivial' },
    });
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: db.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `e2e-obs-${Date.now()}`,
      CONFIG_FILE: config,
      HOST: '127.0.0.1',
      METRICS_TOKEN,
    };
    const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    apps.push(api);
    await waitHealthy(`http://127.0.0.1:${port}`, api);
    const worker = spawnApp('worker', { ...env, METRICS_PORT: String(metricsPort), LOG_LEVEL: 'debug' });
    apps.push(worker);
    await waitFor(async () => /metrics on http/.test(worker.output()), 30_000, `worker metrics server\n${worker.output()}`);

    const client = new Api(`http://127.0.0.1:${port}`, OWNER);
    const { body } = await client.req(
      'POST',
      '/api/v1/convert',
      { image_url: 'https://example.com/a.png' },
      { 'x-request-id': 'e2e-scaled-request-1' },
    );
    expect((await client.waitStatus(body.job_id, ['completed', 'failed'])).status).toBe('completed');

    const scrape = async (url: string) => {
      const r = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return { status: r.status, text: await r.text() };
    };
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
    const w = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(w.status).toBe(200);
    expect(series(w.text, 'jobs_total', { kind: 'v1.convert', outcome: 'completed' })).toBe(1);
    expect(series(w.text, 'queue_jobs', { state: 'waiting' })).toBeDefined();
    const a = await scrape(`http://127.0.0.1:${port}/metrics`);
    // Started at 0 there too (the API counts jobs cancelled while queued), and not counted there.
    expect(series(a.text, 'jobs_total', { kind: 'v1.convert', outcome: 'completed' })).toBe(0);
    expect(series(a.text, 'queue_jobs', { state: 'active' })).toBeDefined();
    // The worker's lines about the job carry the id of the API request that made it.
    expect(
      logLines(worker.output()).find((l) => l.jobId === body.job_id && l.requestId === 'e2e-scaled-request-1' && l.stage),
    ).toBeDefined();
  });
});
