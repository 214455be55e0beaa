import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { ShowcasesController } from './showcases.controller';
import { ShowcasesService } from './showcases.service';

/** Pro showcases (/api/v2/showcases): create, list, update, delete, add pictures by URL or upload. */
@Module({
  imports: [HttpModule, JobsModule],
  controllers: [ShowcasesController],
  providers: [ShowcasesService],
  exports: [ShowcasesService],
})
export class ShowcasesModule {}
