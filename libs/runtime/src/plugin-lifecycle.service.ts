import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DependencyContainer } from '@app/pipeline';
import { runShutdownHooks } from '@app/plugins';
import { PIPELINE_CONTAINER } from './tokens';

/** Runs the plugins' shutdown hooks (background-removal workers...), after the worker (if any) has drained. */
@Injectable()
export class PluginLifecycle implements OnApplicationShutdown {
  constructor(@Inject(PIPELINE_CONTAINER) private readonly container: DependencyContainer) {}

  async onApplicationShutdown(): Promise<void> {
    await runShutdownHooks(this.container);
  }
}
