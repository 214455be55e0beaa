import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { JobsModule } from '../jobs/jobs.module';
import { AnimatedArController } from './animated-ar.controller';
import { AnimatedArService } from './animated-ar.service';

/** Animated AR (/api/v2/animated-ar): a job from a still, an animated image or a clip, and its options. */
@Module({
  imports: [HttpModule, JobsModule],
  controllers: [AnimatedArController],
  providers: [AnimatedArService],
})
export class AnimatedArModule {}
