import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { PromMetrics } from './prom-metrics.adapter';

/** Whether an Authorization header carries the metrics token (always true when none is configured). */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * A worker's `GET /metrics` on its own port (workers have no HTTP API). Anything else is 404; a missing or
 * wrong bearer token, when METRICS_TOKEN is set, 401.
 */
export function startMetricsServer(metrics: PromMetrics, opts: { port: number; host: string; token?: string }): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (!metricsAuthorized(req.headers.authorization, opts.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
    metrics.render().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType }).end(body),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  return new Promise((ok, no) => {
    server.once('error', no);
    server.listen(opts.port, opts.host, () => {
      server.off('error', no);
      ok(server);
    });
  });
}
