import type { StageLogger } from '@app/pipeline';
import { rootLogger } from './logger.factory';

/**
 * Kernel logger over pino: meta becomes fields of the line (job id, stage…), and the scope in force (the
 * request that made the job) is added by the root logger. Callers never put secrets in meta; the root
 * logger redacts the usual suspects anyway.
 */
export function createStageLogger(context: string): StageLogger {
  const logger = rootLogger().child({ context });
  return {
    info: (m, meta) => logger.info(meta ?? {}, m),
    warn: (m, meta) => logger.warn(meta ?? {}, m),
    error: (m, meta) => logger.error(meta ?? {}, m),
  };
}
