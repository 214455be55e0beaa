import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Api, freePort, spawnApp, tempDir, waitFor, waitHealthy } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * The self-service API behind the web console: the caller's showcases (list, change, delete, delete one
 * picture), jobs list, API keys and their scopes (full, read_only, widget with allowed origins and its own
 * rate limit). Against the built API in process, on Postgres (its storage in a temp DATA_DIR); every JSON answer
 * is checked against the published OpenAPI document (Api).
 */

const OWNER = 'owner-key-for-self-service-e2e-tests';
const WIDGET_LIMIT = 6;
const SHOP = 'https://shop.example.com';
let app: TestApp;
let owner: Api;
let dataDir: string;
let media: Awaited<ReturnType<typeof startMediaServer>>;

beforeAll(async () => {
  media = await startMediaServer();
  dataDir = tempDir();
  app = await startServiceApp(
    OWNER,
    {
      DATA_DIR: dataDir,
      JOB_RETRY_BASE_MS: '100',
      RATE_LIMIT_WIDGET: String(WIDGET_LIMIT),
      // Keys stay in the lookup cache for a long time: a revoked key must still be refused at once.
      API_KEY_CACHE_TTL_S: '600',
    },
    // The self-service API is the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  owner = new Api(app.base, OWNER);
});
afterAll(async () => {
  await app.close();
  await media.stop();
});

let seq = 0;
async function newUser(credits = 50, slots = 3) {
  const u = await owner.req('POST', '/api/admin/users', {
    email: `self-${Date.now()}-${seq++}@example.com`,
    credits,
    showcase_slots: slots,
  });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  expect(k.body).toMatchObject({ scope: 'full', name: null, allowed_origins: [] });
  return { id: u.body.id as string, api: new Api(owner.base, k.body.key), keyId: k.body.id as string };
}

async function newKey(api: Api, body: Record<string, unknown>) {
  const r = await api.req('POST', '/api/v2/keys', body);
  expect(r.status).toBe(201);
  return { id: r.body.id as string, api: new Api(owner.base, r.body.key), body: r.body };
}

const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;

/** Files stored for a job (models, posters), as the local storage keeps them under DATA_DIR. */
function jobFiles(jobId: string): string[] {
  const dir = join(dataDir, 'storage/models', jobId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

async function convert(api: Api, path = '/street.jpg', headers: Record<string, string> = {}) {
  const r = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}${path}` }, headers);
  expect(r.status).toBe(202);
  return r.body.job_id as string;
}

async function finishedShowcase(api: Api, pictures = 2) {
  const r = await api.req('POST', '/api/v2/showcases', {
    description: 'Spring',
    image_urls: Array.from({ length: pictures }, () => `${media.base}/street.jpg`),
  });
  expect(r.status).toBe(201);
  const sc = await waitFor(
    async () => {
      const s = await api.req('GET', `/api/v2/showcases/${r.body.id}`);
      return s.body.items.length === pictures && s.body.items.every((i: any) => i.status === 'completed') ? s.body : undefined;
    },
    60_000,
    'showcase pictures to convert',
  );
  return sc;
}

describe('API keys (self-service)', () => {
  it('creates named keys of each scope (the secret shown once), lists them without secrets, with last use', async () => {
    const u = await newUser();
    const ro = await newKey(u.api, { name: 'dashboard', scope: 'read_only' });
    expect(ro.body).toMatchObject({ object: 'api_key', name: 'dashboard', scope: 'read_only', allowed_origins: [], last_used_at: null });
    expect(ro.body.key).toMatch(/^sk_live_[A-Za-z0-9]{32,}$/);
    expect(ro.body.key.startsWith(ro.body.prefix)).toBe(true);
    const w = await newKey(u.api, {
      name: 'shop',
      scope: 'widget',
      allowed_origins: [`${SHOP}/`, 'https://SHOP.example.com', 'http://localhost:8080'],
    });
    // Normalised as browsers send Origin, duplicates dropped.
    expect(w.body.allowed_origins).toEqual([SHOP, 'http://localhost:8080']);
    expect((await ro.api.req('GET', '/api/v2/me')).body.key).toMatchObject({ type: 'user', scope: 'read_only', prefix: ro.body.prefix });

    const list = await waitFor(
      async () => {
        const r = await u.api.req('GET', '/api/v2/keys');
        return r.body.data.find((k: any) => k.id === ro.id)?.last_used_at ? r.body : undefined;
      },
      10_000,
      'last_used_at of the read_only key',
    );
    expect(list.data.map((k: any) => k.id).sort()).toEqual([u.keyId, ro.id, w.id].sort());
    expect(list.data.map((k: any) => k.scope).sort()).toEqual(['full', 'read_only', 'widget']);
    expect(JSON.stringify(list)).not.toContain(ro.body.key);
    for (const k of list.data)
      expect(Object.keys(k).sort()).toEqual(['allowed_origins', 'created_at', 'id', 'last_used_at', 'name', 'object', 'prefix', 'scope']);

    // The admin route takes the same optional body.
    const admin = await owner.req('POST', `/api/admin/users/${u.id}/keys`, { name: 'ops', scope: 'read_only' });
    expect(admin).toMatchObject({ status: 201, body: { name: 'ops', scope: 'read_only' } });
  });

  it('refuses bad key requests with 400 naming the parameter, and the owner key on self-service', async () => {
    const u = await newUser();
    for (const [body, param] of [
      [{ scope: 'admin' }, 'scope'],
      [{ scope: 'widget' }, 'allowed_origins'],
      [{ scope: 'widget', allowed_origins: ['https://shop.example.com/path'] }, 'allowed_origins[0]'],
      [{ scope: 'widget', allowed_origins: ['*'] }, 'allowed_origins[0]'],
      [{ scope: 'read_only', allowed_origins: [SHOP] }, 'allowed_origins'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const r = await u.api.req('POST', '/api/v2/keys', body);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    expect((await owner.req('POST', '/api/v2/keys', { name: 'x' })).body.error.code).toBe('user_key_required');
  });

  it('keeps the last full key unless ?force=true, and a revoked key is refused at once (despite the key cache)', async () => {
    const u = await newUser();
    const second = await newKey(u.api, { name: 'second' });
    const ro = await newKey(u.api, { scope: 'read_only' });
    expect((await second.api.req('GET', '/api/v2/me')).status).toBe(200); // now cached
    expect((await u.api.req('DELETE', `/api/v2/keys/${second.id}`)).status).toBe(204);
    expect((await second.api.req('GET', '/api/v2/me')).status).toBe(401);
    expect((await u.api.req('DELETE', `/api/v2/keys/${second.id}`)).status).toBe(404);

    // u's own key is now the last full key: a read_only key does not count.
    const last = await u.api.req('DELETE', `/api/v2/keys/${u.keyId}`);
    expect(last).toMatchObject({ status: 409, body: { error: { code: 'last_full_key' } } });
    expect((await u.api.req('GET', '/api/v2/me')).status).toBe(200);
    // A narrower key cannot manage keys at all.
    expect((await ro.api.req('DELETE', `/api/v2/keys/${u.keyId}`)).body.error.code).toBe('insufficient_scope');
    expect((await ro.api.req('GET', '/api/v2/keys')).status).toBe(403);
    expect((await u.api.req('DELETE', `/api/v2/keys/${u.keyId}?force=true`)).status).toBe(204);
    expect((await u.api.req('GET', '/api/v2/me')).status).toBe(401);
    expect((await ro.api.req('GET', '/api/v2/me')).status).toBe(200);

    // Another account's key is not there for it.
    const other = await newUser();
    expect((await other.api.req('DELETE', `/api/v2/keys/${ro.id}?force=true`)).status).toBe(404);
    expect((await ro.api.req('GET', '/api/v2/me')).status).toBe(200);
  });
});

describe('scopes', () => {
  it('read_only reads its own jobs (status, result, lists, me) and gets 403 naming the scope on anything else', async () => {
    const u = await newUser();
    const ro = await newKey(u.api, { scope: 'read_only' });
    const jobId = await convert(u.api);
    await ro.api.waitStatus(jobId, ['completed'], 60_000);
    const result = await ro.api.req('GET', `/api/v1/result/${jobId}`);
    expect(result.status).toBe(200);
    expect(result.body.models.glb.url).toMatch(/model\.glb$/);
    expect((await ro.api.req('GET', '/api/v2/jobs')).body.data.map((j: any) => j.job_id)).toEqual([jobId]);
    expect((await ro.api.req('GET', '/api/v2/showcases')).status).toBe(200);
    expect((await ro.api.req('GET', '/api/v2/usage')).status).toBe(200);

    for (const [method, path, body] of [
      ['POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` }],
      ['POST', '/api/v2/showcases', { description: 'x' }],
      ['POST', `/api/v1/jobs/${jobId}/cancel`, undefined],
      ['GET', '/api/v1/webhook-secret', undefined],
      ['POST', '/api/v2/keys', { name: 'wider' }],
    ] as const) {
      const r = await ro.api.req(method, path, body);
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
      expect(r.body.error.message).toContain('read_only');
    }
    // Nothing was created by the refused requests.
    expect((await u.api.req('GET', '/api/v2/jobs')).body.data).toHaveLength(1);
    expect((await u.api.req('GET', '/api/v2/showcases')).body.data).toHaveLength(0);
  });

  it('widget converts only from an allowed Origin, reads its own job, and has its own lower rate limit', async () => {
    const u = await newUser();
    const w = await newKey(u.api, { scope: 'widget', allowed_origins: [SHOP] });
    const jobId = await convert(w.api, '/street.jpg', { origin: SHOP });
    const other = await w.api.req(
      'POST',
      '/api/v1/convert',
      { image_url: `${media.base}/street.jpg` },
      { origin: 'https://evil.example.com' },
    );
    expect(other).toMatchObject({ status: 403, body: { error: { code: 'origin_not_allowed' } } });
    const none = await w.api.req('GET', `/api/v1/status/${jobId}`);
    expect(none).toMatchObject({ status: 403, body: { error: { code: 'origin_not_allowed' } } });
    const status = await w.api.req('GET', `/api/v1/status/${jobId}`, undefined, { origin: SHOP });
    expect(status.status).toBe(200);
    expect(status.headers.get('x-ratelimit-limit')).toBe(String(WIDGET_LIMIT));
    const showcase = await w.api.req('POST', '/api/v2/showcases', { description: 'x' }, { origin: SHOP });
    expect(showcase).toMatchObject({ status: 403, body: { error: { code: 'insufficient_scope' } } });
    expect(showcase.body.error.message).toContain('widget');

    // The full key keeps the per-key limit; the widget key runs out at RATE_LIMIT_WIDGET.
    expect((await u.api.req('GET', '/api/v2/me')).headers.get('x-ratelimit-limit')).toBe('600');
    let limited: Awaited<ReturnType<Api['req']>> | undefined;
    for (let i = 0; i < WIDGET_LIMIT + 1 && !limited; i++) {
      const r = await w.api.req('GET', `/api/v1/status/${jobId}`, undefined, { origin: SHOP });
      if (r.status === 429) limited = r;
    }
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limit_exceeded' } } });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('widget keys (their key sits in public HTML)', () => {
  it("read only the jobs the key created: another key's job of the account is 404, the account's views 403", async () => {
    const u = await newUser();
    const w = await newKey(u.api, { scope: 'widget', allowed_origins: [SHOP] });
    const fromShop = { origin: SHOP };
    const own = await convert(w.api, '/street.jpg', fromShop);
    const byFullKey = await convert(u.api);
    const other = await newKey(u.api, { scope: 'widget', allowed_origins: [SHOP] });
    const byOtherWidget = await convert(other.api, '/street.jpg', fromShop);
    for (const id of [own, byFullKey, byOtherWidget]) await u.api.waitStatus(id, ['completed'], 60_000);

    // (Five requests that count: RATE_LIMIT_WIDGET is 6 here; refused scopes are not counted.)
    expect((await w.api.req('GET', `/api/v1/result/${own}`, undefined, fromShop)).body.models.glb.url).toMatch(/model\.glb$/);
    for (const path of [`/api/v1/status/${byFullKey}`, `/api/v1/result/${byFullKey}`, `/api/v1/status/${byOtherWidget}`]) {
      const r = await w.api.req('GET', path, undefined, fromShop);
      expect([path, r.status, r.body.error.type]).toEqual([path, 404, 'not_found']);
    }
    // Nothing else of the account: its deliveries (callback URLs), identity, usage, lists, showcases, v2 jobs.
    for (const path of [
      '/api/v2/webhooks/deliveries',
      '/api/v2/me',
      '/api/v2/usage',
      '/api/v2/jobs',
      `/api/v2/jobs/${byFullKey}`,
      '/api/v2/showcases',
      '/api/v2/pricing',
      '/api/v2/animated-ar/options',
    ]) {
      const r = await w.api.req('GET', path, undefined, fromShop);
      expect([path, r.status, r.body.error.code]).toEqual([path, 403, 'insufficient_scope']);
      expect(r.body.error.message).toContain('has scope widget');
    }
    // The account's other keys still read every job of it, the widget's included.
    const ro = await newKey(u.api, { scope: 'read_only' });
    for (const api of [u.api, ro.api]) expect((await api.req('GET', `/api/v1/status/${own}`)).status).toBe(200);
  });
});

