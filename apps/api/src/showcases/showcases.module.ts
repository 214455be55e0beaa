import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { ShowcasesController } from './showcases.controller';
import { ItemEdits } from './item-edits.service';
import { ShowcasesService } from './showcases.service';

/**
 * Pro showcases (/api/v2/showcases): create, list, update, delete, add pictures by URL or upload, edit items
 * in place and order them (ItemEdits, also used by catalogue imports).
 */
@Module({
  imports: [HttpModule, JobsModule],
  controllers: [ShowcasesController],
  providers: [ShowcasesService, ItemEdits],
  exports: [ShowcasesService, ItemEdits],
})
export class ShowcasesModule {}
