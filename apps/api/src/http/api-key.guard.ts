import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keysEqual } from '@app/billing';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, SERVICE_USER_ID } from '@app/runtime';
import { ApiError } from './api-error';

export { SERVICE_USER_ID };

export interface Principal {
  userId: string;
  keyType: 'owner' | 'user';
}

export type AuthedRequest = FastifyRequest & { principal: Principal };

/** X-API-Key authentication. Until per-user keys land, the owner shared key (constant-time compare). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw ApiError.unauthorized('missing X-API-Key header');
    if (!keysEqual(key, this.config.ownerApiKey)) throw ApiError.unauthorized('unknown or revoked API key');
    req.principal = { userId: SERVICE_USER_ID, keyType: 'owner' };
    return true;
  }
}
