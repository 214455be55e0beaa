import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, PromMetrics, startMetricsServer } from '@app/runtime';

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
    this.logger.log(
      `metrics on http://${this.config.host}:${typeof address === 'object' && address ? address.port : port}/metrics${this.config.metrics.token ? ' (bearer token required)' : ''}`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}
