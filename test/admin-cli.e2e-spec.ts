import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, runAdminCli } from '../apps/cli/src/admin-cli';
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

const OWNER = 'owner-key-for-admin-cli-e2e-0123';
const TRIVIAL = join(ROOT, 'test/fixtures/plugins/trivial.plugin.js');

/** Runs one CLI command in this process, as `npm run admin -- …` would. */
async function runCli(base: string, argv: string[], isTTY = false): Promise<{ code: number; out: string; err: string; json: () => any }> {
  let out = '';
  let err = '';
  const code = await runAdminCli(
    parseArgs(argv),
    { apiUrl: base, ownerKey: OWNER },
    { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`), isTTY },
  );
  return { code, out, err, json: () => JSON.parse(out) };
}

/** v1 jobs run the trivial stage for 1.5 s (abortable, as a real stage is). */
const trivialConfig = (dir: string) =>
  writeConfigFile(dir, {
    plugins: [TRIVIAL],
    pluginOptions: { trivial: { delayMs: 1500, abortable: true } },
    pipelines: { 'v1.convert': 'trivial' },
  });

/** The admin CLI's jobs, users and queue commands against a running service (embedded, one worker slot). */
describe('admin CLI: jobs, users, queue', () => {
  let app: AppProcess;
  let base: string;
  let owner: Api;
  const cli = (argv: string[], isTTY = false) => runCli(base, argv, isTTY);

  const status = async (id: string) => (await owner.req('GET', `/api/v1/status/${id}`)).body;

  beforeAll(async () => {
    const port = await freePort();
    const dir = tempDir();
    base = `http://127.0.0.1:${port}`;
    app = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: dir,
      OWNER_API_KEY: OWNER,
      WORKER_CONCURRENCY: '1',
      // One slot: the second of two jobs waits in the queue while the first runs.
      CONFIG_FILE: trivialConfig(dir),
    });
    await waitHealthy(base, app);
    owner = new Api(base, OWNER);
  });

  afterAll(async () => {
    await app?.kill();
  });

  it('shows the queue, cancels a queued job, lists by status, user and age, and retries the failed job', async () => {
    const running = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' })).body.job_id as string;
    const waiting = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/b.png' })).body.job_id as string;
    await waitFor(
      async () => (await owner.req('GET', `/api/v1/status/${running}`)).body.status === 'processing',
      10_000,
      'first job running',
    );

    // The API's answers are the published contract (the Api helper checks them against /openapi.json).
    expect((await owner.req('GET', '/api/admin/queue')).status).toBe(200);
    const queue = await cli(['queue', '--json']);
    expect(queue.code).toBe(0);
    expect(queue.json()).toMatchObject({ driver: 'in-process', jobs: { queued: 1, converting: 1 }, oldest_waiting: { job_id: waiting } });
    expect(queue.json().oldest_waiting.age_s).toBeGreaterThanOrEqual(0);
    expect(queue.json().queue.waiting + queue.json().queue.active).toBeGreaterThanOrEqual(1);
    const queueTable = await cli(['queue'], true);
    expect(queueTable.out).toMatch(/^queue \(in-process\)\nSTATE\s+MESSAGES\n/);
    expect(queueTable.out).toContain(`oldest waiting: ${waiting}, `);

    const cancelled = await cli(['jobs', 'cancel', waiting, '--json']);
    expect(cancelled.code).toBe(0);
    expect(cancelled.json()).toMatchObject({ id: waiting, status: 'failed', error: { code: 'cancelled' }, cancel_requested: true });
    await waitFor(async () => (await status(running)).status === 'completed', 10_000, 'first job done');

    const failed = await cli(['jobs', 'list', '--status', 'failed', '--json']);
    expect(failed.json().data.map((j: { id: string }) => j.id)).toEqual([waiting]);
    const all = await cli(['jobs', 'list', '--since', '10m', '--json']);
    expect(all.json().data.map((j: { id: string }) => j.id)).toEqual([waiting, running]);
    const userId = all.json().data[0].user_id as string;
    expect((await cli(['jobs', 'list', '--user', userId, '--limit', '1', '--json'])).json()).toMatchObject({
      data: [{ id: waiting }],
      has_more: true,
    });
    expect((await cli(['jobs', 'list', '--user', 'usr_nobody', '--json'])).json().data).toEqual([]);
    expect((await cli(['jobs', 'list', '--since', '2099-01-01T00:00:00Z', '--json'])).json().data).toEqual([]);
    const listTable = await cli(['jobs', 'list'], true);
    expect(listTable.out.split('\n')[0]).toMatch(/^ID\s+KIND\s+STATUS/);
    expect(listTable.out).toMatch(new RegExp(`${waiting}\\s+v1\\.convert\\s+failed\\s+.*cancelled`));
    expect((await owner.req('GET', '/api/admin/jobs?status=failed')).status).toBe(200);

    // Only a failed job can be run again; the completed one keeps its result.
    const refused = await cli(['jobs', 'retry', running]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/409 job_not_failed/);
    const retried = await cli(['jobs', 'retry', waiting, '--json']);
    expect(retried.code).toBe(0);
    expect(retried.json()).toMatchObject({ id: waiting, status: 'queued', error: null, attempts: 0, cancel_requested: false });
    await waitFor(async () => (await status(waiting)).status === 'completed', 10_000, 'retried job done');
    expect((await cli(['jobs', 'list', '--status', 'completed', '--json'])).json().data.map((j: { id: string }) => j.id)).toEqual([
      waiting,
      running,
    ]);
    expect((await cli(['jobs', 'cancel', waiting])).err).toMatch(/409 job_finished/);
    expect((await cli(['jobs', 'retry', 'v2_missing'])).err).toMatch(/404 resource_missing/);
    expect((await owner.req('POST', '/api/admin/jobs/v2_missing/retry')).status).toBe(404);
  });

  it('lists users as a table or JSON, owner key only', async () => {
    expect((await cli(['users:create', '--email', 'ada@example.com', '--name', 'Ada', '--credits', '12.5'])).code).toBe(0);
    const users = await cli(['users', 'list', '--json']);
    expect(users.json().data).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'ada@example.com', name: 'Ada', credits: 12.5, internal: false })]),
    );
    const tableOut = (await cli(['users', 'list'], true)).out;
    expect(tableOut.split('\n')[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+CREDITS\s+SLOTS\s+CREATED$/);
    expect(tableOut).toMatch(/ada@example\.com\s+Ada\s+12\.5\s+0/);
    expect((await owner.req('GET', '/api/admin/users')).status).toBe(200);
    const key = (await cli(['keys:create', users.json().data.find((u: { email: string }) => u.email === 'ada@example.com').id])).out;
    const user = new Api(base, JSON.parse(key).key as string);
    expect((await user.req('GET', '/api/admin/users')).status).toBe(403);
    expect((await user.req('GET', '/api/admin/queue')).status).toBe(403);
  });

  it("invites an existing user by email, and the owner's own email as an owner console account", async () => {
    const existing = (await owner.req('POST', '/api/admin/users', { email: 'invitee@example.com' })).body;
    const inv = await cli(['users', 'invite', 'INVITEE@example.com', '--json']);
    expect(inv.code).toBe(0);
    expect(inv.json()).toMatchObject({ user_id: existing.id, email: 'invitee@example.com', role: 'customer' });
    expect(inv.json().invite_url).toMatch(new RegExp(`^${base}/console/invite\\?token=`));
    expect((await fetch(inv.json().invite_url)).status).toBe(200);
    const own = await cli(['users', 'invite', 'operator@example.com', '--owner'], true);
    expect(own.code).toBe(0);
    expect(own.out).toMatch(
      /^http:\/\/\S+\/console\/invite\?token=\S+\n\(single use: operator@example.com sets a password and is signed in as owner; expires /,
    );
    await expect(cli(['users', 'invite'])).rejects.toThrow('users invite needs <email>');
  });

  it('runs as the built `npm run admin` entry point: JSON when not on a terminal', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/apps/cli/src/main.js'), 'queue', '--url', base, '--key', OWNER], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ driver: 'in-process', oldest_waiting: null });
  });
});

