import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { AccountRepository, ConsoleRepository } from './index';

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('ConsoleRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let repo: ConsoleRepository;
  let accounts: AccountRepository;
  const later = (ms: number) => new Date(Date.now() + ms);
  beforeAll(async () => {
    ({ ds, drop } = await open());
    repo = new ConsoleRepository(ds);
    accounts = new AccountRepository(ds);
  });
  afterAll(() => drop());

  it('redeems an invite once: sets the password, and tells a used, expired or unknown token apart', async () => {
    const u = await accounts.createUser({ email: 'Invitee@Example.com' });
    expect(await repo.findUserByEmail('invitee@example.com')).toMatchObject({ id: u.id, consoleRole: 'customer', passwordHash: null });
    await repo.createInvite(u.id, 'a'.repeat(64), later(60_000));
    await repo.createInvite(u.id, 'b'.repeat(64), later(-1000));
    expect(await repo.findInvite('a'.repeat(64))).toMatchObject({ userId: u.id, email: 'Invitee@Example.com', usedAt: null });
    // Two at once: exactly one wins.
    const both = await Promise.all([repo.redeemInvite('a'.repeat(64), 'hash-1'), repo.redeemInvite('a'.repeat(64), 'hash-2')]);
    expect(both.filter((r) => 'userId' in r)).toHaveLength(1);
    expect(both.filter((r) => 'failure' in r)).toEqual([{ failure: 'used' }]);
    expect((await repo.findUser(u.id))!.passwordHash).toMatch(/^hash-[12]$/);
    expect(await repo.redeemInvite('b'.repeat(64), 'x')).toEqual({ failure: 'expired' });
    expect(await repo.redeemInvite('c'.repeat(64), 'x')).toEqual({ failure: 'unknown' });
  });

  it('keeps sessions by id hash until they expire, are deleted, or the password is set again', async () => {
    const u = await accounts.createUser({ email: 'sessions@example.com' });
    await repo.setRole(u.id, 'owner');
    await repo.createSession('s'.repeat(64), u.id, 'csrf-1', later(60_000));
    await repo.createSession('t'.repeat(64), u.id, 'csrf-2', later(-1000));
    expect(await repo.findSession('s'.repeat(64))).toMatchObject({
      userId: u.id,
      email: 'sessions@example.com',
      consoleRole: 'owner',
      csrfToken: 'csrf-1',
    });
    expect(await repo.findSession('t'.repeat(64))).toBeNull();
    expect(await repo.deleteExpired()).toBeGreaterThanOrEqual(1);
    await repo.touchSession('s'.repeat(64), later(120_000));
    expect((await repo.findSession('s'.repeat(64)))!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 100_000);
    // A new password (a redeemed invite) ends every session of the user.
    await repo.createInvite(u.id, 'd'.repeat(64), later(60_000));
    await repo.redeemInvite('d'.repeat(64), 'new-hash');
    expect(await repo.findSession('s'.repeat(64))).toBeNull();
    await repo.createSession('u'.repeat(64), u.id, 'csrf-3', later(60_000));
    await repo.deleteSession('u'.repeat(64));
    expect(await repo.findSession('u'.repeat(64))).toBeNull();
  });

  it('never finds the internal service user', async () => {
    expect(await repo.findUser('service')).toBeNull();
    expect(await repo.findUserByEmail('service@internal')).toBeNull();
  });
});