describe('callback deliveries', () => {
  it('show callback URLs without their query string or fragment, to every key', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) =>
      req.resume().on('end', () => {
        received.push(req.url ?? '');
        res.end('ok');
      }),
    );
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const u = await newUser();
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/ar?token=receiver-secret-123#part`;
      const made = await u.api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, callback_url: hook });
      expect(made.status).toBe(202);
      await waitFor(async () => received.length > 0, 60_000, 'the callback');
      // The receiver got the URL as given.
      expect(received[0]).toBe('/hooks/ar?token=receiver-secret-123');
      const ro = await newKey(u.api, { scope: 'read_only' });
      for (const api of [u.api, ro.api]) {
        const list = await waitFor(
          async () => {
            const r = await api.req('GET', '/api/v2/webhooks/deliveries');
            return r.body.data.length ? r : undefined;
          },
          10_000,
          'the delivery to be recorded',
        );
        expect(list.body.data[0]).toMatchObject({
          job_id: made.body.job_id,
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/ar`,
          succeeded: true,
        });
        const status = await api.req('GET', `/api/v1/status/${made.body.job_id}`);
        expect(status.body.callback.url).toBe(list.body.data[0].url);
        expect(JSON.stringify([list.body, status.body])).not.toContain('receiver-secret-123');
      }
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('crafted input: 400 with the usual error body, never a 500', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');

  it('refuses cursors and ids past what the database columns hold, naming the parameter', async () => {
    const u = await newUser();
    for (const [path, param] of [
      // A 20-digit creation time (bigint overflow), and one past the timestamps Postgres can add up.
      [`/api/v2/jobs?cursor=${b64('99999999999999999999.api_x')}`, 'cursor'],
      [`/api/v2/jobs?cursor=${b64('9223372036854775807.api_x')}`, 'cursor'],
      // Showcase ids are Postgres integers.
      [`/api/v2/showcases?cursor=${b64('2147483648')}`, 'cursor'],
      [`/api/v2/showcases?cursor=${b64('9999999999')}`, 'cursor'],
      ['/api/v2/usage?before=99999999999999999999', 'before'],
      ['/api/v2/usage?before=9007199254740993', 'before'],
      [`/api/admin/users/${u.id}/usage?before=99999999999999999999`, 'before'],
    ] as const) {
      const r = await (path.startsWith('/api/admin') ? owner : u.api).req('GET', path);
      expect([path, r.status, r.body.error?.type, r.body.error?.param]).toEqual([path, 400, 'invalid_request_error', param]);
    }
    // The largest values that fit still answer (an empty page).
    expect((await u.api.req('GET', `/api/v2/showcases?cursor=${b64('2147483647')}`)).status).toBe(200);
    expect((await u.api.req('GET', '/api/v2/usage?before=9007199254740991')).status).toBe(200);
  });

  it('treats a console_session cookie that is not URL-encoded text as signed out', async () => {
    for (const value of ['%E0%A4%A', '%', '%ZZ']) {
      const cookie = `console_session=${value}`;
      const api = await fetch(`${owner.base}/api/v2/me`, { headers: { cookie } });
      expect([value, api.status, ((await api.json()) as any).error.type]).toEqual([value, 401, 'authentication_error']);
      const page = await fetch(`${owner.base}/console`, { headers: { cookie }, redirect: 'manual' });
      expect([value, page.status, page.headers.get('location')]).toEqual([value, 303, '/console/login']);
      expect((await fetch(`${owner.base}/console/login`, { headers: { cookie } })).status).toBe(200);
    }
  });
});

describe('transport security', () => {
  it('sends Strict-Transport-Security on every response when PUBLIC_BASE_URL is https, and none over http', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Reached over https through a proxy that ends TLS: the process itself listens on plain http.
    const tls = spawnApp('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'https://ar.example.com',
      DATA_DIR: tempDir(),
      OWNER_API_KEY: OWNER,
    });
    try {
      await waitHealthy(base, tls);
      const requests: [string, RequestInit?][] = [
        ['/healthz'],
        ['/api/v2/me'],
        ['/api/v2/me', { headers: { 'x-api-key': OWNER } }],
        ['/no/such/route'],
        ['/console/login'],
        ['/console'],
        ['/files/models/v2_aaaaaaaaaaaaaaaaaaaaaaaa/model.glb'],
        ['/api/v1/widget.js'],
        ['/docs/openapi.json'],
        ['/metrics'],
        [
          '/api/v1/convert',
          { method: 'OPTIONS', headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } },
        ],
        ['/api/v1/convert', { method: 'POST', headers: { 'x-api-key': OWNER, 'content-type': 'application/json' }, body: '{' }],
      ];
      for (const [path, init] of requests) {
        const r = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
        await r.arrayBuffer();
        expect([init?.method ?? 'GET', path, r.status < 600, r.headers.get('strict-transport-security')]).toEqual([
          init?.method ?? 'GET',
          path,
          true,
          'max-age=31536000; includeSubDomains',
        ]);
      }
    } finally {
      await tls.kill('SIGKILL');
    }
    for (const path of ['/healthz', '/api/v2/me', '/no/such/route'])
      expect((await fetch(`${owner.base}${path}`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('jobs list', () => {
  it("lists the caller's jobs newest first, by status and kind, page by page with a cursor", async () => {
    const u = await newUser();
    const stranger = await newUser();
    await convert(stranger.api);
    const a = await convert(u.api);
    const bad = await convert(u.api, '/page.html');
    const b = await convert(u.api);
    const sc = await u.api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/street.jpg`] });
    const picture = sc.body.queued_jobs[0].job_id as string;
    await u.api.waitStatus(bad, ['failed'], 60_000);

    const all = await u.api.req('GET', '/api/v2/jobs');
    expect(all.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(all.body.data.map((j: any) => j.job_id)).toEqual([picture, b, bad, a]);
    expect(all.body.data.map((j: any) => j.kind)).toEqual(['showcase.picture', 'convert', 'convert', 'convert']);

    const failed = await u.api.req('GET', '/api/v2/jobs?status=failed');
    expect(failed.body.data.map((j: any) => j.job_id)).toEqual([bad]);
    expect(failed.body.data[0].error.code).toEqual(expect.any(String));
    expect((await u.api.req('GET', '/api/v2/jobs?kind=showcase.picture')).body.data.map((j: any) => j.job_id)).toEqual([picture]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<Api['req']>> = await u.api.req(
        'GET',
        `/api/v2/jobs?kind=convert&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((j: any) => j.job_id));
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([b, bad, a]);

    for (const q of [
      'status=done',
      'kind=callback',
      'limit=0',
      'limit=101',
      'cursor=nope',
      `cursor=${Buffer.from('1.x; drop').toString('base64url')}`,
    ]) {
      const r = await u.api.req('GET', `/api/v2/jobs?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(q.split('=')[0]);
    }
  });
});

