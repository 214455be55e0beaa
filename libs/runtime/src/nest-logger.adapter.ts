import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's logger over pino, so `new Logger('Worker').log(…)` anywhere writes the same structured lines
 * (with the request or job in scope) as everything else. Nest passes the context last.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'trace', message: unknown, params: unknown[]): void {
    const args = [...params];
    const context = args.length && typeof args[args.length - 1] === 'string' ? (args.pop() as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    // error(message, stack, context): Nest hands the stack as a string.
    if ((level === 'error' || level === 'fatal') && typeof args[0] === 'string' && args[0].includes('\n    at '))
      fields.stack = args.shift();
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Levels come from LOG_LEVEL through pino; Nest's own filter would only hide lines pino already filters. */
  setLogLevels(_levels: LogLevel[]): void {
    return;
  }
}
