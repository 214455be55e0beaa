import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { AccountRepository, type ApiKeyRow } from '@app/persistence';
import { APP_CONFIG } from '@app/runtime';
import { KEY_REVOCATIONS, type KeyRevocation, type KeyRevocationsPort } from './key-revocations.port';

/** `last_used_at` is written at most this often per key: a minute is what a "last used" column is read at. */
const TOUCH_INTERVAL_MS = 60_000;
/** Bounds memory when many keys are used: the oldest entries go first. */
const MAX_ENTRIES = 50_000;

/**
 * Per-user API keys found by hash, kept for API_KEY_CACHE_TTL_S so that a read request costs no key
 * lookup and no write: the read path used to run `UPDATE api_keys SET last_used_at` on every request (a
 * commit per GET). Revoking a key or deleting a user drops the entries in every API process at once
 * (through {@link KeyRevocationsPort}); the lifetime bounds a missed message. Unknown keys are not cached.
 * An entry carries the key's scope and allowed origins: both are fixed when the key is made (a different
 * scope is a new key), so revocation is the only change an entry can miss.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly logger = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, { key: ApiKeyRow; expiresAt: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountRepository,
    @Inject(KEY_REVOCATIONS) private readonly revocations: KeyRevocationsPort,
  ) {
    revocations.subscribe((r) => this.drop(r));
  }

  /** The live key with this hash, from memory when fresh; null when unknown or revoked. */
  async find(keyHash: string, now = Date.now()): Promise<ApiKeyRow | null> {
    const hit = this.entries.get(keyHash);
    let key: ApiKeyRow | null;
    if (hit && hit.expiresAt > now) {
      key = hit.key;
    } else {
      this.entries.delete(keyHash);
      key = await this.accounts.findLiveKey(keyHash);
      if (key && this.config.apiKeyCacheTtlMs > 0) {
        if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(keyHash, { key, expiresAt: now + this.config.apiKeyCacheTtlMs });
      }
    }
    if (key) this.touch(key.id, now);
    return key;
  }

  /** Drops the key (or all of a user's keys) here and in every other API process. */
  async revoked(revocation: KeyRevocation): Promise<void> {
    this.drop(revocation);
    await this.revocations
      .publish(revocation)
      .catch((e: Error) =>
        this.logger.warn(`revocation not broadcast (other API processes keep the key up to API_KEY_CACHE_TTL_S): ${e.message}`),
      );
  }

  async onModuleDestroy(): Promise<void> {
    await this.revocations.close();
  }

  private drop(r: KeyRevocation): void {
    for (const [hash, e] of this.entries) {
      if ((r.keyId && e.key.id === r.keyId) || (r.userId && e.key.userId === r.userId)) this.entries.delete(hash);
    }
  }

  /** Writes last_used_at in the background, at most once a minute per key; a failure costs only precision. */
  private touch(id: string, now: number): void {
    if (now - (this.touched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.touched.set(id, now);
    if (this.touched.size > MAX_ENTRIES) this.touched.delete(this.touched.keys().next().value as string);
    this.accounts.touchKey(id).catch((e: Error) => this.logger.warn(`last_used_at not recorded: ${e.message}`));
  }
}
