import { Logger } from '@nestjs/common';
import type { StageLogger } from '@app/pipeline';

/** Kernel logger over Nest's logger. Meta is printed as JSON; callers never put secrets in it. */
export function createStageLogger(context: string): StageLogger {
  const logger = new Logger(context);
  const fmt = (msg: string, meta?: Record<string, unknown>) => (meta ? `${msg} ${JSON.stringify(meta)}` : msg);
  return {
    info: (m, meta) => logger.log(fmt(m, meta)),
    warn: (m, meta) => logger.warn(fmt(m, meta)),
    error: (m, meta) => logger.error(fmt(m, meta)),
  };
}
