import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { IdempotencyRepository } from '@app/persistence';
import { APP_CONFIG } from '@app/runtime';
import { ApiError } from '../api-error';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Text already rendered, as opposed to a value still to render (on the stack of {@link canonicalJson}). */
class Raw {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. An explicit stack instead
 * of recursion: however deep the value, this cannot overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v instanceof Raw) {
      out.push(v.text);
    } else if (Array.isArray(v)) {
      const parts: unknown[] = [new Raw('[')];
      v.forEach((e, i) => parts.push(new Raw(i ? ',' : ''), e));
      parts.push(new Raw(']'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else if (v && typeof v === 'object') {
      const parts: unknown[] = [new Raw('{')];
      Object.keys(v)
        .sort()
        .forEach((k, i) => parts.push(new Raw(`${i ? ',' : ''}${JSON.stringify(k)}:`), (v as Record<string, unknown>)[k]));
      parts.push(new Raw('}'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else {
      out.push(JSON.stringify(v ?? null));
    }
  }
  return out.join('');
}

/** What identifies "the same request": method, route and body. */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${route}\n${canonicalJson(body)}`)
    .digest('hex');
}

export interface IdempotentOutcome<T> {
  body: T;
  status: number;
  replayed: boolean;
}

/**
 * Idempotency-Key handling (Stripe's model): the first request with a key runs and its answer is kept
 * for IDEMPOTENCY_TTL_HOURS (>= 24 h); the same key with the same request gets that answer again; the
 * same key with a different request -> 409 idempotency_key_reused; while the first still runs -> 409
 * idempotency_key_in_use. A request that fails with an error frees its key, so a corrected retry may
 * reuse it (nothing was created or charged).
 */
@Injectable()
export class IdempotencyService {
  private lastPurge = 0;

  constructor(
    private readonly repo: IdempotencyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Validates the header value; undefined when the client sent none. */
  parseKey(header: string | string[] | undefined): string | undefined {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return undefined;
    if (!KEY.test(key))
      throw ApiError.invalid('Idempotency-Key', 'Idempotency-Key: 1 to 255 printable ASCII characters', 'idempotency_key_invalid');
    return key;
  }

  /** Whether a request with this key was answered already, so a retry would get that answer again. */
  async answered(userId: string, key: string | undefined): Promise<boolean> {
    return key !== undefined && this.repo.answered(userId, key, this.config.idempotency.ttlMs);
  }

  async run<T>(
    userId: string,
    key: string | undefined,
    fingerprint: string,
    status: number,
    fn: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    if (key === undefined) return { body: await fn(), status, replayed: false };
    await this.purgeNowAndThen();
    const ttl = this.config.idempotency.ttlMs;
    const claim = await this.repo.claim(userId, key, fingerprint, ttl);
    if (claim.state === 'mismatch') {
      throw new ApiError(
        409,
        'conflict',
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different request; use a new key for a new request',
        'Idempotency-Key',
      );
    }
    if (claim.state === 'in_progress') {
      throw new ApiError(
        409,
        'conflict',
        'idempotency_key_in_use',
        'a request with this Idempotency-Key is still being processed; retry shortly',
        'Idempotency-Key',
      );
    }
    if (claim.state === 'done') return { body: claim.response as T, status: claim.status, replayed: true };
    let body: T;
    try {
      body = await fn();
    } catch (err) {
      await this.repo.release(userId, key).catch(() => undefined);
      throw err;
    }
    await this.repo.complete(userId, key, status, body);
    return { body, status, replayed: false };
  }

  private async purgeNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < 3600_000) return;
    this.lastPurge = now;
    await this.repo.purgeExpired(this.config.idempotency.ttlMs).catch(() => undefined);
  }
}
