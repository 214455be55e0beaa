import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Environment variables we read. Everything else in the environment is ignored. */
export const envSchema = z.object({
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  OWNER_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** CPU slots: CPU-bound stages (decode, encode, build) one worker runs at once; about one per core. */
  WORKER_CONCURRENCY: int(1, 64).default(2),
  /** I/O slots: downloads, uploads and hosted-model waits one worker runs at once (they hold no CPU slot). */
  WORKER_IO_CONCURRENCY: int(1, 1024).default(16),
  /** Jobs one worker holds at once, in any stage; default WORKER_CONCURRENCY + WORKER_IO_CONCURRENCY. */
  WORKER_MAX_JOBS: int(1, 2048).optional(),
  /** Of those, at most this many per account, so one account's stuck sources leave room; default half of them. */
  ACCOUNT_MAX_RUNNING_JOBS: int(1, 2048).optional(),
  /** Proxies whose X-Forwarded-* headers are trusted: false (default), true, a hop count, or a list of IPs/CIDRs. */
  TRUST_PROXY: z.string().min(1).default('false'),
  /** Postgres: connect timeout and per-query timeout (a hung server fails requests fast with 503). */
  DB_CONNECT_TIMEOUT_MS: int(100, 120_000).default(5000),
  DB_QUERY_TIMEOUT_MS: int(100, 3_600_000).default(30_000),
  /** Queued + running jobs per account; past it job-creating requests get 429. 0 = no cap. Owner key exempt. */
  ACCOUNT_MAX_ACTIVE_JOBS: int(0, 1_000_000).default(250),
  CONFIG_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** json: one JSON object a line (log collectors); pretty: coloured text. Default: pretty on a TTY, else json. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** When set, GET /metrics wants `Authorization: Bearer <token>` (401 otherwise). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** A worker process serves GET /metrics on this port (0 = any free port); unset = no metrics server. */
  METRICS_PORT: int(0, 65535).optional(),
  /** Finished jobs (their files and rows) older than this many days are purged by the worker; unset = kept forever. */
  RETENTION_DAYS: z.coerce.number().positive().max(36_500).optional(),
  /** How often the worker's retention sweep runs, and how many jobs it deletes per batch. */
  RETENTION_SWEEP_INTERVAL_S: int(1, 86_400).default(3600),
  RETENTION_BATCH_SIZE: int(1, 10_000).default(100),
  JOB_MAX_ATTEMPTS: int(1, 20).default(3),
  JOB_RETRY_BASE_MS: int(10, 600_000).default(2000),
  QUEUE_LOCK_MS: int(1000, 600_000).default(30_000),
  QUEUE_NAME: z.string().min(1).default('conversions'),
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(30_000),
  /** Wall-clock limit of one pipeline stage; the motion stage gets MOTION_TIMEOUT_S on top. */
  STAGE_TIMEOUT_S: int(10, 86_400).default(600),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PUBLIC_BASE_URL: z.url().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  MAX_TEXTURE_PX: int(64, 8192).default(2048),
  FETCH_MAX_BYTES: int(1024, 2_000_000_000).default(50 * 1024 * 1024),
  FETCH_TIMEOUT_MS: int(100, 600_000).default(30_000),
  FETCH_CONNECT_TIMEOUT_MS: int(100, 120_000).default(10_000),
  CALLBACK_TIMEOUT_MS: int(100, 120_000).default(10_000),
  CALLBACK_MAX_ATTEMPTS: int(1, 20).default(5),
  MAX_INPUT_PIXELS: int(1, 1_000_000_000).default(100_000_000),
  /** Pricing policy: default | free | module path (overrides CONFIG_FILE pricing.policy). */
  PRICING_POLICY: z.string().min(1).optional(),
  /** Requests per window per per-user key; 0 turns limiting off. */
  RATE_LIMIT_PER_KEY: int(0, 1_000_000).default(600),
  /** Requests per window for the owner shared key; 0 = unlimited (operators' own systems). */
  RATE_LIMIT_OWNER: int(0, 1_000_000).default(0),
  /** Requests per window for a `widget` key (it sits in public HTML, so it gets less than a full key); 0 turns it off. */
  RATE_LIMIT_WIDGET: int(0, 1_000_000).default(120),
  RATE_LIMIT_WINDOW_S: int(1, 3600).default(60),
  /** Console: a session ends after this many hours without a request. */
  CONSOLE_SESSION_IDLE_H: int(1, 24 * 90).default(24 * 7),
  /** Console invite links are single use and valid this long (seconds; 7 days). */
  CONSOLE_INVITE_TTL_S: int(1, 90 * 86_400).default(7 * 86_400),
  /** Console sign-in attempts per 15 minutes, per account and per client IP (failed or not). */
  CONSOLE_LOGIN_PER_ACCOUNT: int(1, 10_000).default(10),
  CONSOLE_LOGIN_PER_IP: int(1, 100_000).default(50),
  /** Per-user keys found are kept in memory this long (0 = look up every request); revocation drops them at once. */
  API_KEY_CACHE_TTL_S: int(0, 3600).default(30),
  UPLOAD_MAX_FILE_BYTES: int(1024, 500 * 1024 * 1024).default(25 * 1024 * 1024),
  UPLOAD_MAX_FILES: int(1, 100).default(20),
  SHOWCASE_MAX_ITEMS: int(1, 10_000).default(200),
  /** Animated AR: video sources (spec §8: at most 200 MB), longest source accepted, loop length. */
  VIDEO_MAX_BYTES: int(1024, 2_000_000_000).default(200 * 1024 * 1024),
  VIDEO_MAX_DURATION_S: int(1, 3600).default(120),
  /** Wall-clock cap of one ffprobe / ffmpeg run. */
  VIDEO_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /** Frames of one animated model: count, longest side, decoded bytes of all frames (Quick Look ~200 MB). */
  ANIMATION_MAX_FRAMES: int(2, 300).default(96),
  ANIMATION_MAX_FRAME_PX: int(64, 2048).default(1024),
  ANIMATION_MAX_DECODED_MB: int(8, 1024).default(96),
  /**
   * Animated GIF / WebP / APNG sources, checked before decoding: frames in the file (libvips reads a WebP's
   * frame table in time quadratic in its length), and pixels decoded to reach the frames kept.
   */
  ANIMATION_MAX_SOURCE_FRAMES: int(2, 20_000).default(1000),
  ANIMATION_MAX_SOURCE_PIXELS: int(1_000_000, 1_000_000_000_000).default(4_000_000_000),
  /** Video frames per second kept (<= the source's). */
  ANIMATION_VIDEO_FPS: int(1, 60).default(12),
  /** Motion loop for still images: seconds (<= 10) and frames per second. */
  MOTION_LOOP_S: z.coerce.number().min(1).max(10).default(4),
  MOTION_FPS: int(2, 30).default(12),
  /** video_model used when a request names none. */
  MOTION_DEFAULT_MODEL: z.string().min(1).default('procedural'),
  /** Background removal: short side of the model input (multiple of 128), ONNX threads. */
  BG_REMOVAL_INFER_PX: int(256, 1024).refine((v) => v % 128 === 0, 'must be a multiple of 128').default(1024),
  /** Sequences: the model runs on keyframes at most this many frames apart, masks follow the motion between (1 = every frame). */
  BG_REMOVAL_KEYFRAME_GAP: int(1, 24).default(6),
  BG_REMOVAL_THREADS: int(1, 64).default(2),
  /** Background removal worker threads (each with its own ONNX session); 0 runs it inline on the event loop. */
  BG_REMOVAL_WORKERS: int(0, 16).default(1),
  /** How long a hosted motion model may run before the job fails. */
  MOTION_TIMEOUT_S: int(10, 86_400).default(1800),
  /** Hosted motion models (docs/providers.md): credentials, base URLs, poll schedule, result downloads. */
  REPLICATE_API_TOKEN: z.string().min(1).optional(),
  REPLICATE_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.replicate.com/v1'),
  RUNWAYML_API_SECRET: z.string().min(1).optional(),
  RUNWAY_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.dev.runwayml.com/v1'),
  RUNWAY_API_VERSION: z.string().min(1).default('2024-11-06'),
  LUMAAI_API_KEY: z.string().min(1).optional(),
  LUMA_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.lumalabs.ai/dream-machine/v1'),
  FAL_KEY: z.string().min(1).optional(),
  FAL_QUEUE_URL: z.url({ protocol: /^https?$/ }).default('https://queue.fal.run'),
  GEMINI_API_KEY: z.string().min(1).optional(),
  VEO_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://generativelanguage.googleapis.com/v1beta'),
  /** Default wait between two status requests to a hosted provider (a provider's Retry-After wins). */
  MOTION_POLL_INTERVAL_MS: int(10, 600_000).default(5000),
  /** Timeout of one request to a hosted provider (create, status, cancel, result download). */
  MOTION_REQUEST_TIMEOUT_MS: int(100, 600_000).default(60_000),
  /** How long an Idempotency-Key is remembered (at least 24 h). */
  IDEMPOTENCY_TTL_HOURS: int(24, 24 * 30).default(24),
});

