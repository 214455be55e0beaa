import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Environment variables we read. Everything else in the environment is ignored. */
export const envSchema = z.object({
  PORT: int(0, 65535).default(3000).describe('HTTP port'),
  HOST: z.string().min(1).default('0.0.0.0').describe('bind address'),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'base of absolute URLs in responses; https also turns on `Strict-Transport-Security: max-age=31536000; includeSubDomains` on every response and Secure console cookies (default: http://localhost:PORT)',
    ),
  DATA_DIR: z.string().min(1).default('./data').describe('PGlite database, local storage, generated owner key and connections key'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .describe('Postgres server (scaled mode; needs REDIS_URL too)'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .optional()
    .describe('Redis for Bull (scaled mode; needs DATABASE_URL too)'),
  OWNER_API_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('owner shared key (≥ 16 chars); generated and kept under DATA_DIR when absent (default: generated)'),
  ALLOW_PRIVATE_NETWORKS: bool.default(false).describe('lets fetches reach loopback/private addresses (tests, local development only)'),
  WORKER_CONCURRENCY: int(1, 64).default(2).describe('CPU slots: CPU-bound stages one worker runs at once (about one per core)'),
  WORKER_IO_CONCURRENCY: int(1, 1024).default(16).describe('I/O slots: downloads, uploads, callbacks and hosted-model waits at once'),
  WORKER_MAX_JOBS: int(1, 2048)
    .optional()
    .describe('jobs one worker holds at once, in any stage (each may hold its fetched source in memory) (default: CPU + I/O slots)'),
  ACCOUNT_MAX_RUNNING_JOBS: int(1, 2048)
    .optional()
    .describe(
      "of those, at most this many of one account, so one account's stuck sources or long backlog always leave room for others (default: half of WORKER_MAX_JOBS)",
    ),
  TRUST_PROXY: z
    .string()
    .min(1)
    .default('false')
    .describe(
      'whose `X-Forwarded-*` headers count: `false`, `true` (anyone: only behind a proxy that overwrites them), a hop count, or a comma list of proxy IPs / CIDRs / `loopback`, `linklocal`, `uniquelocal`',
    ),
  DB_CONNECT_TIMEOUT_MS: int(100, 120_000)
    .default(5000)
    .describe('Postgres: connecting, and any one query (also migrations); past them the request answers 503'),
  DB_QUERY_TIMEOUT_MS: int(100, 3_600_000)
    .default(30_000)
    .describe('Postgres: connecting, and any one query (also migrations); past them the request answers 503'),
  ACCOUNT_MAX_ACTIVE_JOBS: int(0, 1_000_000)
    .default(250)
    .describe('queued + running jobs per account; past it 429 `too_many_active_jobs`. 0 = no cap; the owner key is exempt'),
  CONFIG_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'JSON file: `{ plugins: [module paths], pluginOptions: {name: {...}}, pipelines: {jobKind: pipelineId}, pricing: {...}, storage: {module, options}, motion: {models: [...]} }` (docs/plugins.md, docs/providers.md)',
    ),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info').describe('debug, info, warn, error'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .optional()
    .describe(
      '`json`: one JSON object a line (request id, job id, stage on every line; secrets redacted); `pretty`: coloured text (docs/operations.md) (default: json, or pretty on a terminal)',
    ),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('when set, `GET /metrics` wants `Authorization: Bearer <token>` (401 otherwise); at least 16 characters'),
  METRICS_PORT: int(0, 65535)
    .optional()
    .describe(
      'a worker process (`--role worker`) serves `GET /metrics` on this port (0 = any free port); unset = none. The API (and the embedded worker in it) serves `/metrics` on PORT',
    ),
  RETENTION_DAYS: z.coerce
    .number()
    .positive()
    .max(36_500)
    .optional()
    .describe(
      'finished (completed/failed) jobs older than this many days (fractions allowed) are deleted with their files by the worker, every RETENTION_SWEEP_INTERVAL_S (3600) in batches of RETENTION_BATCH_SIZE (100); ledger entries are kept (docs/operations.md, Retention and deletion) (default: — (keep forever))',
    ),
  RETENTION_SWEEP_INTERVAL_S: int(1, 86_400).default(3600).describe("how often the worker's retention sweep runs (seconds)"),
  RETENTION_BATCH_SIZE: int(1, 10_000).default(100).describe('jobs the retention sweep deletes per batch'),
  JOB_MAX_ATTEMPTS: int(1, 20).default(3).describe('attempts for operational errors (user errors never retry)'),
  JOB_RETRY_BASE_MS: int(10, 600_000).default(2000).describe('first retry delay; doubles each attempt'),
  QUEUE_LOCK_MS: int(1000, 600_000).default(30_000).describe("Bull lock; a crashed worker's job is retaken within 1.25 x this"),
  QUEUE_NAME: z.string().min(1).default('conversions').describe('Bull queue name'),
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000)
    .default(30_000)
    .describe('grace for running jobs on SIGTERM, then they are interrupted and re-queued'),
  STAGE_TIMEOUT_S: int(10, 86_400)
    .default(600)
    .describe(
      "wall-clock limit of every pipeline stage: past it the stage's signal is aborted and the job fails with `stage_timeout` (not retried, refunded). The motion stage gets MOTION_TIMEOUT_S on top; a stage or step may declare its own `timeoutMs` (docs/plugins.md). Keep it above 2 × VIDEO_TIMEOUT_MS",
    ),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local').describe('`local` (files under DATA_DIR/storage served at /files/…) or `s3`'),
  S3_ENDPOINT: z.url().optional().describe('S3-compatible storage'),
  S3_REGION: z.string().default('us-east-1').describe('S3-compatible storage'),
  S3_BUCKET: z.string().optional().describe('S3-compatible storage'),
  S3_ACCESS_KEY_ID: z.string().optional().describe('S3-compatible storage'),
  S3_SECRET_ACCESS_KEY: z.string().optional().describe('S3-compatible storage'),
  S3_PUBLIC_BASE_URL: z.url().optional().describe('S3-compatible storage'),
  S3_FORCE_PATH_STYLE: bool.default(true).describe('S3-compatible storage'),
  MAX_TEXTURE_PX: int(64, 8192).default(2048).describe('longest texture side (viewer limit); larger pictures are scaled down, aspect kept'),
  FETCH_MAX_BYTES: int(1024, 2_000_000_000)
    .default(50 * 1024 * 1024)
    .describe('byte cap for a still image, enforced while streaming'),
  FETCH_TIMEOUT_MS: int(100, 600_000).default(30_000).describe('total and connect timeouts of a fetch'),
  FETCH_CONNECT_TIMEOUT_MS: int(100, 120_000).default(10_000).describe('total and connect timeouts of a fetch'),
  CALLBACK_TIMEOUT_MS: int(100, 120_000).default(10_000).describe('time one callback attempt may take'),
  CALLBACK_MAX_ATTEMPTS: int(1, 20).default(5).describe('callback attempts before giving up'),
  MAX_INPUT_PIXELS: int(1, 1_000_000_000).default(100_000_000).describe('decompression-bomb guard'),
  PRICING_POLICY: z
    .string()
    .min(1)
    .optional()
    .describe('`default` (the prices in docs/api.md, Prices), `free`, or a module path (overrides CONFIG_FILE `pricing.policy`)'),
  RATE_LIMIT_PER_KEY: int(0, 1_000_000)
    .default(600)
    .describe('requests per window per user key; 0 = off. Shared through Redis in scaled mode'),
  RATE_LIMIT_OWNER: int(0, 1_000_000).default(0).describe('requests per window for the owner key; 0 = unlimited'),
  RATE_LIMIT_WIDGET: int(0, 1_000_000).default(120).describe('requests per window for a `widget` key (it sits in public pages); 0 = off'),
  RATE_LIMIT_WINDOW_S: int(1, 3600).default(60).describe('rate-limit window'),
  CONSOLE_SESSION_IDLE_H: int(1, 24 * 90)
    .default(24 * 7)
    .describe('console sessions end after this many hours without a request'),
  CONSOLE_INVITE_TTL_S: int(1, 90 * 86_400)
    .default(7 * 86_400)
    .describe('console invite links are single use and valid this long (7 days)'),
  CONSOLE_LOGIN_PER_ACCOUNT: int(1, 10_000).default(10).describe('console sign-in attempts per 15 minutes, per account and per client IP'),
  CONSOLE_LOGIN_PER_IP: int(1, 100_000).default(50).describe('console sign-in attempts per 15 minutes, per account and per client IP'),
  API_KEY_CACHE_TTL_S: int(0, 3600)
    .default(30)
    .describe(
      'a per-user key found in the database is trusted from memory this long (0 = look it up on every request); revoking a key or deleting a user drops it at once in every API process (Redis pub/sub in scaled mode; a process that misses the message keeps it at most this long). `last_used_at` is written at most once a minute per key',
    ),
  UPLOAD_MAX_FILE_BYTES: int(1024, 500 * 1024 * 1024)
    .default(25 * 1024 * 1024)
    .describe('per uploaded file (showcase items)'),
  UPLOAD_MAX_FILES: int(1, 100).default(20).describe('files per upload request'),
  SHOWCASE_MAX_ITEMS: int(1, 10_000).default(200).describe('pictures per showcase'),
  ANALYTICS_ENABLED: bool
    .default(true)
    .describe(
      'count engagement events from the public pages (docs/analytics.md): no cookies, no raw IP or user agent stored; false: the pages send no beacons and POST /api/events counts nothing',
    ),
  ANALYTICS_EVENTS_PER_MINUTE: int(1, 10_000_000)
    .default(600)
    .describe(
      'events per minute one client (an IPv4 address, an IPv6 /64) may have counted, over every page; a beacon past it counts none of its events',
    ),
  ANALYTICS_SITE_EVENTS_PER_MINUTE: int(1, 100_000_000)
    .default(60_000)
    .describe(
      'events per minute one page (a showcase shw_ or embed emb_ id) may have counted, from every client together; a beacon past it counts none of its events',
    ),
  ANALYTICS_FLUSH_MS: int(50, 60_000).default(1000).describe('how often the buffered events are added to the daily counts'),
  WALL_VISITOR_BUILDS: int(0, 16)
    .default(1)
    .describe(
      'visitors\' gallery walls ("See them together") built at once by an API process, on request (docs/gallery-walls.md); 0 turns the visitors\' walls off',
    ),
  WALL_VISITOR_BUILDS_PER_MINUTE: int(1, 10_000)
    .default(6)
    .describe("new (not cached) visitors' gallery walls one visitor (an IPv4 address, an IPv6 /64) may have built per minute"),
  WALL_VISITOR_MAX_MB_PER_SHOWCASE: int(1, 1_000_000)
    .default(500)
    .describe(
      "stored visitors' gallery walls per showcase, in MB (a 12-picture wall is 6-8 MB); a new build past it evicts that showcase's least recently used visitor walls",
    ),
  WALL_VISITOR_MAX_AGE_DAYS: z.coerce
    .number()
    .positive()
    .max(36_500)
    .default(30)
    .describe(
      "visitors' gallery walls not requested for this many days (fractions allowed) are deleted by the worker's retention sweep (every RETENTION_SWEEP_INTERVAL_S)",
    ),
  VIDEO_MAX_BYTES: int(1024, 2_000_000_000)
    .default(200 * 1024 * 1024)
    .describe('animated AR video source cap, enforced while streaming'),
  VIDEO_MAX_DURATION_S: int(1, 3600).default(120).describe('longest video accepted; the first 10 s become the loop'),
  VIDEO_TIMEOUT_MS: int(1000, 3_600_000).default(120_000).describe('wall-clock cap of one ffprobe / ffmpeg run (killed after)'),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg').describe('binaries (Debian `ffmpeg` package)'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe').describe('binaries (Debian `ffmpeg` package)'),
  ANIMATION_MAX_FRAMES: int(2, 300).default(96).describe('frames per animated model (more are dropped evenly, the loop keeps its length)'),
  ANIMATION_MAX_FRAME_PX: int(64, 2048).default(1024).describe('longest side of one frame'),
  ANIMATION_MAX_DECODED_MB: int(8, 1024)
    .default(96)
    .describe('decoded RGBA bytes of all frames together; frames shrink to fit (Quick Look fails near 200 MB)'),
  ANIMATION_MAX_SOURCE_FRAMES: int(2, 20_000)
    .default(1000)
    .describe(
      'frames an animated GIF / WebP / APNG may hold; more fail the job with `animation_too_many_frames` before decoding (2–20000)',
    ),
  ANIMATION_MAX_SOURCE_PIXELS: int(1_000_000, 1_000_000_000_000)
    .default(4_000_000_000)
    .describe(
      'pixels decoded from an animated GIF / WebP / APNG to reach the frames kept (canvas × frames composited; GIF and WebP recomposite from the first frame for each batch), checked from the header: over it the job fails with `animation_too_large`',
    ),
  ANIMATION_VIDEO_FPS: int(1, 60).default(12).describe("frames per second kept from a video (never more than the source's)"),
  MOTION_LOOP_S: z.coerce.number().min(1).max(10).default(4).describe('loop length and rate rendered for still pictures'),
  MOTION_FPS: int(2, 30).default(12).describe('loop length and rate rendered for still pictures'),
  MOTION_DEFAULT_MODEL: z
    .string()
    .min(1)
    .default('procedural')
    .describe('`video_model` used when a request names none (must be enabled, else the start fails)'),
  BG_REMOVAL_INFER_PX: int(256, 1024)
    .refine((v) => v % 128 === 0, 'must be a multiple of 128')
    .default(1024)
    .describe(
      "short side of the background-removal model input (multiple of 128, 256–1024); 1024 gives the library's own mask, smaller sizes are faster but pick other subjects on some pictures (see Performance)",
    ),
  BG_REMOVAL_KEYFRAME_GAP: int(1, 24)
    .default(6)
    .describe(
      "videos, GIFs and motion clips: the model runs on every this-many-th frame first, and also between two runs whose masks, carried to each other along the subject's motion, disagree (scene cuts, subjects entering or leaving, shapes changing); the frames between agreeing runs get the two outlines morphed. 1 = the model on every frame",
    ),
  BG_REMOVAL_THREADS: int(1, 64).default(2).describe('ONNX Runtime threads (per worker)'),
  BG_REMOVAL_WORKERS: int(0, 16)
    .default(1)
    .describe(
      'worker threads running the cut-out (inference, mask resize and apply) off the event loop, each with its own model session, started on the first cut-out and closed at shutdown; 0 runs it inline on the event loop (blocks it for each inference)',
    ),
  MOTION_TIMEOUT_S: int(10, 86_400).default(1800).describe('a motion operation running longer is cancelled and fails the job (refunded)'),
  REPLICATE_API_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe("a hosted provider's key: set it and its models are enabled (docs/providers.md)"),
  REPLICATE_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.replicate.com/v1')
    .describe("the hosted provider's API base URL (a proxy, or a local fake in tests)"),
  RUNWAYML_API_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe("a hosted provider's key: set it and its models are enabled (docs/providers.md)"),
  RUNWAY_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.dev.runwayml.com/v1')
    .describe("the hosted provider's API base URL (a proxy, or a local fake in tests)"),
  RUNWAY_API_VERSION: z.string().min(1).default('2024-11-06').describe('the `X-Runway-Version` header sent to Runway'),
  LUMAAI_API_KEY: z.string().min(1).optional().describe("a hosted provider's key: set it and its models are enabled (docs/providers.md)"),
  LUMA_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.lumalabs.ai/dream-machine/v1')
    .describe("the hosted provider's API base URL (a proxy, or a local fake in tests)"),
  FAL_KEY: z.string().min(1).optional().describe("a hosted provider's key: set it and its models are enabled (docs/providers.md)"),
  FAL_QUEUE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://queue.fal.run')
    .describe("the hosted provider's API base URL (a proxy, or a local fake in tests)"),
  GEMINI_API_KEY: z.string().min(1).optional().describe("a hosted provider's key: set it and its models are enabled (docs/providers.md)"),
  VEO_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://generativelanguage.googleapis.com/v1beta')
    .describe("the hosted provider's API base URL (a proxy, or a local fake in tests)"),
  MOTION_POLL_INTERVAL_MS: int(10, 600_000)
    .default(5000)
    .describe('wait between status requests to a hosted provider (its Retry-After wins)'),
  MOTION_REQUEST_TIMEOUT_MS: int(100, 600_000).default(60_000).describe('one request to a hosted provider, result download included'),
  IDEMPOTENCY_TTL_HOURS: int(24, 24 * 30)
    .default(24)
    .describe('how long an Idempotency-Key answer is kept (≥ 24)'),
  CONNECTIONS_SECRET_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      error: () => 'must be 32 bytes in base64 (44 characters: `openssl rand -base64 32`)',
    })
    .optional()
    .describe(
      "AES-256-GCM key (32 bytes, base64) that encrypts shop connections' credentials at rest; generated and kept under DATA_DIR when absent. Back it up with the data directory: without it every shop must be connected again. Scaled mode: set the same value in every process (default: generated)",
    ),
  SHOPIFY_ADMIN_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "replaces `https://<shop>.myshopify.com` in every shop connection's Admin API calls: a local fake in tests, or an outbound proxy; never set it to reach real shops directly (default: each shop's own domain)",
    ),
  SHOP_RETRY_BACKOFF_MS: int(1, 60_000)
    .default(500)
    .describe(
      "shop connections: the first wait before retrying a shop's 5xx answer or network failure, doubled each try up to 30 s (five tries; a shop's Retry-After counts)",
    ),
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
