import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { hashApiKey, keysEqual, USER_KEY_PREFIX } from '@app/billing';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, SERVICE_USER_ID } from '@app/runtime';
import { ConsoleSessionService } from '../console/console-session.service';
import { ApiError } from './api-error';
import { ApiKeyCache } from './api-keys/api-key-cache.service';
import { ALLOWED_SCOPES, type KeyScope, originAllowed, scopeAllows } from './api-keys/key-scope';
import type { AuthedRequest, Principal } from './principal';
import { RateLimitService } from './rate-limit/rate-limit.service';

// Re-exported: the controllers and services take the guard and the principal's helpers from one place.
export { SERVICE_USER_ID };
export { apiKeyIdOf, type AuthedRequest, type Principal, readerKeyOf } from './principal';

/**
 * X-API-Key authentication: the owner shared key (constant-time compare) or a per-user `sk_live_` key,
 * then the key's scope against the route's (`@AllowScope`, else `full`), a widget key's Origin, and the
 * key's rate limit. Without X-API-Key, a console session cookie (plus X-CSRF-Token on state changes) stands
 * for a full key of its account (an owner-role account: the owner key).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeyCache,
    private readonly rateLimits: RateLimitService,
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessionService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const principal = key ? await this.authenticate(key) : await this.sessions.principalFor(req);
    if (!principal) throw ApiError.unauthorized('missing X-API-Key header');
    req.principal = principal;
    this.authorize(req, this.reflector.getAllAndOverride<KeyScope[] | undefined>(ALLOWED_SCOPES, [ctx.getHandler(), ctx.getClass()]) ?? []);
    await this.rateLimits.check(req.principal, ctx.switchToHttp().getResponse<FastifyReply>());
    return true;
  }

  private async authenticate(key: string): Promise<Principal> {
    if (keysEqual(key, this.config.ownerApiKey)) return { userId: SERVICE_USER_ID, keyType: 'owner', scope: 'full' };
    // Per-user keys are looked up by their SHA-256 only; the key itself is never stored.
    const found = key.startsWith(USER_KEY_PREFIX) ? await this.keys.find(hashApiKey(key)) : null;
    if (!found) throw ApiError.unauthorized('unknown or revoked API key');
    return {
      userId: found.userId,
      keyType: 'user',
      keyId: found.id,
      keyPrefix: found.prefix,
      scope: found.scope,
      allowedOrigins: found.allowedOrigins,
    };
  }

  /** 403 `insufficient_scope` naming the key's scope and the ones allowed; a widget key only from its allowed origins. */
  private authorize(req: AuthedRequest, allowed: readonly KeyScope[]): void {
    const p = req.principal;
    if (!scopeAllows(p.scope, allowed)) {
      throw new ApiError(
        403,
        'permission_error',
        'insufficient_scope',
        `this API key has scope ${p.scope}; ${req.method} ${req.routeOptions.url ?? req.url} needs a ${['full', ...allowed].join(' or ')} key`,
      );
    }
    // A widget key is public (it sits in a page's HTML): browsers send the page's Origin, so only those pages can use it.
    if (p.scope === 'widget') {
      const origin = req.headers.origin;
      if (!originAllowed(origin, p.allowedOrigins ?? [])) {
        throw new ApiError(
          403,
          'permission_error',
          'origin_not_allowed',
          origin
            ? `this widget key is not allowed from origin ${origin.slice(0, 200)}`
            : 'this widget key needs an Origin header from one of its allowed origins',
        );
      }
    }
  }
}

/** Only the owner shared key (operators): the admin API. */
@Injectable()
export class OwnerKeyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    if (req.principal?.keyType !== 'owner')
      throw new ApiError(403, 'permission_error', 'owner_key_required', 'this endpoint needs the owner key');
    return true;
  }
}