/** Optional JSON file (CONFIG_FILE) for plugins, their options and pipeline routing. */
export const fileSchema = z
  .object({
    plugins: z.array(z.string().min(1)).default([]),
    pluginOptions: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    pipelines: z.record(z.string(), z.string().min(1)).default({}),
    /** Hosted motion models to enable (otherwise each provider with a key offers its default models). */
    motion: z
      .object({
        models: z
          .array(
            z
              .object({
                id: z.string().regex(/^[a-z][a-z0-9-]*:\S+$/, 'must be "<provider>:<model>", e.g. "runway:gen4_turbo"'),
                display_name: z.string().min(1).max(120).optional(),
                description: z.string().max(500).optional(),
                /** Extra provider-specific request fields (e.g. Replicate input, Veo parameters). */
                input: z.record(z.string(), z.unknown()).default({}),
                /** Replicate only: the input field that takes the picture (models differ: image, start_image, ...). */
                image_field: z.string().min(1).optional(),
                /** Replicate only: the input field that takes the text prompt (default "prompt"). */
                prompt_field: z.string().min(1).optional(),
              })
              .strict(),
          )
          .optional(),
      })
      .strict()
      .default({}),
    /** A storage backend from a module (path or package name) instead of STORAGE_DRIVER. */
    storage: z
      .object({ module: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) })
      .strict()
      .optional(),
    pricing: z
      .object({
        policy: z.string().min(1).default('default'),
        options: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ policy: 'default', options: {} }),
  })
  .strict();

export type EnvInput = z.input<typeof envSchema>;
export type ConfigFile = z.output<typeof fileSchema>;
