import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import {
  type AppConfig,
  type AppRole,
  HOSTED_MOTION_PROVIDERS,
  type HostedModelConfig,
  type HostedMotionProviderId,
  type HostedProviderConfig,
} from './app-config';
import { type ConfigFile, envSchema, fileSchema } from './config.schema';

type EnvOutput = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function formatIssues(error: z.ZodError, prefix = ''): string {
  return error.issues.map((i) => `  - ${prefix}${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random base62 string from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

function ownerKey(envKey: string | undefined, dataDir: string): Pick<AppConfig, 'ownerApiKey' | 'ownerApiKeySource'> {
  if (envKey) return { ownerApiKey: envKey, ownerApiKeySource: 'env' };
  const file = join(dataDir, 'owner-api-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 16) return { ownerApiKey: key, ownerApiKeySource: 'data-dir' };
  }
  const key = `sk_owner_${randomBase62(40)}`;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { ownerApiKey: key, ownerApiKeySource: 'generated' };
}

/**
 * The key shop connections' credentials are encrypted with: CONNECTIONS_SECRET_KEY, else the one kept under the
 * data directory, else a new random one written there (0600), as the owner key is.
 */
function connectionsKey(envKey: string | undefined, dataDir: string): Pick<AppConfig['connections'], 'secretKey' | 'secretKeySource'> {
  if (envKey) return { secretKey: envKey, secretKeySource: 'env' };
  const file = join(dataDir, 'connections-secret-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (Buffer.from(key, 'base64').length === 32) return { secretKey: key, secretKeySource: 'data-dir' };
    throw new ConfigError(`config: ${file} does not hold a 32-byte base64 key; restore it from a backup (shop credentials need it)`);
  }
  const key = randomBytes(32).toString('base64');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { secretKey: key, secretKeySource: 'generated' };
}

function parseRole(argv: readonly string[]): AppRole {
  const i = argv.indexOf('--role');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--role='))?.slice(7);
  if (value === undefined) return 'all';
  if (value === 'all' || value === 'api' || value === 'worker') return value;
  throw new ConfigError(`config: --role must be one of all, api, worker (got "${value}")`);
}

/**
 * Parses and validates the configuration once. Throws {@link ConfigError} listing every problem.
 *
 * @param env  the environment (only the documented names are read)
 * @param argv command-line arguments (`--role api|worker|all`)
 * @param cwd  base for relative paths
 * @param isTty whether stdout is a terminal (picks the default LOG_FORMAT)
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  argv: readonly string[] = [],
  cwd: string = process.cwd(),
  isTty = false,
): Readonly<AppConfig> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    throw new ConfigError(`config: invalid environment\n${formatIssues(parsed.error)}`);
  }
  const e = parsed.data;
  const role = parseRole(argv);
  const problems: string[] = [];
  const scaled = Boolean(e.DATABASE_URL || e.REDIS_URL);
  if (scaled && !(e.DATABASE_URL && e.REDIS_URL)) {
    problems.push('  - scaled mode needs both DATABASE_URL and REDIS_URL (embedded mode needs neither)');
  }
  if (role !== 'all' && !(e.DATABASE_URL && e.REDIS_URL)) {
    problems.push(`  - --role ${role} runs a separate process and needs DATABASE_URL and REDIS_URL; use "npm start" for the embedded mode`);
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) problems.push('  - S3_BUCKET: required when STORAGE_DRIVER=s3');

  const dataDir = isAbsolute(e.DATA_DIR) ? e.DATA_DIR : resolve(cwd, e.DATA_DIR);
  let file = fileSchema.parse({});
  if (e.CONFIG_FILE) {
    const path = isAbsolute(e.CONFIG_FILE) ? e.CONFIG_FILE : resolve(cwd, e.CONFIG_FILE);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`config: CONFIG_FILE ${path} cannot be read as JSON: ${(err as Error).message}`);
    }
    const f = fileSchema.safeParse(raw);
    if (!f.success) throw new ConfigError(`config: invalid CONFIG_FILE ${path}\n${formatIssues(f.error)}`);
    const local = (m: string) => (m.startsWith('.') ? resolve(path, '..', m) : m);
    file = {
      ...f.data,
      plugins: f.data.plugins.map(local),
      pricing: { ...f.data.pricing, policy: local(f.data.pricing.policy) },
      storage: f.data.storage && { ...f.data.storage, module: local(f.data.storage.module) },
    };
  }
  if (file.storage && clean.STORAGE_DRIVER) {
    problems.push(`  - STORAGE_DRIVER=${e.STORAGE_DRIVER} and CONFIG_FILE storage.module both choose the storage backend; keep one`);
  }
  const motion = hostedMotion(e, file, problems);
  const trustProxy = parseTrustProxy(e.TRUST_PROXY, problems);
  if (problems.length) throw new ConfigError(`config: invalid configuration\n${problems.join('\n')}`);

  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const maxJobs = e.WORKER_MAX_JOBS ?? e.WORKER_CONCURRENCY + e.WORKER_IO_CONCURRENCY;
  const config: AppConfig = {
    role,
    mode: scaled ? 'scaled' : 'embedded',
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    hsts: publicBaseUrl.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : null,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    ...ownerKey(e.OWNER_API_KEY, dataDir),
    connections: {
      ...connectionsKey(e.CONNECTIONS_SECRET_KEY, dataDir),
      shopifyAdminBaseUrl: e.SHOPIFY_ADMIN_BASE_URL?.replace(/\/+$/, ''),
      retryBackoffMs: e.SHOP_RETRY_BACKOFF_MS,
    },
    allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
    trustProxy,
    database: { connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS, queryTimeoutMs: e.DB_QUERY_TIMEOUT_MS },
    accountMaxActiveJobs: e.ACCOUNT_MAX_ACTIVE_JOBS,
    logLevel: e.LOG_LEVEL,
    // Collectors read what is not a terminal; people read what is.
    logFormat: e.LOG_FORMAT ?? (isTty ? 'pretty' : 'json'),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    retention: {
      maxAgeMs: e.RETENTION_DAYS === undefined ? null : Math.round(e.RETENTION_DAYS * 86_400_000),
      sweepIntervalMs: e.RETENTION_SWEEP_INTERVAL_S * 1000,
      batchSize: e.RETENTION_BATCH_SIZE,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      ioConcurrency: e.WORKER_IO_CONCURRENCY,
      maxJobs,
      accountMaxRunningJobs: e.ACCOUNT_MAX_RUNNING_JOBS ?? Math.max(1, Math.ceil(maxJobs / 2)),
      maxAttempts: e.JOB_MAX_ATTEMPTS,
      retryBaseMs: e.JOB_RETRY_BASE_MS,
      lockMs: e.QUEUE_LOCK_MS,
      queueName: e.QUEUE_NAME,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      stageTimeoutMs: e.STAGE_TIMEOUT_S * 1000,
    },
    storage: file.storage
      ? { driver: 'module', module: file.storage.module, options: file.storage.options }
      : e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            s3: {
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              bucket: e.S3_BUCKET as string,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              publicBaseUrl: e.S3_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            },
          }
        : { driver: 'local', root: join(dataDir, 'storage') },
    images: { maxTexturePx: e.MAX_TEXTURE_PX, maxInputPixels: e.MAX_INPUT_PIXELS },
    fetch: { maxBytes: e.FETCH_MAX_BYTES, timeoutMs: e.FETCH_TIMEOUT_MS, connectTimeoutMs: e.FETCH_CONNECT_TIMEOUT_MS },
    callbacks: { timeoutMs: e.CALLBACK_TIMEOUT_MS, maxAttempts: e.CALLBACK_MAX_ATTEMPTS },
    pricing: {
      policy: e.PRICING_POLICY
        ? e.PRICING_POLICY.startsWith('.')
          ? resolve(cwd, e.PRICING_POLICY)
          : e.PRICING_POLICY
        : file.pricing.policy,
      options: file.pricing.options,
    },
    rateLimit: {
      perKey: e.RATE_LIMIT_PER_KEY,
      owner: e.RATE_LIMIT_OWNER,
      widget: e.RATE_LIMIT_WIDGET,
      windowMs: e.RATE_LIMIT_WINDOW_S * 1000,
    },
    console: {
      sessionIdleMs: e.CONSOLE_SESSION_IDLE_H * 3600_000,
      inviteTtlMs: e.CONSOLE_INVITE_TTL_S * 1000,
      // Behind https the browser must never send the session cookie over plain http.
      secureCookies: publicBaseUrl.startsWith('https:'),
      loginPerAccount: e.CONSOLE_LOGIN_PER_ACCOUNT,
      loginPerIp: e.CONSOLE_LOGIN_PER_IP,
      loginWindowMs: 15 * 60_000,
    },
    apiKeyCacheTtlMs: e.API_KEY_CACHE_TTL_S * 1000,
    idempotency: { ttlMs: e.IDEMPOTENCY_TTL_HOURS * 3600_000 },
    showcases: { maxFileBytes: e.UPLOAD_MAX_FILE_BYTES, maxFilesPerRequest: e.UPLOAD_MAX_FILES, maxItems: e.SHOWCASE_MAX_ITEMS },
    analytics: {
      enabled: e.ANALYTICS_ENABLED,
      eventsPerMinute: e.ANALYTICS_EVENTS_PER_MINUTE,
      siteEventsPerMinute: e.ANALYTICS_SITE_EVENTS_PER_MINUTE,
      flushMs: e.ANALYTICS_FLUSH_MS,
    },
    visitorWalls: {
      concurrency: e.WALL_VISITOR_BUILDS,
      perMinute: e.WALL_VISITOR_BUILDS_PER_MINUTE,
      maxBytesPerShowcase: e.WALL_VISITOR_MAX_MB_PER_SHOWCASE * 1024 * 1024,
      maxAgeMs: Math.round(e.WALL_VISITOR_MAX_AGE_DAYS * 86_400_000),
    },
    animated: {
      videoMaxBytes: e.VIDEO_MAX_BYTES,
      videoMaxDurationS: e.VIDEO_MAX_DURATION_S,
      videoTimeoutMs: e.VIDEO_TIMEOUT_MS,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      maxFrames: e.ANIMATION_MAX_FRAMES,
      maxFramePx: e.ANIMATION_MAX_FRAME_PX,
      maxDecodedBytes: e.ANIMATION_MAX_DECODED_MB * 1024 * 1024,
      maxSourceFrames: e.ANIMATION_MAX_SOURCE_FRAMES,
      maxSourcePixels: e.ANIMATION_MAX_SOURCE_PIXELS,
      videoFps: e.ANIMATION_VIDEO_FPS,
      motionLoopS: e.MOTION_LOOP_S,
      motionFps: e.MOTION_FPS,
      motionDefaultModel: e.MOTION_DEFAULT_MODEL,
      motionTimeoutMs: e.MOTION_TIMEOUT_S * 1000,
      bgRemovalInferPx: e.BG_REMOVAL_INFER_PX,
      bgRemovalKeyframeGap: e.BG_REMOVAL_KEYFRAME_GAP,
      bgRemovalThreads: e.BG_REMOVAL_THREADS,
      bgRemovalWorkers: e.BG_REMOVAL_WORKERS,
    },
    motion,
    plugins: { modules: file.plugins, options: file.pluginOptions, pipelines: file.pipelines },
  };
  return deepFreeze(config);
}

/**
 * TRUST_PROXY: `false` / `true`, a hop count, or a comma-separated list of proxy addresses or CIDRs.
 * Trusting every forwarder (true) lets any client choose its own IP and protocol, so the default is false.
 */
function parseTrustProxy(raw: string, problems: string[]): boolean | number | string[] {
  const v = raw.trim().toLowerCase();
  if (v === 'false' || v === '0' || v === 'no') return false;
  if (v === 'true' || v === 'yes') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = list.filter((x) => !isProxyAddress(x));
  if (bad.length) problems.push(`  - TRUST_PROXY: "${bad.join('", "')}" is not an IP address, a CIDR, loopback, linklocal or uniquelocal`);
  return list;
}

/** What Fastify's proxy-addr accepts (anything else would fail the start later, outside config): an IP, an IP/prefix, or a named range. */
function isProxyAddress(x: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(x)) return true;
  const [ip, prefix, more] = x.split('/');
  const family = isIP(ip);
  if (!family || more !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const HOSTED_ENV: Record<HostedMotionProviderId, { key: keyof EnvOutput; base: keyof EnvOutput }> = {
  replicate: { key: 'REPLICATE_API_TOKEN', base: 'REPLICATE_BASE_URL' },
  runway: { key: 'RUNWAYML_API_SECRET', base: 'RUNWAY_BASE_URL' },
  luma: { key: 'LUMAAI_API_KEY', base: 'LUMA_BASE_URL' },
  fal: { key: 'FAL_KEY', base: 'FAL_QUEUE_URL' },
  veo: { key: 'GEMINI_API_KEY', base: 'VEO_BASE_URL' },
};

/**
 * Hosted providers: keys and base URLs from the environment, models from CONFIG_FILE `motion.models`.
 * A model listed for a provider without a key is a startup error, never a failed job later.
 */
function hostedMotion(e: EnvOutput, file: ConfigFile, problems: string[]): AppConfig['motion'] {
  const listed = new Map<HostedMotionProviderId, HostedModelConfig[]>();
  (file.motion.models ?? []).forEach((m, i) => {
    const colon = m.id.indexOf(':');
    const provider = m.id.slice(0, colon) as HostedMotionProviderId;
    if (!HOSTED_MOTION_PROVIDERS.includes(provider)) {
      problems.push(
        `  - CONFIG_FILE motion.models.${i}.id: "${m.id}" names no built-in hosted provider (${HOSTED_MOTION_PROVIDERS.join(', ')}); a plugin declares its own models`,
      );
      return;
    }
    if (m.image_field && provider !== 'replicate')
      problems.push(`  - CONFIG_FILE motion.models.${i}.image_field: only Replicate models take it`);
    const entry: HostedModelConfig = {
      id: m.id,
      model: m.id.slice(colon + 1),
      displayName: m.display_name,
      description: m.description,
      input: m.input,
      imageField: m.image_field,
      promptField: m.prompt_field,
    };
    listed.set(provider, [...(listed.get(provider) ?? []), entry]);
  });
  const providers = Object.fromEntries(
    HOSTED_MOTION_PROVIDERS.map((id) => {
      const env = HOSTED_ENV[id];
      const apiKey = e[env.key] as string | undefined;
      const models = listed.get(id);
      if (models && !apiKey)
        problems.push(`  - ${env.key}: required by the ${id} models in CONFIG_FILE motion.models (${models.map((m) => m.id).join(', ')})`);
      return [id, { id, apiKey, keyEnv: env.key, baseUrl: (e[env.base] as string).replace(/\/+$/, ''), models }];
    }),
  ) as Record<HostedMotionProviderId, HostedProviderConfig>;
  return {
    pollIntervalMs: e.MOTION_POLL_INTERVAL_MS,
    requestTimeoutMs: e.MOTION_REQUEST_TIMEOUT_MS,
    runwayApiVersion: e.RUNWAY_API_VERSION,
    providers,
  };
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * The one place that reads `process.env`.
 *
 * @param defaultRole role when the command line names none (the worker entry point passes 'worker')
 */
export function loadConfigFromProcess(defaultRole: AppRole = 'all'): Readonly<AppConfig> {
  const argv = process.argv.slice(2);
  const hasRole = argv.some((a) => a === '--role' || a.startsWith('--role='));
  return loadConfig(process.env, hasRole ? argv : [...argv, '--role', defaultRole], process.cwd(), process.stdout.isTTY === true);
}
