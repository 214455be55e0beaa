import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  Api,
  type AppProcess,
  createTestDatabase,
  REDIS_URL,
  ROOT,
  spawnApp,
  tempDir,
  waitFor,
  writeConfigFile,
} from './support/app-process';
import { BACKLOG_METRIC } from '../libs/runtime/src/backlog-gauge';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * What the Kubernetes deployment (deploy/kubernetes, docs/deployment.md#kubernetes) relies on, against the
 * real Postgres and Redis in scaled mode:
 * - the signal KEDA's ScaledObject names, `queue_backlog_jobs` on the API's /metrics, is exactly the number
 *   of jobs waiting for a worker: every job submitted while no worker runs, and, with a worker holding one job
 *   per account (ACCOUNT_MAX_RUNNING_JOBS=1) and 2 CPU slots, every job not running, also those fair share
 *   put back as delayed and the one waiting for a slot, which Bull's wait list does not hold;
 * - a worker sent SIGTERM (what a scale-down, a rollout or a node drain does) finishes its running jobs
 *   within SHUTDOWN_TIMEOUT_MS; one whose grace runs out hands them back to the queue; in the end every job
 *   completed exactly once and every account's credits moved once per job (charged at submission, never
 *   refunded, never charged again).
 * The jobs run a stage that logs its start and end per job and process (written here), so a second run shows.
 */

const OWNER = 'owner-key-kubernetes-0123456789';
const METRICS_TOKEN = 'metrics-token-kubernetes-0123';

/** A one-stage pipeline that waits `delayMs` (ending early when the stage's signal aborts) and logs each run. */
function countingPlugin(dir: string): string {
  const file = join(dir, 'counting.plugin.js');
  writeFileSync(
    file,
    `const { appendFileSync } = require('node:fs');
const { registerStage, registerPipeline } = require(${JSON.stringify(join(ROOT, 'dist/libs/pipeline/src'))});
module.exports = {
  name: 'counting',
  defaults: { delayMs: 0, log: '' },
  register(container, options) {
    registerStage(container, {
      id: 'counting',
      async run(ctx) {
        appendFileSync(options.log, 'start ' + ctx.job.id + ' ' + process.pid + '\\n');
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, options.delayMs);
          ctx.signal.addEventListener('abort', () => { clearTimeout(timer); reject(ctx.signal.reason); }, { once: true });
        });
        appendFileSync(options.log, 'end ' + ctx.job.id + ' ' + process.pid + '\\n');
        return { pid: process.pid };
      },
    });
    registerPipeline(container, { id: 'counting', steps: [{ stage: 'counting', phase: 'converting' }] });
  },
};
`,
  );
  return file;
}

/** The value of an unlabelled series in a Prometheus text page (undefined when absent). */
function gauge(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(`${name}${labels} `.length));
}

