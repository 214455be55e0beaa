import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import type { ConsoleRepository, ConsoleSessionRow } from '@app/persistence';
import { MemoryRateLimiter } from '../http/rate-limit/memory-rate-limiter.adapter';
import { ConsoleSessionService, readCookie } from './console-session.service';

const config = (secure: boolean) =>
  ({
    publicBaseUrl: secure ? 'https://ar.example.com' : 'http://localhost:3000',
    console: {
      sessionIdleMs: 3600_000,
      inviteTtlMs: 7 * 86400_000,
      secureCookies: secure,
      loginPerAccount: 3,
      loginPerIp: 5,
      loginWindowMs: 60_000,
    },
  }) as unknown as AppConfig;

/** Sessions and users in memory: what the service asks of its repository. */
function fakeRepo() {
  const sessions = new Map<string, ConsoleSessionRow>();
  const users = new Map<
    string,
    { id: string; email: string; name: null; consoleRole: 'customer' | 'owner'; passwordHash: string | null; internal: false }
  >();
  const repo = {
    findUserByEmail: async (e: string) => [...users.values()].find((u) => u.email === e) ?? null,
    deleteExpired: async () => 0,
    createSession: async (idHash: string, userId: string, csrf: string, expires: Date) => {
      const u = users.get(userId)!;
      sessions.set(idHash, {
        userId,
        email: u.email,
        name: null,
        consoleRole: u.consoleRole,
        csrfToken: csrf,
        createdAt: new Date(),
        expiresAt: expires,
        lastSeenAt: new Date(),
      });
    },
    findSession: async (h: string) => sessions.get(h) ?? null,
    touchSession: async () => undefined,
    deleteSession: async (h: string) => void sessions.delete(h),
  };
  return { repo: repo as unknown as ConsoleRepository, users, sessions };
}

const req = (headers: Record<string, string>, method = 'GET') => ({ headers, method }) as unknown as FastifyRequest;

describe('ConsoleSessionService', () => {
  it('signs in with the right password only, opening a session that maps to an API principal', async () => {
    const { repo, users } = fakeRepo();
    const svc = new ConsoleSessionService(config(false), repo, new MemoryRateLimiter());
    const { hash } = await import('@node-rs/argon2');
    users.set('usr_a', {
      id: 'usr_a',
      email: 'a@example.com',
      name: null,
      consoleRole: 'customer',
      passwordHash: await hash('right password'),
      internal: false,
    });
    expect(await svc.signIn('a@example.com', 'wrong password', '1.2.3.4')).toEqual({ error: 'invalid' });
    expect(await svc.signIn('nobody@example.com', 'right password', '1.2.3.4')).toEqual({ error: 'invalid' });
    const ok = await svc.signIn('a@example.com', 'right password', '1.2.3.4');
    if (!('sessionId' in ok)) throw new Error('not signed in');
    const cookie = `console_session=${ok.sessionId}`;
    expect(await svc.principalFor(req({ cookie }))).toEqual({ userId: 'usr_a', keyType: 'user', keyId: 'session:usr_a', scope: 'full' });
    // State changes need the session's CSRF token.
    await expect(svc.principalFor(req({ cookie }, 'POST'))).rejects.toMatchObject({ code: 'csrf_token_invalid' });
    const csrf = (await svc.current(req({ cookie })))!.csrfToken;
    expect(await svc.principalFor(req({ cookie, 'x-csrf-token': csrf }, 'DELETE'))).toMatchObject({ userId: 'usr_a' });
    // No cookie: not a session request; an unknown cookie: 401.
    expect(await svc.principalFor(req({}))).toBeNull();
    await expect(svc.principalFor(req({ cookie: 'console_session=forged' }))).rejects.toMatchObject({ status: 401 });
  });

  it('maps an owner-role session to the owner principal', async () => {
    const { repo, users } = fakeRepo();
    const svc = new ConsoleSessionService(config(false), repo, new MemoryRateLimiter());
    const { hash } = await import('@node-rs/argon2');
    users.set('usr_o', {
      id: 'usr_o',
      email: 'o@example.com',
      name: null,
      consoleRole: 'owner',
      passwordHash: await hash('owner password'),
      internal: false,
    });
    const ok = await svc.signIn('o@example.com', 'owner password', '1.2.3.4');
    expect(await svc.principalFor(req({ cookie: `console_session=${(ok as { sessionId: string }).sessionId}` }))).toEqual({
      userId: 'service',
      keyType: 'owner',
      scope: 'full',
    });
  });

  it('limits sign-in attempts per account and per IP', async () => {
    const { repo } = fakeRepo();
    const svc = new ConsoleSessionService(config(false), repo, new MemoryRateLimiter());
    for (let i = 0; i < 3; i++) expect(await svc.signIn('a@example.com', 'x', `10.0.0.${i}`)).toEqual({ error: 'invalid' });
    expect(await svc.signIn('a@example.com', 'x', '10.0.0.9')).toMatchObject({ error: 'limited' });
    for (let i = 0; i < 2; i++) expect(await svc.signIn(`u${i}@example.com`, 'x', '10.0.0.1')).toEqual({ error: 'invalid' });
    // 10.0.0.1 has tried 3 times (new accounts each time): its 6th attempt is over the per-IP limit (5).
    expect(await svc.signIn('z@example.com', 'x', '10.0.0.1')).toEqual({ error: 'invalid' });
    expect(await svc.signIn('y@example.com', 'x', '10.0.0.1')).toEqual({ error: 'invalid' });
    expect(await svc.signIn('w@example.com', 'x', '10.0.0.1')).toMatchObject({ error: 'limited' });
  });

  it('counts an IPv6 client per /64: rotating the interface id gains no attempts', async () => {
    const { repo } = fakeRepo();
    const svc = new ConsoleSessionService(config(false), repo, new MemoryRateLimiter());
    for (let i = 0; i < 5; i++) expect(await svc.signIn(`v${i}@example.com`, 'x', `2001:db8:5:6::${i + 1}`)).toEqual({ error: 'invalid' });
    expect(await svc.signIn('v9@example.com', 'x', '2001:db8:5:6:ffff::9')).toMatchObject({ error: 'limited' });
    // Another /64 has its own budget.
    expect(await svc.signIn('v9@example.com', 'x', '2001:db8:5:7::1')).toEqual({ error: 'invalid' });
  });

  it('names cookies __Host- and marks them Secure behind https; checks passwords', () => {
    const secure = new ConsoleSessionService(config(true), fakeRepo().repo, new MemoryRateLimiter());
    const headers: string[] = [];
    const reply = {
      header: (k: string, v: string) => {
        headers.push(`${k}: ${v}`);
        return reply;
      },
    };
    secure.setSessionCookie(reply as never, 'abc');
    expect(headers[0]).toBe('set-cookie: __Host-console_session=abc; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure');
    expect(readCookie(req({ cookie: 'a=1; __Host-console_session=abc; b=2' }), '__Host-console_session')).toBe('abc');
    expect(ConsoleSessionService.passwordProblems('short', 'short')).toEqual([
      { field: 'password', message: 'Use at least 10 characters.' },
    ]);
    expect(ConsoleSessionService.passwordProblems('long enough!', 'different!!')).toEqual([
      { field: 'confirm', message: 'The two passwords differ.' },
    ]);
  });
});
