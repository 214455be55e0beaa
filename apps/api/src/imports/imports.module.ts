import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { DataSource } from 'typeorm';
import { CatalogueImportRepository } from '@app/persistence';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { ShowcasesModule } from '../showcases/showcases.module';
import { registerImportBodies } from './import-bodies';
import { ImportIntake } from './import-intake.service';
import { ImportRunner } from './import-runner.service';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';

/** Catalogue imports (/api/v2/showcases/{id}/imports, /api/v2/imports/{id}): a gallery's catalogue, thousands of rows at once. */
@Module({
  imports: [HttpModule, JobsModule, ShowcasesModule],
  controllers: [ImportsController],
  providers: [
    { provide: CatalogueImportRepository, inject: [DataSource], useFactory: (ds: DataSource) => new CatalogueImportRepository(ds) },
    ImportsService,
    ImportIntake,
    ImportRunner,
  ],
  // The shop connections' sync runs its pulls as imports (apps/api/src/connections/sync).
  exports: [CatalogueImportRepository, ImportRunner],
})
export class ImportsModule {
  // Created before the routes are registered: the CSV parser and the route's body limit are in place for them.
  constructor(host: HttpAdapterHost) {
    const fastify = host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify && typeof fastify.addContentTypeParser === 'function') registerImportBodies(fastify);
  }
}
