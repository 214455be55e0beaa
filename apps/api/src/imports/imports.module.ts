import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { ShowcasesModule } from '../showcases/showcases.module';

/** Catalogue imports (/api/v2/showcases/{id}/imports, /api/v2/imports/{id}): a gallery's catalogue, thousands of rows at once. */
@Module({
  imports: [HttpModule, JobsModule, ShowcasesModule],
  controllers: [],
  providers: [],
})
export class ImportsModule {}
