import { Inject, Injectable } from '@nestjs/common';
import { type BillableOperation, displayPrefix, hashApiKey, type PricingPolicy, toCredits, USER_KEY_PREFIX } from '@app/billing';
import { randomBase62 } from '@app/config';
import { AccountRepository, type ApiKeyRow, LastFullKeyError, ShowcaseRepository, type UserRow } from '@app/persistence';
import { PRICING_POLICY } from '@app/runtime';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { ApiKeyCache } from '../http/api-keys/api-key-cache.service';
import { parseInput } from '@app/schema';
import { AddCreditsBody, CreateKeyBody, CreateUserBody, UsageQuery } from './accounts.schema';

/** A key as its user sees it: never the secret (it is not stored), only its display prefix. */
export const keyView = (k: ApiKeyRow) => ({
  id: k.id,
  object: 'api_key' as const,
  name: k.name,
  scope: k.scope,
  prefix: k.prefix,
  allowed_origins: k.allowedOrigins,
  created_at: new Date(k.createdAt).toISOString(),
  last_used_at: k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : null,
});

const userView = (u: UserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  credits: toCredits(u.creditsCents),
  showcase_slots: u.showcaseSlots,
});

/** Operators' account management and the caller's own identity and usage. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly showcases: ShowcaseRepository,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    private readonly keyCache: ApiKeyCache,
  ) {}

  async createUser(body: unknown) {
    const { email, name, credits = 0, showcase_slots: slots = 0 } = parseInput(CreateUserBody, body ?? {});
    if (await this.accounts.findUserByEmail(email))
      throw new ApiError(409, 'conflict', 'email_taken', `a user with email ${email} exists`, 'email');
    const user = await this.accounts.createUser({ email, name: name ?? null, showcaseSlots: slots });
    if (credits > 0) user.creditsCents = await this.accounts.grant(user.id, credits, 'initial credits');
    return userView(user);
  }

  private async user(id: string): Promise<UserRow> {
    const u = /^usr_[a-z2-7]{1,40}$/.test(id) ? await this.accounts.findUser(id) : null;
    if (!u) throw ApiError.notFound(`user ${id.slice(0, 60)}`);
    return u;
  }

  /** A new key `{name?, scope?, allowed_origins?}` (default: a full key), shown this once; only its hash is kept. */
  async createKey(userId: string, body: unknown) {
    const req = parseInput(CreateKeyBody, body);
    await this.user(userId);
    const key = `${USER_KEY_PREFIX}${randomBase62(40)}`;
    const row = await this.accounts.addKey(userId, { keyHash: hashApiKey(key), prefix: displayPrefix(key), ...req });
    return { ...keyView(row), key };
  }

  /** The caller's own keys (self-service): per-user keys only; the owner key has no user to manage. */
  private selfService(p: Principal): string {
    if (p.keyType === 'owner')
      throw new ApiError(
        403,
        'permission_error',
        'user_key_required',
        "the owner key has no per-user keys: manage a user's keys with /api/admin/users/{id}/keys",
      );
    return p.userId;
  }

  async createOwnKey(p: Principal, body: unknown) {
    return this.createKey(this.selfService(p), body);
  }

  async listOwnKeys(p: Principal) {
    return { data: (await this.accounts.listLiveKeys(this.selfService(p))).map(keyView) };
  }

  /**
   * Revokes one of the caller's keys, at once in every API process. The last full key stays unless
   * `force`: without it the account could no longer manage its keys (an operator would have to make one).
   */
  async revokeOwnKey(p: Principal, keyId: string, force: boolean): Promise<void> {
    const userId = this.selfService(p);
    let revoked: boolean;
    try {
      revoked = await this.accounts.revokeUserKey(userId, keyId, { force });
    } catch (e) {
      if (!(e instanceof LastFullKeyError)) throw e;
      throw new ApiError(
        409,
        'conflict',
        'last_full_key',
        `key ${keyId} is the last full key of this account: without it no key could manage keys; create another full key first, or repeat with ?force=true`,
      );
    }
    if (!revoked) throw ApiError.notFound(`key ${keyId.slice(0, 60)}`);
    await this.keyCache.revoked({ keyId });
  }

  async addCredits(userId: string, body: unknown) {
    await this.user(userId);
    const { amount: cents, reason = null } = parseInput(AddCreditsBody, body ?? {});
    return { balance: toCredits(await this.accounts.grant(userId, cents, reason)) };
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!(await this.accounts.revokeKey(keyId))) throw ApiError.notFound(`key ${keyId.slice(0, 60)}`);
    await this.keyCache.revoked({ keyId });
  }

  async me(p: Principal) {
    const u = await this.accounts.findUser(p.userId);
    if (!u) throw ApiError.notFound('user');
    return {
      ...userView(u),
      key: {
        type: p.keyType === 'owner' ? 'owner' : 'user',
        prefix: p.keyType === 'owner' ? null : p.keyPrefix,
        billed: p.keyType !== 'owner',
        scope: p.scope,
      },
      // The owner key is not limited by slots (it is never billed); its count is still shown.
      showcase_slots: { used: await this.showcases.countForOwner(u.id), total: u.showcaseSlots, limited: p.keyType !== 'owner' },
    };
  }

  async usage(userId: string, query: unknown) {
    const { limit = 50, before } = parseInput(UsageQuery, query ?? {});
    const entries = await this.accounts.ledger(userId, limit + 1, before);
    const page = entries.slice(0, limit);
    const totals = await this.accounts.totals(userId);
    return {
      data: page.map((e) => ({
        id: e.id,
        kind: e.kind,
        amount: toCredits(e.amountCents),
        balance_after: e.balanceAfterCents === null ? null : toCredits(e.balanceAfterCents),
        operation: e.operation,
        job_id: e.jobId,
        reason: e.reason,
        created_at: new Date(e.createdAt).toISOString(),
      })),
      has_more: entries.length > limit,
      next_before: entries.length > limit ? page[page.length - 1].id : null,
      totals: totals.map((t) => ({ operation: t.operation, kind: t.kind, amount: toCredits(t.cents), count: t.count })),
    };
  }

  /** The price list of the configured policy; `billed: false` for the owner key (never charged). */
  priceList(p: Principal) {
    const ops: { operation: string; params: Record<string, unknown>; op: BillableOperation }[] = [
      { operation: 'showcase.create', params: {}, op: { kind: 'showcase.create' } },
      { operation: 'showcase.picture', params: { count: 1 }, op: { kind: 'showcase.picture', count: 1 } },
      { operation: 'showcase.wall', params: {}, op: { kind: 'showcase.wall' } },
      ...(['image', 'video'] as const).flatMap((source) =>
        [false, true].map((rb) => ({
          operation: 'animated-ar',
          params: { source, remove_background: rb },
          op: { kind: 'animated-ar', source, removeBackground: rb } as BillableOperation,
        })),
      ),
    ];
    return {
      policy: this.pricing.name,
      billed: p.keyType !== 'owner',
      operations: ops.map(({ operation, params, op }) => {
        const q = this.pricing.quote(op);
        return {
          operation,
          ...params,
          credits: toCredits(q.totalCents),
          lines: q.lines.map((l) => ({ item: l.item, credits: toCredits(l.cents) })),
        };
      }),
    };
  }
}
