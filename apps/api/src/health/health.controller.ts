import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AliveDto, ReadyDto } from './health.dto';
import type { FastifyReply } from 'fastify';
import { JobRepository } from '@app/persistence';
import type { JobQueuePort } from '@app/queue';
import { JOB_QUEUE, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';

async function check(fn: () => Promise<void>, timeoutMs = 3000): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, no) => (timer = setTimeout(() => no(new Error('timed out')), timeoutMs)))]);
    return 'ok';
  } catch (err) {
    return `unavailable: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly jobs: JobRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueuePort,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  /** Alive: the process answers. */
  @ApiOperation({ summary: 'Alive' })
  @ApiResponse({ status: 200, type: AliveDto })
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready: database, queue and storage reachable. 503 otherwise. */
  @ApiOperation({ summary: 'Database, queue and storage reachable (503 otherwise)' })
  @ApiResponse({ status: 200, type: ReadyDto })
  @ApiResponse({ status: 503, type: ReadyDto, description: 'A dependency is unreachable: its check says why.' })
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const checks = {
      database: await check(() => this.jobs.ping()),
      queue: await check(() => this.queue.ping()),
      storage: await check(() => this.storage.ping()),
    };
    const ready = Object.values(checks).every((c) => c === 'ok');
    void reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', queue: this.queue.driver, checks });
  }
}
