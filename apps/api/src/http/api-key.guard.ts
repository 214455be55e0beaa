import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey, keysEqual, USER_KEY_PREFIX } from '@app/billing';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, SERVICE_USER_ID } from '@app/runtime';
import { ApiError } from './api-error';
import { ApiKeyCache } from './api-keys/api-key-cache.service';
import { RateLimitService } from './rate-limit/rate-limit.service';

export { SERVICE_USER_ID };

export interface Principal {
  userId: string;
  keyType: 'owner' | 'user';
  keyId?: string;
  keyPrefix?: string;
}

export type AuthedRequest = FastifyRequest & { principal: Principal };

/**
 * X-API-Key authentication: the owner shared key (constant-time compare) or a per-user `sk_live_` key,
 * then the key's rate limit.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeyCache,
    private readonly rateLimits: RateLimitService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw ApiError.unauthorized('missing X-API-Key header');
    req.principal = await this.authenticate(key);
    await this.rateLimits.check(req.principal, ctx.switchToHttp().getResponse<FastifyReply>());
    return true;
  }

  private async authenticate(key: string): Promise<Principal> {
    if (keysEqual(key, this.config.ownerApiKey)) return { userId: SERVICE_USER_ID, keyType: 'owner' };
    // Per-user keys are looked up by their SHA-256 only; the key itself is never stored.
    const found = key.startsWith(USER_KEY_PREFIX) ? await this.keys.find(hashApiKey(key)) : null;
    if (!found) throw ApiError.unauthorized('unknown or revoked API key');
    return { userId: found.user_id, keyType: 'user', keyId: found.id, keyPrefix: found.prefix };
  }
}

/** Only the owner shared key (operators): the admin API. */
@Injectable()
export class OwnerKeyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    if (req.principal?.keyType !== 'owner') throw new ApiError(403, 'permission_error', 'owner_key_required', 'this endpoint needs the owner key');
    return true;
  }
}
