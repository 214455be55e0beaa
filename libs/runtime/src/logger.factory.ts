import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from '@app/config';
import { currentLogScope } from './log-scope';

/**
 * Fields never written as they are, wherever they appear in a line's object: credentials in request
 * headers, passwords, webhook secrets, provider keys.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  ...[
    'password',
    'secret',
    'webhook_secret',
    'apiKey',
    'api_key',
    'token',
    'authorization',
    'cookie',
    // Shop connections' credentials (issue 41).
    'access_token',
    'consumer_key',
    'consumer_secret',
  ].flatMap((k) => [k, `*.${k}`]),
];

/** Secrets that can hide inside free text (messages, error strings, URLs), and what replaces them. */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  // API keys: full keys are long; the masked prefixes printed at startup (12 characters) stay readable.
  [/\bsk_[A-Za-z0-9_]{16,}/g, 'sk_[redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, 'whsec_[redacted]'],
  // Shopify Admin API tokens and WooCommerce REST keys, should a shop's error ever quote one.
  [/\b(shpat|shpca|shppa|shpss)_[A-Za-z0-9]{16,}/g, '$1_[redacted]'],
  [/\b(ck|cs)_[a-f0-9]{32,}/g, '$1_[redacted]'],
  // Credentials in a URL's authority (https://user:password@host/…).
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, '$1[redacted]@'],
  [/\b(Bearer|Basic|Key|Token)\s+[A-Za-z0-9._~+/=:-]{8,}/g, '$1 [redacted]'],
  // Signed URLs (S3, GCS, CDNs): the signature and credentials, not the rest of the URL.
  [
    /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential|Signature|sig|signature|token|access_token|api_key|key|Policy|Key-Pair-Id)=)[^&\s"'#]+/gi,
    '$1[redacted]',
  ],
];

/** Replaces the secrets {@link SECRET_PATTERNS} recognise in a string. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const [re, by] of SECRET_PATTERNS) out = out.replace(re, by);
  return out;
}

/** Scrubs every string in a line's object (a few levels deep: log objects are small). */
function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (!value || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  // Plain objects only: requests, responses and errors go through their serializers, which copying would break.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, depth + 1);
  return out;
}

export interface LoggerOptions {
  level: AppConfig['logLevel'];
  format: AppConfig['logFormat'];
  /**
   * Scrub secrets from free text (default true). Off only for the one start-up line that shows a freshly
   * generated owner key, which must be seen once.
   */
  scrub?: boolean;
  /** Where lines go (tests); default stdout. */
  destination?: NodeJS.WritableStream;
}

/**
 * A pino logger: JSON lines or pretty text, secrets redacted, and the current {@link LogScope} (request id,
 * job id, stage) on every line. Writes synchronously, so the lines before a crash or exit are not lost.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const scrub = opts.scrub !== false;
  const options: pino.LoggerOptions = {
    level: opts.level,
    base: { pid: process.pid },
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    // Explicit fields of a line (or its logger's bindings) win over the scope, so no key is written twice.
    mixin: (merge, _level, logger) => {
      const scope = currentLogScope();
      if (!scope) return {};
      const bound = logger.bindings();
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(scope)) if (v !== undefined && !(k in merge) && !(k in bound)) out[k] = v;
      return out;
    },
    ...(scrub
      ? {
          formatters: { log: (obj: Record<string, unknown>) => scrubDeep(obj) as Record<string, unknown> },
          hooks: {
            logMethod(args: unknown[], method: (...a: unknown[]) => void) {
              method.apply(
                this,
                args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)),
              );
            },
          },
        }
      : {}),
  };
  const dest =
    opts.destination ??
    (opts.format === 'pretty'
      ? pretty({
          sync: true,
          colorize: pretty.isColorSupported && process.stdout.isTTY === true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname',
        })
      : pino.destination({ dest: 1, sync: true }));
  return pino(options, dest);
}

let root: Logger | undefined;

/** Sets the process's logger from the configuration (once, at start). */
export function configureLogging(config: Pick<AppConfig, 'logLevel' | 'logFormat'>, destination?: NodeJS.WritableStream): Logger {
  root = createLogger({ level: config.logLevel, format: config.logFormat, destination });
  return root;
}

/** The process's logger; before {@link configureLogging}, an info-level JSON one (unit tests, scripts). */
export function rootLogger(): Logger {
  root ??= createLogger({ level: 'info', format: 'json' });
  return root;
}
