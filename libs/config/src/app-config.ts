/** Which parts a process runs. */
export type AppRole = 'all' | 'api' | 'worker';

export interface S3Config {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  publicBaseUrl?: string;
  forcePathStyle: boolean;
}

/** Hosted image-to-video providers with built-in adapters (docs/providers.md). */
export const HOSTED_MOTION_PROVIDERS = ['replicate', 'runway', 'luma', 'fal', 'veo'] as const;
export type HostedMotionProviderId = (typeof HOSTED_MOTION_PROVIDERS)[number];

/** One hosted model enabled in CONFIG_FILE `motion.models`. */
export interface HostedModelConfig {
  /** Full video_model id, e.g. `replicate:kwaivgi/kling-v2.1`. */
  id: string;
  /** The provider's own model name (the part after the prefix). */
  model: string;
  displayName?: string;
  description?: string;
  input: Record<string, unknown>;
  imageField?: string;
  promptField?: string;
}

export interface HostedProviderConfig {
  id: HostedMotionProviderId;
  /** The secret; never logged or returned. */
  apiKey?: string;
  /** Name of the environment variable that holds the key (for messages). */
  keyEnv: string;
  baseUrl: string;
  /** Models from CONFIG_FILE; undefined = the adapter's default models when the key is set. */
  models?: HostedModelConfig[];
}

