import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type {} from '@fastify/multipart'; // request.isMultipart()
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { AuthedRequest } from '../api-key.guard';
import { IdempotencyService, requestFingerprint } from './idempotency.service';

// Nest keeps @HttpCode() under this metadata key.
const HTTP_CODE_METADATA = '__httpCode__';

/**
 * Applies {@link IdempotencyService} to a JSON POST route: `@UseInterceptors(IdempotencyInterceptor)`.
 * A replayed answer carries `Idempotent-Replayed: true`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    // Multipart bodies are streamed: the service fingerprints the uploaded bytes itself.
    if (req.isMultipart?.()) return next.handle();
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    const key = this.idempotency.parseKey(req.headers['idempotency-key']);
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, ctx.getHandler()) ?? 201;
    const route = req.routeOptions?.url ?? req.url;
    // The route pattern plus its parameters, so /users/a/credits and /users/b/credits differ. Only with a key:
    // without one it is never compared, and hashing every POST body would be work for nothing.
    const fingerprint =
      key === undefined ? '' : requestFingerprint(req.method, `${route} ${JSON.stringify(req.params ?? {})}`, req.body ?? null);
    return from(
      this.idempotency
        .run(req.principal.userId, key, fingerprint, status, () => lastValueFrom(next.handle(), { defaultValue: undefined }))
        .then((out) => {
          if (out.replayed) void reply.header('idempotent-replayed', 'true');
          return out.body;
        }),
    );
  }
}