describe("operators' routes the console uses (owner key)", () => {
  it('lists users and failed jobs, retries a failed job and shows the queue with its oldest waiting job', async () => {
    const u = await newUser();
    const bad = await convert(u.api, '/page.html');
    await u.api.waitStatus(bad, ['failed'], 60_000);
    expect((await owner.req('GET', '/api/admin/users')).body.data.map((x: any) => x.id)).toContain(u.id);
    expect((await owner.req('GET', '/api/admin/jobs?status=failed')).body.data.map((j: any) => j.id ?? j.job_id)).toContain(bad);
    expect((await owner.req('POST', `/api/admin/jobs/${bad}/retry`)).status).toBe(202);
    const queue = await owner.req('GET', '/api/admin/queue');
    expect(queue.status).toBe(200);
    expect(queue.body).toMatchObject({ queue: { waiting: expect.any(Number), active: expect.any(Number) }, jobs: expect.any(Object) });
    expect(queue.body).toHaveProperty('oldest_waiting');
    // Not for user keys, whatever their scope.
    expect((await u.api.req('GET', '/api/admin/queue')).status).toBe(403);
  });
});

describe('showcases (self-service)', () => {
  it('lists showcases newest first with a cursor, and changes every create field with PATCH', async () => {
    const u = await newUser(100, 3);
    const ids: number[] = [];
    for (const d of ['one', 'two', 'three']) ids.push((await u.api.req('POST', '/api/v2/showcases', { description: d })).body.id);
    const first = await u.api.req('GET', '/api/v2/showcases?limit=2');
    expect(first.body.data.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data[0]).toMatchObject({ object: 'showcase', description: 'three', item_count: 0, layout_choice: 'branded' });
    const second = await u.api.req('GET', `/api/v2/showcases?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((s: any) => s.id)).toEqual([ids[0]]);
    expect((await (await newUser()).api.req('GET', '/api/v2/showcases')).body.data).toEqual([]);

    const before = await balance(u.api);
    const patched = await u.api.req('PATCH', `/api/v2/showcases/${ids[0]}`, {
      layout_choice: 'dark',
      logo_url: 'https://shop.example.com/logo.png',
      custom_links: [{ title: 'Shop', url: 'https://shop.example.com/' }],
      branding: { tagline: 'New season', primary_color: '#ABCDEF' },
      frame: 'classic',
      indexable: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: ids[0],
      layout_choice: 'dark',
      indexable: true,
      description: 'one',
      logo_url: 'https://shop.example.com/logo.png',
      custom_links: [{ title: 'Shop', url: 'https://shop.example.com/' }],
      branding: { tagline: 'New season', primary_color: '#abcdef' },
      presentation_defaults: { frame: 'classic' },
    });
    const cleared = await u.api.req('PATCH', `/api/v2/showcases/${ids[0]}`, { description: null, frame: null, layout_choice: null });
    expect(cleared.body).toMatchObject({
      description: null,
      presentation_defaults: {},
      layout_choice: 'branded',
      branding: { tagline: 'New season' },
    });
    const res = await fetch(patched.body.url);
    const page = await res.text();
    expect(page).toContain('New season');
    // indexable stays as patched when a later PATCH leaves it out: the page may be indexed.
    expect(cleared.body.indexable).toBe(true);
    expect(res.headers.get('x-robots-tag')).toBeNull();
    expect(await balance(u.api)).toBe(before);

    for (const [body, param] of [
      [{ image_urls: [`${media.base}/street.jpg`] }, 'image_urls'],
      [{ branding: { primary_color: 'blue' } }, 'branding.primary_color'],
      [{ layout_choice: 'neon' }, 'layout_choice'],
      [{ colour: 1 }, 'colour'],
    ] as const) {
      const r = await u.api.req('PATCH', `/api/v2/showcases/${ids[0]}`, body);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    expect((await (await newUser()).api.req('PATCH', `/api/v2/showcases/${ids[0]}`, { description: 'mine' })).status).toBe(404);
  });

  it('deletes one picture and then the showcase with every file; public pages 404/410; nothing refunded', async () => {
    const u = await newUser(50, 1);
    const sc = await finishedShowcase(u.api, 2);
    const [gone, kept] = sc.items;
    for (const i of sc.items) expect(jobFiles(i.job_id)).toEqual(expect.arrayContaining(['model.glb', 'model.usdz']));
    const charged = await balance(u.api);
    expect(charged).toBe(50 - 5 - 2 * 2);
    expect((await fetch(gone.embed_url)).status).toBe(200);

    expect((await (await newUser()).api.req('DELETE', `/api/v2/showcases/${sc.id}/items/${gone.id}`)).status).toBe(404);
    expect((await u.api.req('DELETE', `/api/v2/showcases/${sc.id}/items/${gone.id}`)).status).toBe(204);
    expect(jobFiles(gone.job_id)).toEqual([]);
    expect(jobFiles(kept.job_id)).not.toEqual([]);
    expect((await u.api.req('GET', `/api/v2/showcases/${sc.id}/items/${gone.id}`)).status).toBe(404);
    expect((await u.api.req('GET', `/api/v2/jobs/${gone.job_id}`)).status).toBe(404);
    expect((await fetch(gone.embed_url)).status).toBe(410);
    expect((await u.api.req('GET', `/api/v2/showcases/${sc.id}`)).body.items.map((i: any) => i.id)).toEqual([kept.id]);
    expect((await u.api.req('DELETE', `/api/v2/showcases/${sc.id}/items/${gone.id}`)).status).toBe(404);

    expect((await u.api.req('DELETE', `/api/v2/showcases/${sc.id}`)).status).toBe(204);
    expect(jobFiles(kept.job_id)).toEqual([]);
    expect((await fetch(sc.url)).status).toBe(404);
    expect((await fetch(sc.embed_url)).status).toBe(404);
    expect((await fetch(kept.embed_url)).status).toBe(410);
    expect((await u.api.req('GET', `/api/v2/showcases/${sc.id}`)).status).toBe(404);
    expect((await u.api.req('DELETE', `/api/v2/showcases/${sc.id}`)).status).toBe(404);
    // No refund for delivered work; the slot is free again (a new showcase is charged as new).
    expect(await balance(u.api)).toBe(charged);
    expect((await u.api.req('GET', '/api/v2/me')).body.showcase_slots).toMatchObject({ used: 0, total: 1 });
    const usage = await u.api.req('GET', '/api/v2/usage');
    expect(usage.body.data.filter((e: any) => e.kind === 'refund')).toEqual([]);
  });

  it('refuses to delete a showcase while a picture is converting (409), and a read_only key may not delete', async () => {
    const u = await newUser(50, 1);
    const ro = await newKey(u.api, { scope: 'read_only' });
    // /hang never answers, so the picture is still downloading when we ask.
    const r = await u.api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/hang`] });
    const del = await u.api.req('DELETE', `/api/v2/showcases/${r.body.id}`);
    expect(del).toMatchObject({ status: 409, body: { error: { code: 'job_not_finished' } } });
    expect((await ro.api.req('DELETE', `/api/v2/showcases/${r.body.id}`)).body.error.code).toBe('insufficient_scope');
    expect((await ro.api.req('PATCH', `/api/v2/showcases/${r.body.id}`, { description: 'x' })).body.error.code).toBe('insufficient_scope');
    expect((await u.api.req('GET', `/api/v2/showcases/${r.body.id}`)).status).toBe(200);
  });
});