/** Typed, validated, frozen configuration. Built once by `loadConfig`. */
export interface AppConfig {
  role: AppRole;
  /** 'embedded' = PGlite + in-process queue; 'scaled' = Postgres + Redis/Bull. */
  mode: 'embedded' | 'scaled';
  port: number;
  host: string;
  publicBaseUrl: string;
  /**
   * The Strict-Transport-Security value the API sends on every response: set when PUBLIC_BASE_URL is https
   * (the service is reached over TLS, so browsers should never try plain http), null otherwise.
   */
  hsts: string | null;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  ownerApiKey: string;
  /** Where the owner key came from, so startup can say it without leaking a configured one. */
  ownerApiKeySource: 'env' | 'generated' | 'data-dir';
  /** Shop connections (issue 41): the key their credentials are encrypted with, and the Admin API override. */
  connections: {
    /** AES-256-GCM key, base64 (32 bytes): CONNECTIONS_SECRET_KEY, else DATA_DIR/connections-secret-key. */
    secretKey: string;
    secretKeySource: 'env' | 'generated' | 'data-dir';
    /** SHOPIFY_ADMIN_BASE_URL: replaces `https://<shop>` (a fake in tests, a proxy); undefined in production. */
    shopifyAdminBaseUrl?: string;
    /** SHOP_RETRY_BACKOFF_MS: the shop clients' first wait after a 5xx or network failure, doubled each try (default 500). */
    retryBackoffMs: number;
  };
  allowPrivateNetworks: boolean;
  /** Fastify trustProxy: false, true, a hop count, or addresses/CIDRs of the proxies whose X-Forwarded-* headers count. */
  trustProxy: boolean | number | string[];
  /** Postgres timeouts: connecting, and any one query (a hung server fails requests fast). */
  database: { connectTimeoutMs: number; queryTimeoutMs: number };
  /** Fair share: queued + running jobs one account may have (0 = no cap; the owner key is exempt). */
  accountMaxActiveJobs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Log line format; LOG_FORMAT, else pretty when stdout is a TTY and JSON otherwise. */
  logFormat: 'json' | 'pretty';
  /** GET /metrics: the bearer token it wants (none = open), and the worker's own metrics port (none = off). */
  metrics: { token?: string; port?: number };
  /** RETENTION_DAYS as milliseconds (null = keep forever), the sweep's period and its batch size. */
  retention: { maxAgeMs: number | null; sweepIntervalMs: number; batchSize: number };
  worker: {
    /** CPU slots: CPU-bound stages at once (WORKER_CONCURRENCY). */
    concurrency: number;
    /** I/O slots: downloads, uploads, hosted-model waits at once (WORKER_IO_CONCURRENCY). */
    ioConcurrency: number;
    /** Jobs held at once in any stage (WORKER_MAX_JOBS). */
    maxJobs: number;
    /** Of `maxJobs`, at most this many per account (ACCOUNT_MAX_RUNNING_JOBS). */
    accountMaxRunningJobs: number;
    maxAttempts: number;
    retryBaseMs: number;
    lockMs: number;
    queueName: string;
    shutdownTimeoutMs: number;
    /** Wall-clock limit of one pipeline stage (a stage or step may declare a longer one). */
    stageTimeoutMs: number;
  };
  storage:
    | { driver: 'local'; root: string }
    | { driver: 's3'; s3: S3Config }
    /** A custom backend: a module exporting `createStorage(options, context)` (docs/plugins.md). */
    | { driver: 'module'; module: string; options: Record<string, unknown> };
  images: { maxTexturePx: number; maxInputPixels: number };
  fetch: { maxBytes: number; timeoutMs: number; connectTimeoutMs: number };
  callbacks: { timeoutMs: number; maxAttempts: number };
  /** Pricing policy: 'default', 'free' or a module path (resolved against CONFIG_FILE's folder). */
  pricing: { policy: string; options: Record<string, unknown> };
  /** Requests per window per key; 0 = unlimited. Shared through Redis in scaled mode. */
  rateLimit: { perKey: number; owner: number; widget: number; windowMs: number };
  /**
   * Console sign-in: idle session lifetime, invite lifetime (default 7 days), cookies marked Secure (PUBLIC_BASE_URL
   * is https), and sign-in attempts per 15-minute window per account and per client IP.
   */
  console: {
    sessionIdleMs: number;
    inviteTtlMs: number;
    secureCookies: boolean;
    loginPerAccount: number;
    loginPerIp: number;
    loginWindowMs: number;
  };
  /** How long a per-user key found in the database is trusted from memory (ms; 0 = never). */
  apiKeyCacheTtlMs: number;
  idempotency: { ttlMs: number };
  /** Multipart uploads (per file, files per request) and pictures per showcase. */
  showcases: { maxFileBytes: number; maxFilesPerRequest: number; maxItems: number };
  /** Engagement analytics of the public pages: on/off for the deployment, events per minute per client IP and per page, flush interval. */
  analytics: { enabled: boolean; eventsPerMinute: number; siteEventsPerMinute: number; flushMs: number };
  /**
   * Visitors' gallery walls built on request by the API: at once per process (0: off), per visitor per minute,
   * stored bytes per showcase (least recently used evicted past it), and the age since last use when retention deletes one.
   */
  visitorWalls: { concurrency: number; perMinute: number; maxBytesPerShowcase: number; maxAgeMs: number };
  /** Animated AR sources, frame budget, motion and background removal (DESIGN §5; prices: docs/api.md, Prices). */
  animated: {
    videoMaxBytes: number;
    videoMaxDurationS: number;
    videoTimeoutMs: number;
    ffmpegPath: string;
    ffprobePath: string;
    maxFrames: number;
    maxFramePx: number;
    maxDecodedBytes: number;
    /** Animated image sources: most frames in the file, most pixels decoded (re-decoding included). */
    maxSourceFrames: number;
    maxSourcePixels: number;
    videoFps: number;
    motionLoopS: number;
    motionFps: number;
    motionDefaultModel: string;
    motionTimeoutMs: number;
    bgRemovalInferPx: number;
    /** The model runs on keyframes at most this many frames apart; masks follow the motion in between. */
    bgRemovalKeyframeGap: number;
    bgRemovalThreads: number;
    /** Worker threads running the cut-out off the event loop; 0 = inline (blocks the loop per inference). */
    bgRemovalWorkers: number;
  };
  /** Hosted motion models: one entry per built-in adapter, enabled or not. */
  motion: {
    pollIntervalMs: number;
    requestTimeoutMs: number;
    runwayApiVersion: string;
    providers: Record<HostedMotionProviderId, HostedProviderConfig>;
  };
  plugins: {
    modules: string[];
    options: Record<string, Record<string, unknown>>;
    /** Job kind -> pipeline id overrides. */
    pipelines: Record<string, string>;
  };
}
