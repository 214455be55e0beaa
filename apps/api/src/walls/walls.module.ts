import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { WallsController } from './walls.controller';
import { WallsService } from './walls.service';
import { VisitorWalls } from './visitor-walls.service';

/** Saved gallery walls of a showcase (/api/v2/showcases/{id}/walls): 2-12 pictures hung together as one AR model. */
@Module({
  imports: [HttpModule, JobsModule],
  controllers: [WallsController],
  providers: [WallsService, VisitorWalls],
  exports: [WallsService, VisitorWalls],
})
export class WallsModule {}
