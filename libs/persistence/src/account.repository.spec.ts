import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { AccountRepository, InsufficientCreditsError, LastFullKeyError } from './index';

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(60)],
])('AccountRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let accounts: AccountRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    accounts = new AccountRepository(ds);
  });
  afterAll(() => drop());

  it('has the internal service user for the owner key', async () => {
    expect(await accounts.findUser('service')).toMatchObject({ internal: true });
  });

  it('stores keys by hash, finds live ones, and revokes', async () => {
    const u = await accounts.createUser({ email: `k${Date.now()}@example.com`, name: 'K' });
    const key = await accounts.addKey(u.id, { keyHash: 'a'.repeat(64), prefix: 'sk_live_abcd' });
    expect(key).toMatchObject({ userId: u.id, prefix: 'sk_live_abcd', revokedAt: null, scope: 'full', name: null, allowedOrigins: [] });
    expect((await accounts.findLiveKey('a'.repeat(64)))!.lastUsedAt).toBeNull();
    await accounts.touchKey(key.id);
    expect((await accounts.findLiveKey('a'.repeat(64)))!.lastUsedAt).toBeInstanceOf(Date);
    expect(await accounts.revokeKey(key.id)).toBe(true);
    expect(await accounts.findLiveKey('a'.repeat(64))).toBeNull();
    expect(await accounts.revokeKey('key_nope')).toBe(false);
  });

  it('keeps scope, name and origins, lists live keys and keeps the last full key unless forced', async () => {
    const u = await accounts.createUser({ email: `s${Date.now()}@example.com` });
    const full = await accounts.addKey(u.id, { keyHash: 'b'.repeat(64), prefix: 'sk_live_bbbb', name: 'server' });
    const widget = await accounts.addKey(u.id, {
      keyHash: 'c'.repeat(64),
      prefix: 'sk_live_cccc',
      name: 'shop',
      scope: 'widget',
      allowedOrigins: ['https://shop.example'],
    });
    expect(await accounts.findLiveKey('c'.repeat(64))).toMatchObject({
      id: widget.id,
      scope: 'widget',
      name: 'shop',
      allowedOrigins: ['https://shop.example'],
    });
    expect((await accounts.listLiveKeys(u.id)).map((k) => k.id).sort()).toEqual([full.id, widget.id].sort());
    await expect(accounts.revokeUserKey(u.id, full.id, { force: false })).rejects.toBeInstanceOf(LastFullKeyError);
    expect(await accounts.revokeUserKey(u.id, widget.id, { force: false })).toBe(true);
    expect(await accounts.revokeUserKey('usr_other', full.id, { force: true })).toBe(false);
    expect(await accounts.revokeUserKey(u.id, full.id, { force: true })).toBe(true);
    expect(await accounts.listLiveKeys(u.id)).toEqual([]);
  });

  it('grants, charges once per job and purpose, refunds once, exact to 0.01', async () => {
    const u = await accounts.createUser({ email: `c${Date.now()}@example.com` });
    expect(await accounts.grant(u.id, 2001, 'welcome')).toBe(2001);
    const c1 = await accounts.charge(u.id, 1350, { jobId: 'v2_a', purpose: 'animated-ar', operation: 'animated-ar' });
    const c2 = await accounts.charge(u.id, 1350, { jobId: 'v2_a', purpose: 'animated-ar', operation: 'animated-ar' });
    expect(c2.id).toBe(c1.id);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(651);
    await expect(accounts.charge(u.id, 1350, { jobId: 'v2_b', purpose: 'animated-ar', operation: 'animated-ar' })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    const r1 = await accounts.refund('v2_a', 'animated-ar', 1250);
    const r2 = await accounts.refund('v2_a', 'animated-ar', 1250);
    expect(r2!.id).toBe(r1!.id);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(1901);
    expect(await accounts.refund('v2_none', 'animated-ar')).toBeNull();
    const entries = await accounts.ledger(u.id, 10);
    expect(entries.map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['refund', 1250, 1901],
      ['charge', 1350, 651],
      ['grant', 2001, 2001],
    ]);
    expect(await accounts.totals(u.id)).toEqual([
      { operation: 'animated-ar', kind: 'charge', cents: 1350, count: 1 },
      { operation: 'animated-ar', kind: 'refund', cents: 1250, count: 1 },
      { operation: 'grant', kind: 'grant', cents: 2001, count: 1 },
    ]);
  });

  it('tells its hooks what each committed charge and refund moved, once, never for a replay', async () => {
    const moved: string[] = [];
    const hooked = new AccountRepository(ds, { charged: (c) => moved.push(`charged ${c}`), refunded: (c) => moved.push(`refunded ${c}`) });
    const u = await hooked.createUser({ email: `h${Date.now()}@example.com` });
    await hooked.grant(u.id, 1000, 'welcome');
    await hooked.charge(u.id, 300, { jobId: 'v2_h', purpose: 'p', operation: 'p' });
    await hooked.charge(u.id, 300, { jobId: 'v2_h', purpose: 'p', operation: 'p' });
    await expect(hooked.charge(u.id, 5000, { jobId: 'v2_h2', purpose: 'p', operation: 'p' })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    await hooked.refund('v2_h', 'p');
    await hooked.refund('v2_h', 'p');
    expect(await hooked.refundJob('v2_h')).toBe(0);
    expect(moved).toEqual(['charged 300', 'refunded 300']);
  });

  it('never lets the balance go below zero under 50 concurrent charges', async () => {
    const u = await accounts.createUser({ email: `race${Date.now()}@example.com` });
    await accounts.grant(u.id, 13500, 'covers ten');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        accounts.charge(u.id, 1350, { jobId: `v2_race_${i}`, purpose: 'animated-ar', operation: 'animated-ar' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(40);
    expect(rejected.every((r) => r.reason instanceof InsufficientCreditsError)).toBe(true);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(0);
    const charges = (await accounts.ledger(u.id, 100)).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(10);
  });
});