describe('Kubernetes: the backlog signal and the graceful drain (scaled mode, real Postgres and Redis)', () => {
  const processes: AppProcess[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let app: TestApp;
  let dir: string;
  let log: string;
  let plugin: string;
  let env: Record<string, string>;
  const accounts: { api: Api; jobs: string[] }[] = [];
  /** Each account's ledger right after submission: what must not move again. */
  const ledgerAfterSubmit = new Map<Api, { credits: number; lines: unknown[] }>();

  const scrape = async (): Promise<string> => {
    const r = await fetch(`${app.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    return r.text();
  };
  const rows = async () =>
    (
      await pg.query<{ id: string; status: string; attempts: number }>('SELECT "id", "status", "attempts" FROM "jobs" WHERE "kind" <> $1', [
        'callback',
      ])
    ).rows;
  const running = async () => (await rows()).filter((r) => r.status === 'converting');
  const runs = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [what, jobId, pid] = l.split(' ');
        return { what, jobId, pid: Number(pid) };
      });
  /** The runs the worker's stage has started (its log lines). */
  const startsBy = (w: AppProcess) => runs().filter((r) => r.what === 'start' && r.pid === w.proc.pid);
  /** A worker process with its own stage delay and shutdown grace. */
  const worker = (opts: { delayMs: number; shutdownMs: number }): AppProcess => {
    const wdir = tempDir();
    const config = writeConfigFile(wdir, {
      plugins: [plugin],
      pluginOptions: { counting: { delayMs: opts.delayMs, log } },
      pipelines: { 'v2.animated-ar': 'counting' },
    });
    const w = spawnApp('worker', {
      ...env,
      DATA_DIR: wdir,
      CONFIG_FILE: config,
      WORKER_CONCURRENCY: '2',
      ACCOUNT_MAX_RUNNING_JOBS: '1',
      SHUTDOWN_TIMEOUT_MS: String(opts.shutdownMs),
    });
    processes.push(w);
    return w;
  };
  const consuming = (w: AppProcess) =>
    waitFor(async () => /consuming bull queue/.test(w.output()), 30_000, `worker consuming\n${w.output()}`);
  /** SIGTERM, as the kubelet sends it; a clean exit is 0 or "by SIGTERM" (Nest re-raises it), never an exit code. */
  const terminate = async (w: AppProcess) => {
    const code = await w.kill('SIGTERM');
    if (!(code === 0 || w.proc.signalCode === 'SIGTERM')) throw new Error(`worker exited with ${code}:\n${w.output()}`);
    expect(w.output()).not.toMatch(/Unhandled|uncaught/i);
  };

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    dir = tempDir();
    log = join(dir, 'runs.log');
    appendFileSync(log, '');
    plugin = countingPlugin(dir);
    env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      METRICS_TOKEN,
      QUEUE_NAME: `k8s-${process.pid}-${Date.now()}`,
      HOST: '127.0.0.1',
    };
    // The API alone, as the scaled overlay runs it (--role api): no worker in this process.
    app = await startTestApp(
      {
        ...env,
        DATA_DIR: tempDir(),
        CONFIG_FILE: writeConfigFile(tempDir(), {
          plugins: [plugin],
          pluginOptions: { counting: { log } },
          pipelines: { 'v2.animated-ar': 'counting' },
        }),
      },
      { role: 'api' },
    );
    const owner = new Api(app.base, OWNER);
    for (const [i, n] of [4, 3, 2].entries()) {
      const u = await owner.req('POST', '/api/admin/users', { email: `k8s-${i}@example.com`, credits: 100 });
      expect(u.status).toBe(201);
      const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
      expect(k.status).toBe(201);
      accounts.push({ api: new Api(app.base, k.body.key), jobs: new Array(n).fill('') });
    }
  });

  afterAll(async () => {
    for (const p of processes.splice(0)) await p.kill('SIGKILL');
    await app?.close();
    await pg?.end();
    await db?.drop();
  });

  it('with no worker running, reads exactly the jobs three accounts submitted from the ScaledObject signal', async () => {
    expect(gauge(await scrape(), BACKLOG_METRIC)).toBe(0);
    for (const a of accounts) {
      for (let i = 0; i < a.jobs.length; i++) {
        const r = await a.api.req('POST', '/api/v2/animated-ar', { image_url: `https://example.com/k8s-${i}.png` });
        expect(r.status).toBe(202);
        a.jobs[i] = r.body.job_id;
      }
      const usage = (await a.api.req('GET', '/api/v2/usage')).body.data;
      ledgerAfterSubmit.set(a.api, { credits: (await a.api.req('GET', '/api/v2/me')).body.credits, lines: usage });
      expect(ledgerAfterSubmit.get(a.api)!.credits).toBeLessThan(100);
    }
    const text = await scrape();
    expect(gauge(text, BACKLOG_METRIC)).toBe(9);
    // Here, with nothing consuming, Bull's wait list holds them all too.
    expect(gauge(text, 'queue_jobs', '{state="waiting"}')).toBe(9);
  });

  it('with a worker holding one job per account and 2 CPU slots, counts every job not running, those Bull does not hold as waiting included', async () => {
    const w1 = worker({ delayMs: 6000, shutdownMs: 30_000 });
    await consuming(w1);
    // Each account's first job is taken (group limit 1); two get the CPU slots, the third waits for one, still
    // `queued`; the accounts' later jobs are put back as delayed again and again by fair share. A job's row says
    // `converting` before its stage has started (and logged): wait for both.
    await waitFor(async () => (await running()).length === 2 && startsBy(w1).length === 2, 20_000, `two jobs running\n${w1.output()}`);
    const text = await scrape();
    expect(gauge(text, BACKLOG_METRIC)).toBe(7);
    expect((await rows()).filter((r) => r.status === 'queued')).toHaveLength(7);
    expect(gauge(text, 'queue_jobs', '{state="waiting"}')).toBeLessThan(7);

    // SIGTERM while two run: both finish (and the one that was waiting for a slot gets it and finishes too),
    // then the worker exits; it starts nothing else.
    const started = new Set(runs().map((r) => r.jobId));
    expect(started.size).toBe(2);
    const t0 = Date.now();
    await terminate(w1);
    expect(Date.now() - t0).toBeLessThan(25_000);
    const done = runs().filter((r) => r.what === 'end' && r.pid === w1.proc.pid);
    for (const id of started) expect(done.map((r) => r.jobId)).toContain(id);
    const after = await rows();
    expect(
      after
        .filter((r) => r.status === 'completed')
        .map((r) => r.id)
        .sort(),
    ).toEqual(done.map((r) => r.jobId).sort());
    expect(after.filter((r) => r.status === 'queued')).toHaveLength(9 - done.length);
    expect(gauge(await scrape(), BACKLOG_METRIC)).toBe(9 - done.length);
  });

  it('a worker whose grace runs out hands its running jobs back; the next worker runs them: each job completes once, credits move once', async () => {
    const before = new Set((await rows()).filter((r) => r.status === 'completed').map((r) => r.id));
    const w2 = worker({ delayMs: 60_000, shutdownMs: 500 });
    await consuming(w2);
    await waitFor(async () => (await running()).length === 2 && startsBy(w2).length === 2, 20_000, `two jobs running\n${w2.output()}`);
    const handedBack = startsBy(w2).map((r) => r.jobId);
    expect(handedBack).toHaveLength(2);
    await terminate(w2);
    // Back to `queued`, not failed: the next worker takes them.
    const mid = await rows();
    for (const id of handedBack) expect(mid.find((r) => r.id === id)?.status).toBe('queued');
    expect(gauge(await scrape(), BACKLOG_METRIC)).toBe(9 - before.size);

    const w3 = worker({ delayMs: 100, shutdownMs: 30_000 });
    await consuming(w3);
    const all = accounts.flatMap((a) => a.jobs);
    await waitFor(
      async () => {
        const r = await rows();
        return r.length === 9 && r.every((x) => x.status === 'completed' || x.status === 'failed');
      },
      30_000,
      `every job final\n${w3.output()}`,
    );
    expect((await rows()).map((r) => r.status)).toEqual(new Array(9).fill('completed'));
    expect(gauge(await scrape(), BACKLOG_METRIC)).toBe(0);
    const log = runs();
    for (const id of all) {
      // Exactly one run reached its end: none was lost, none ran twice.
      expect(`${id}: ${log.filter((r) => r.what === 'end' && r.jobId === id).length}`).toBe(`${id}: 1`);
    }
    for (const id of handedBack) {
      expect(
        log.filter((r) => r.jobId === id).map((r) => `${r.what} ${r.pid === w2.proc.pid ? 'w2' : r.pid === w3.proc.pid ? 'w3' : r.pid}`),
      ).toEqual(['start w2', 'start w3', 'end w3']);
    }
    // Credits: the charges made at submission, and nothing since (no refund, no second charge).
    await new Promise((r) => setTimeout(r, 500));
    for (const a of accounts) {
      const was = ledgerAfterSubmit.get(a.api)!;
      expect((await a.api.req('GET', '/api/v2/me')).body.credits).toBe(was.credits);
      const lines = (await a.api.req('GET', '/api/v2/usage')).body.data as { job_id?: string; kind: string }[];
      expect(lines).toEqual(was.lines);
      expect(lines.filter((l) => l.kind === 'refund')).toEqual([]);
      for (const id of a.jobs) expect(lines.filter((l) => l.job_id === id && l.kind === 'charge').length).toBeGreaterThan(0);
    }
    await terminate(w3);
  });
});
