import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfigFromProcess, type AppConfig } from '@app/config';
import { configureLogging, loadPricingPolicy, PinoNestLogger, restrictDataDir } from '@app/runtime';
import { WorkerAppModule } from './worker-app.module';

/** A worker process (scaled mode): consumes the Bull queue. Run as many as needed. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfigFromProcess('worker');
    if (config.role !== 'worker') throw new ConfigError(`config: the worker entry point runs --role worker (got ${config.role})`);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  restrictDataDir(config.dataDir);
  // Before the database and queue start: a missing pricing module is a configuration error.
  loadPricingPolicy(config);
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config), {
    logger: new PinoNestLogger(configureLogging(config)),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  new Logger('Main').log(`worker ${process.pid} started (${config.mode} mode, concurrency ${config.worker.concurrency})`);
}

main().catch((e) => {
  console.error(`startup failed: ${(e as Error).message}`);
  process.exit(1);
});
