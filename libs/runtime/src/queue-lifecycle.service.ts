import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { JobQueuePort } from '@app/queue';
import { JOB_QUEUE } from './tokens';

/** Closes queue connections last, after the worker (if any) has drained. */
@Injectable()
export class QueueLifecycle implements OnApplicationShutdown {
  constructor(@Inject(JOB_QUEUE) private readonly queue: JobQueuePort) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
