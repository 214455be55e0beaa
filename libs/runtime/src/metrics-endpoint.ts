import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { PromMetrics } from './prom-metrics.adapter';
import { APP_CONFIG } from './tokens';

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

/**
 * Serves a worker process's metrics on METRICS_PORT (off when unset). The API process, worker included in
 * embedded mode, serves its one registry on its own `/metrics` instead.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: PromMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === undefined) return;
    this.server = await startMetricsServer(this.metrics, { port, host: this.config.host, token: this.config.metrics.token });
    const address = this.server.address();
    this.logger.log(`metrics on http://${this.config.host}:${typeof address === 'object' && address ? address.port : port}/metrics${this.config.metrics.token ? ' (bearer token required)' : ''}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}
