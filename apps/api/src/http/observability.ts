import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { metricsAuthorized, type PromMetrics, runInLogScope, scrubSecrets } from '@app/runtime';

/** A caller's X-Request-Id is kept only when it is this tame: it ends up in logs and response headers. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when valid (one id across their system and ours), else ours. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CALLER_REQUEST_ID.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;
}

/**
 * Logged at debug level when they succeed (see the onResponse hook): probes and scrapes, and the pages'
 * analytics beacons, which every visitor's page sends (thousands a second on a busy day, each costing a
 * scrubbed, synchronously written line) and which the analytics themselves count.
 */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/api/events']);

/**
 * The level of a request's "request completed" line. A 5xx is an error, except a 503 that says when to retry
 * (Retry-After): a refusal the service chose (visitor wall builds queued full, a dependency away) that the
 * error filter has already logged as what it is, at warn; anonymous traffic that is turned away must not
 * trip the alerts on error lines. Probes, scrapes and beacons are debug: at info they would drown the
 * requests that matter.
 *
 * @example
 * accessLogLevel(503, '/showcase/shw_1/together/model.glb?items=1,2', true) // 'warn'
 */
export function accessLogLevel(status: number, url: string, retryAfter: boolean): 'error' | 'warn' | 'info' | 'debug' {
  if (status >= 500) return status === 503 && retryAfter ? 'warn' : 'error';
  if (status >= 400) return 'warn';
  return QUIET_PATHS.has(url.split('?')[0]) ? 'debug' : 'info';
}

/**
 * Request logging and metrics for the API:
 * - every request runs in a log scope holding its id, so every line logged while serving it carries
 *   `requestId` (and jobs it creates store it, for the worker's lines); the id is returned in X-Request-Id;
 * - one "request completed" line per request, without headers, the URL's secrets scrubbed (written here,
 *   not by pino-http: its child logger per request cost ~8% of the read path even when the line is not logged);
 * - `http_request_duration_seconds` by method, route template (never the raw URL) and status;
 * - GET /metrics, behind `Authorization: Bearer METRICS_TOKEN` when that is set.
 */
export function registerObservability(
  fastify: FastifyInstance,
  deps: { logger: Logger; metrics: PromMetrics; metricsToken?: string },
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    runInLogScope({ requestId: request.id }, done);
  });
  // Body parsing continues in the socket's async context: enter the request's scope again before the
  // handler runs (a second run() is cheaper than an AsyncResource per request, on the API's hottest path).
  fastify.addHook('preHandler', (request, _reply, done) => runInLogScope({ requestId: request.id }, done));
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    // Unmatched URLs share one label: raw paths would make a series per scanner probe.
    deps.metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', status, reply.elapsedTime / 1000);
    const level = accessLogLevel(status, request.url, reply.getHeader('retry-after') !== undefined);
    if (deps.logger.isLevelEnabled(level)) {
      deps.logger[level](
        {
          requestId: request.id,
          req: { method: request.method, url: scrubSecrets(request.url), userAgent: request.headers['user-agent'] },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime),
        },
        'request completed',
      );
    }
    done();
  });

  fastify.get('/metrics', async (request, reply) => {
    if (!metricsAuthorized(request.headers.authorization, deps.metricsToken)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('unauthorized\n');
    }
    return reply.type(deps.metrics.contentType).send(await deps.metrics.render());
  });
}