describe('admin CLI, scaled mode (Postgres, Bull): the queue, and a retry queued through Bull', () => {
  const apps: AppProcess[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
    await db?.drop();
  });

  it('counts Bull messages, cancels a running job and runs it again once retried', async () => {
    const dir = tempDir();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: db.url,
      REDIS_URL,
      OWNER_API_KEY: OWNER,
      QUEUE_NAME: `e2e-admin-${Date.now()}-${Math.random()}`,
      CONFIG_FILE: trivialConfig(dir),
      HOST: '127.0.0.1',
      WORKER_CONCURRENCY: '1',
    };
    const api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    apps.push(api);
    await waitHealthy(base, api);
    const owner = new Api(base, OWNER);

    // No worker yet: the job waits in Bull.
    const job = (await owner.req('POST', '/api/v1/convert', { image_url: 'https://example.com/a.png' })).body.job_id as string;
    const waiting = await runCli(base, ['queue', '--json']);
    expect(waiting.json()).toMatchObject({
      driver: 'bull',
      queue: { waiting: 1, active: 0 },
      jobs: { queued: 1 },
      oldest_waiting: { job_id: job },
    });

    apps.push(spawnApp('worker', env));
    await owner.waitStatus(job, ['processing'], 40_000);
    const cancel = await runCli(base, ['jobs', 'cancel', job, '--json']);
    expect(cancel.code).toBe(0);
    expect(cancel.json()).toMatchObject({ id: job, cancel_requested: true });
    expect(await owner.waitStatus(job, ['completed', 'failed'], 5000)).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    await waitFor(async () => (await runCli(base, ['queue', '--json'])).json().queue.active === 0, 5000, 'the Bull message to finish');

    // The first message is done with: the retry puts a new one in Bull, which the worker runs.
    const retried = await runCli(base, ['jobs', 'retry', job, '--json']);
    expect(retried.json()).toMatchObject({ id: job, status: 'queued', error: null });
    expect(await owner.waitStatus(job, ['completed', 'failed'], 15_000)).toMatchObject({ status: 'completed' });
    expect((await runCli(base, ['queue', '--json'])).json()).toMatchObject({
      driver: 'bull',
      jobs: { completed: 1, failed: 0, queued: 0 },
      oldest_waiting: null,
    });
    expect((await runCli(base, ['jobs', 'list', '--json'])).json().data).toEqual([
      expect.objectContaining({ id: job, status: 'completed', error: null, cancel_requested: false }),
    ]);
  });
});
