import { Api, type AppProcess, freePort, spawnApp, tempDir, waitHealthy } from './support/app-process';

const OWNER = 'owner-key-for-accounts-e2e-tests';
let app: AppProcess;
let owner: Api;

beforeAll(async () => {
  const port = await freePort();
  app = spawnApp('api', { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: tempDir(), OWNER_API_KEY: OWNER });
  await waitHealthy(`http://127.0.0.1:${port}`, app);
  owner = new Api(`http://127.0.0.1:${port}`, OWNER);
});
afterAll(() => app.kill('SIGKILL'));

async function newUser(email: string, credits = 0) {
  const u = await owner.req('POST', '/api/admin/users', { email, name: 'Ada', credits, showcase_slots: 2 });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  expect(k.status).toBe(201);
  return { user: u.body, key: k.body, api: new Api(owner.base, k.body.key) };
}

describe('accounts, keys and the admin API', () => {
  it('creates users and shows a new key once, with a display prefix', async () => {
    const { user, key } = await newUser('ada@example.com', 20);
    expect(user).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ada@example.com', name: 'Ada', credits: 20, showcase_slots: 2 });
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^sk_live_[A-Za-z0-9]{32,}$/), prefix: key.key.slice(0, 12) });
    const dup = await owner.req('POST', '/api/admin/users', { email: 'ADA@example.com' });
    expect(dup.status).toBe(409);
    const bad = await owner.req('POST', '/api/admin/users', { email: 'nope' });
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'email' });
    expect((await owner.req('POST', '/api/admin/users/usr_missing/keys')).status).toBe(404);
  });

  it('authenticates per-user keys on v1/v2 and refuses missing, unknown and revoked ones with 401', async () => {
    const { user, key, api } = await newUser('bob@example.com', 13.5);
    const me = await api.req('GET', '/api/v2/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: 'bob@example.com', credits: 13.5, key: { type: 'user', prefix: key.prefix, billed: true }, showcase_slots: { used: 0, total: 2 } });
    expect(JSON.stringify(me.body)).not.toContain(key.key);
    const ownerMe = await owner.req('GET', '/api/v2/me');
    expect(ownerMe.body).toMatchObject({ id: 'service', key: { type: 'owner', billed: false } });

    expect((await new Api(owner.base, 'sk_live_' + 'x'.repeat(40)).req('GET', '/api/v2/me')).status).toBe(401);
    const r = await fetch(`${owner.base}/api/v2/me`);
    expect(r.status).toBe(401);
    expect((await owner.req('DELETE', `/api/admin/keys/${key.id}`)).status).toBe(204);
    const revoked = await api.req('GET', '/api/v2/me');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', request_id: expect.any(String) });
    expect((await owner.req('DELETE', '/api/admin/keys/key_missing')).status).toBe(404);
  });

  it('keeps the admin API to the owner key', async () => {
    const { api } = await newUser('carol@example.com');
    const r = await api.req('POST', '/api/admin/users', { email: 'mallory@example.com' });
    expect(r.status).toBe(403);
    expect(r.body.error.type).toBe('permission_error');
  });

  it('grants credits exactly and shows them in the usage view', async () => {
    const { user, api } = await newUser('dan@example.com', 1.1);
    expect((await owner.req('POST', `/api/admin/users/${user.id}/credits`, { amount: 2.2, reason: 'promo' })).body).toEqual({ balance: 3.3 });
    expect((await owner.req('POST', `/api/admin/users/${user.id}/credits`, { amount: 0.001 })).body.error.param).toBe('amount');
    expect((await owner.req('POST', `/api/admin/users/${user.id}/credits`, { amount: -5 })).status).toBe(400);
    const usage = await api.req('GET', '/api/v2/usage?limit=1');
    expect(usage.body).toMatchObject({ data: [{ kind: 'grant', amount: 2.2, balance_after: 3.3, reason: 'promo' }], has_more: true, totals: [{ operation: 'grant', kind: 'grant', amount: 3.3, count: 2 }] });
    const next = await api.req('GET', `/api/v2/usage?limit=1&before=${usage.body.next_before}`);
    expect(next.body.data[0]).toMatchObject({ amount: 1.1, balance_after: 1.1 });
    expect((await owner.req('GET', `/api/admin/users/${user.id}/usage`)).body.data).toHaveLength(2);
  });

  it('shows a job only to the owner of the key that made it (404 for others)', async () => {
    const a = await newUser('erin@example.com');
    const b = await newUser('frank@example.com');
    const { body } = await a.api.req('POST', '/api/v1/convert', { image_url: 'https://example.invalid/a.jpg' });
    expect((await a.api.req('GET', `/api/v1/status/${body.job_id}`)).status).toBe(200);
    expect((await b.api.req('GET', `/api/v1/status/${body.job_id}`)).status).toBe(404);
    expect((await owner.req('GET', `/api/v1/status/${body.job_id}`)).status).toBe(404);
    expect((await b.api.req('GET', `/api/v1/result/${body.job_id}`)).status).toBe(404);
  });
});
