import { Inject, Injectable, Logger } from '@nestjs/common';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import { type ConsoleRole, ConsoleRepository, type ConsoleSessionRow, type InviteRedeemFailure } from '@app/persistence';
import { APP_CONFIG, SERVICE_USER_ID } from '@app/runtime';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/principal';
import { clientBucket } from '../http/rate-limit/client-bucket';
import { RATE_LIMITER, type RateLimiterPort } from '../http/rate-limit/rate-limiter.port';

/** Session cookie names: the `__Host-` prefix (Secure, Path=/, no Domain) wherever the cookie can be Secure. */
const COOKIE = { secure: '__Host-console_session', plain: 'console_session' };
const PRE_CSRF = { secure: '__Host-console_csrf', plain: 'console_csrf' };
/** argon2id, OWASP's second configuration (19 MiB, 2 passes): about 30 ms a hash here. */
const ARGON = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MIN_PASSWORD = 10;
/** A session's last-seen time is written at most this often (every request would be a write). */
const TOUCH_EVERY_MS = 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const secret = () => randomBytes(32).toString('base64url');

export function sameSecret(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Cookie header -> value of one cookie (no dependency: the console sets two cookies only). A value that is
 * not URL-encoded text (`%E0%A4%A`) is no cookie of ours: undefined, so the request is simply signed out.
 */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface ConsoleSession extends ConsoleSessionRow {
  idHash: string;
}

export type PasswordProblem = { field: 'password' | 'confirm'; message: string };

/**
 * Console sign-in: invites (single use, 7 days), passwords (argon2id), server-side sessions in the
 * database, CSRF tokens and sign-in rate limits. Secrets (session ids, invite tokens) are stored and
 * looked up by their SHA-256 only and never logged.
 */
@Injectable()
export class ConsoleSessionService {
  private readonly logger = new Logger('Console');
  /** An argon2id hash of a random string, verified against when the email is unknown; made on first use. */
  private dummyHash?: Promise<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: ConsoleRepository,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterPort,
  ) {}

  get cookieName(): string {
    return this.config.console.secureCookies ? COOKIE.secure : COOKIE.plain;
  }

  get preCsrfCookieName(): string {
    return this.config.console.secureCookies ? PRE_CSRF.secure : PRE_CSRF.plain;
  }

  // ---- invites

  /** A new invite for an existing (non-internal) user; `role: 'owner'` also makes the account an owner. */
  async invite(
    userId: string,
    role?: ConsoleRole,
  ): Promise<{ invite_url: string; expires_at: string; user_id: string; email: string; role: ConsoleRole }> {
    const user = /^usr_[a-z2-7]{1,40}$/.test(userId) ? await this.repo.findUser(userId) : null;
    if (!user) throw ApiError.notFound(`user ${userId.slice(0, 60)}`);
    if (role === 'owner' && user.consoleRole !== 'owner') await this.repo.setRole(user.id, 'owner');
    const token = secret();
    const inv = await this.repo.createInvite(user.id, sha256(token), new Date(Date.now() + this.config.console.inviteTtlMs));
    // In the query (not the path): the log scrubber hides `token=` values, so request logs never hold it.
    return {
      invite_url: `${this.config.publicBaseUrl}/console/invite?token=${token}`,
      expires_at: new Date(inv.expiresAt).toISOString(),
      user_id: user.id,
      email: user.email,
      role: role === 'owner' ? 'owner' : user.consoleRole,
    };
  }

  async findInvite(token: string): Promise<{ email: string } | { failure: InviteRedeemFailure }> {
    const inv = token ? await this.repo.findInvite(sha256(token)) : null;
    if (!inv) return { failure: 'unknown' };
    if (inv.usedAt) return { failure: 'used' };
    if (new Date(inv.expiresAt).getTime() <= Date.now()) return { failure: 'expired' };
    return { email: inv.email };
  }

  static passwordProblems(password: string, confirm: string): PasswordProblem[] {
    const out: PasswordProblem[] = [];
    if (password.length < MIN_PASSWORD) out.push({ field: 'password', message: `Use at least ${MIN_PASSWORD} characters.` });
    else if (password.length > 200) out.push({ field: 'password', message: 'Use at most 200 characters.' });
    if (password !== confirm) out.push({ field: 'confirm', message: 'The two passwords differ.' });
    return out;
  }

  /** Sets the password from an invite (which is spent) and opens a session; the session's cookie value. */
  async acceptInvite(token: string, password: string): Promise<{ sessionId: string } | { failure: InviteRedeemFailure }> {
    const res = await this.repo.redeemInvite(sha256(token), await argonHash(password, ARGON));
    if ('failure' in res) return res;
    return { sessionId: await this.open(res.userId) };
  }

  // ---- sign in / out

  /**
   * Checks email + password under per-account and per-IP limits (counted on every attempt, so a guesser
   * gains nothing from successes in between). Wrong email and wrong password read the same.
   *
   * The account's budget is keyed on the user the email finds (the database's `lower()` decides which, and
   * it folds more than JavaScript's toLowerCase: `alİce` finds alice), so no spelling of an address gets a
   * fresh one. An email that finds nobody is counted under its own text: there is no account to protect.
   */
  async signIn(
    email: string,
    password: string,
    ip: string,
  ): Promise<{ sessionId: string } | { error: 'invalid' } | { error: 'limited'; retryS: number }> {
    const { loginPerAccount, loginPerIp, loginWindowMs } = this.config.console;
    // Per client: an IPv4 address or an IPv6 /64 (one subscriber owns a /64 and could rotate through it).
    const limited = await this.spend(`console-login:ip:${clientBucket(ip)}`, loginPerIp, loginWindowMs);
    if (limited) return limited;
    const user = email ? await this.repo.findUserByEmail(email) : null;
    const account = await this.spend(
      user ? `console-login:user:${user.id}` : `console-login:acct:${email.toLowerCase().slice(0, 320)}`,
      loginPerAccount,
      loginWindowMs,
    );
    if (account) return account;
    // Verify against a hash even for an unknown email, so timing does not tell which emails have accounts.
    const ok = await argonVerify(user?.passwordHash ?? (await (this.dummyHash ??= argonHash(secret(), ARGON))), password || '-').catch(
      () => false,
    );
    if (!user?.passwordHash || !ok) return { error: 'invalid' };
    return { sessionId: await this.open(user.id) };
  }

  /** One attempt from the bucket; the refusal when it is spent (a limiter outage lets the attempt through). */
  private async spend(bucket: string, limit: number, windowMs: number): Promise<{ error: 'limited'; retryS: number } | null> {
    try {
      const d = await this.limiter.consume(bucket, limit, windowMs);
      return d.allowed ? null : { error: 'limited', retryS: Math.max(1, Math.ceil(d.resetMs / 1000)) };
    } catch (err) {
      this.logger.warn(`rate limiter unavailable, sign-in attempt allowed: ${(err as Error).message}`);
      return null;
    }
  }

  async signOut(session: ConsoleSession): Promise<void> {
    await this.repo.deleteSession(session.idHash);
  }

  private async open(userId: string): Promise<string> {
    // Sign-ins are rare next to requests: a good moment to drop expired sessions and old invites.
    await this.repo.deleteExpired();
    const id = secret();
    await this.repo.createSession(sha256(id), userId, secret(), new Date(Date.now() + this.config.console.sessionIdleMs));
    return id;
  }

  // ---- sessions

  /** The request's live session, or null (no cookie, unknown, expired). Slides the idle expiry. */
  async current(req: FastifyRequest): Promise<ConsoleSession | null> {
    const id = readCookie(req, this.cookieName);
    if (!id || id.length > 100) return null;
    const idHash = sha256(id);
    const row = await this.repo.findSession(idHash);
    if (!row) return null;
    if (Date.now() - new Date(row.lastSeenAt).getTime() > TOUCH_EVERY_MS) {
      await this.repo.touchSession(idHash, new Date(Date.now() + this.config.console.sessionIdleMs));
    }
    return { ...row, idHash };
  }

  /**
   * The API principal of a session (the console's browser code calls the public API with its cookie):
   * an owner-role account acts as the owner key, a customer as its own account with a full key's rights.
   * Every state change needs the session's CSRF token in X-CSRF-Token.
   */
  async principalFor(req: FastifyRequest): Promise<Principal | null> {
    if (!readCookie(req, this.cookieName)) return null;
    const s = await this.current(req);
    if (!s) throw ApiError.unauthorized('console session expired or signed out; sign in again');
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method)) {
      const header = req.headers['x-csrf-token'];
      if (!sameSecret(Array.isArray(header) ? header[0] : header, s.csrfToken)) {
        throw new ApiError(
          403,
          'permission_error',
          'csrf_token_invalid',
          'a console session needs its CSRF token in the X-CSRF-Token header for this request',
        );
      }
    }
    if (s.consoleRole === 'owner') return { userId: SERVICE_USER_ID, keyType: 'owner', scope: 'full' };
    return { userId: s.userId, keyType: 'user', keyId: `session:${s.userId}`, scope: 'full' };
  }

  // ---- cookies

  setSessionCookie(reply: FastifyReply, sessionId: string): void {
    void reply.header('set-cookie', this.cookie(this.cookieName, sessionId, Math.floor(this.config.console.sessionIdleMs / 1000)));
  }

  clearSessionCookie(reply: FastifyReply): void {
    void reply.header('set-cookie', this.cookie(this.cookieName, '', 0));
  }

  /** The double-submit token for forms shown before a session exists (sign-in, invite): cookie + hidden field. */
  preSessionCsrf(req: FastifyRequest, reply: FastifyReply): string {
    const have = readCookie(req, this.preCsrfCookieName);
    if (have && /^[A-Za-z0-9_-]{43}$/.test(have)) return have;
    const token = secret();
    void reply.header('set-cookie', this.cookie(this.preCsrfCookieName, token, 3600));
    return token;
  }

  /** The session's CSRF token in a form field (sign-out). */
  csrfValid(s: ConsoleSession, field: unknown): boolean {
    return typeof field === 'string' && sameSecret(field, s.csrfToken);
  }

  preSessionCsrfValid(req: FastifyRequest, field: unknown): boolean {
    return typeof field === 'string' && sameSecret(readCookie(req, this.preCsrfCookieName), field);
  }

  private cookie(name: string, value: string, maxAgeS: number): string {
    return `${name}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${this.config.console.secureCookies ? '; Secure' : ''}`;
  }
}
