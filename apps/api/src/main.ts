import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import multipart from '@fastify/multipart';
import { ConfigError, loadConfigFromProcess, type AppConfig } from '@app/config';
import { hostedProviderStatus, MotionCatalog } from '@app/plugins';
import { configureLogging, createLogger, loadPricingPolicy, PinoNestLogger, PromMetrics, restrictDataDir } from '@app/runtime';
import { ApiModule } from './api.module';
import { HttpErrorFilter } from './http/http-error.filter';
import { buildOpenApiDocument } from './http/openapi.document';
import { registerObservability, requestIdFor } from './http/observability';
import { registerRequestValueChecks } from './http/request-values';
import { registerTransportSecurity } from './http/transport-security';
import { registerUnreadBodyClose } from './http/unread-body';
import { registerUnusedConnectionClose } from './http/unused-connections';

export interface ApiAppOptions {
  /** Where log lines go (default stdout): the in-process test app keeps them per app, as a process's output. */
  logDestination?: NodeJS.WritableStream;
}

export async function createApiApp(config: AppConfig, opts: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = configureLogging(config, opts.logDestination);
  const adapter = new FastifyAdapter({
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    genReqId: requestIdFor,
  });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger),
    // Rethrow instead of exiting: main() then prints the reason as one plain line, readable in any log format.
    abortOnError: false,
  });
  registerTransportSecurity(app.getHttpAdapter().getInstance(), config.hsts);
  registerObservability(app.getHttpAdapter().getInstance(), { logger, metrics: app.get(PromMetrics), metricsToken: config.metrics.token });
  // Uploads are streamed part by part (never buffered); the per-file cap errors the stream -> 413.
  await app.register(multipart, {
    limits: {
      fileSize: config.showcases.maxFileBytes,
      files: config.showcases.maxFilesPerRequest,
      fields: 20,
      parts: config.showcases.maxFilesPerRequest + 20,
      fieldSize: 64 * 1024,
    },
  });
  app.useGlobalFilters(new HttpErrorFilter());
  // Postgres refuses NUL in text and recursive code overflows on deep JSON: a 400 on every route, not a 500.
  registerRequestValueChecks(app.getHttpAdapter().getInstance());
  registerUnreadBodyClose(app.getHttpAdapter().getInstance());
  // A client's spare connection that never carried a request must not hold the shutdown (SIGTERM) open.
  registerUnusedConnectionClose(app.getHttpAdapter().getInstance());
  // Keys, not cookies, authenticate: any origin may call the API (the widget runs on customers' sites).
  app.enableCors({
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: ['X-API-Key', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id'],
    maxAge: 600,
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config.publicBaseUrl), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  app.enableShutdownHooks();
  return app;
}

function maskKey(key: string): string {
  return `${key.slice(0, key.startsWith('sk_owner_') ? 12 : 6)}…`;
}

async function main(): Promise<void> {
  const started = Date.now();
  let config: AppConfig;
  try {
    config = loadConfigFromProcess();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  restrictDataDir(config.dataDir);
  // Before the database and queue start: a missing pricing module is a configuration error, reported in
  // milliseconds rather than after the embedded database has initialised.
  loadPricingPolicy(config);
  const app = await createApiApp(config);
  // Again now that the embedded database exists: PGlite's initdb (first start) writes its files 0666 whatever the umask.
  restrictDataDir(config.dataDir);
  await app.listen({ port: config.port, host: config.host });
  const logger = new Logger('Main');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.log(
    `${config.role === 'all' ? 'API + worker' : 'API'} (${config.mode} mode) listening on ${config.host}:${port} in ${Date.now() - started} ms`,
  );
  // Through the logger like every other line (JSON when collected); the texts stay as operators know them.
  const say = (msg: string) => logger.log(msg);
  say(`Base URL:      ${config.publicBaseUrl}`);
  const off = hostedProviderStatus(config)
    .filter((p) => !p.enabled)
    .map((p) => `${p.id} (${p.reason})`);
  say(`Motion models: ${app.get(MotionCatalog).ids().join(', ')}${off.length ? `; off: ${off.join(', ')}` : ''}`);
  // In full only when just generated: start-up output ends up in log collectors.
  if (config.ownerApiKeySource === 'env') {
    say(`Owner API key: ${maskKey(config.ownerApiKey)} (from OWNER_API_KEY)`);
  } else if (config.ownerApiKeySource === 'generated') {
    // The one line that must show a key: unscrubbed, and only on the start that generated it.
    createLogger({ level: 'info', format: config.logFormat, scrub: false }).info(
      { context: 'Main' },
      `Owner API key: ${config.ownerApiKey} (generated now, kept in ${config.dataDir}/owner-api-key; later starts show only its first characters)`,
    );
  } else {
    say(`Owner API key: ${maskKey(config.ownerApiKey)} (in ${config.dataDir}/owner-api-key)`);
  }
  // Never the key itself: only where it is, since losing it means connecting every shop again.
  if (config.connections.secretKeySource === 'generated')
    say(`Connections key: generated now in ${config.dataDir}/connections-secret-key (back it up with the data directory)`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(`startup failed: ${(e as Error).message}`);
    process.exit(1);
  });
}
