import type { INestApplication } from '@nestjs/common';
import { requestComponents } from '@app/schema';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '@app/config';
import { ApiModule } from '../api.module';
import { V1CallbackDto } from '../jobs/v1.dto';
import { ErrorResponseDto } from './error.dto';
import { V2JobDto } from '../jobs/v2-jobs.dto';

/**
 * The published OpenAPI document (GET /openapi.json, /docs, docs/openapi.json). Controllers and DTOs
 * describe their own bodies; this module adds what is the same everywhere: the error object on every
 * error status a route can answer, security, the callbacks with their Standard Webhooks headers, and
 * request/response examples. Built from an app created in preview mode, so no database is needed.
 */

type Json = Record<string, any>;

const DESCRIPTION = [
  'Turns pictures into AR models (GLB for Android Scene Viewer, USDZ for iOS AR Quick Look).',
  '',
  'Authentication: every /api route needs the `X-API-Key` header (a per-user key `sk_live_…`, or the owner key; /api/admin needs the owner key).',
  '',
  "Key scopes: `full` keys may call every route; `read_only` keys the GET routes of the account's own jobs, showcases, shop connections, identity and usage (v1 status and result, GET /api/v2/jobs, /api/v2/me, lists); " +
    '`widget` keys (use one for a key in public HTML) only POST /api/v1/convert and the v1 status and result of the jobs that key created (404 for any other job), from their allowed origins ' +
    "(Origin header) and under the lower RATE_LIMIT_WIDGET limit. A route a key's scope does not cover answers 403 `insufficient_scope` naming the key's scope and the ones allowed; " +
    'a widget key from another origin 403 `origin_not_allowed`. Callback URLs are shown without their query string or fragment. Manage keys with /api/v2/keys.',
  '',
  'Errors: every error answer is JSON `{ "error": { "type", "code", "message", "param"?, "request_id" } }` (schema ErrorResponse). `type` is one of a fixed set, `code` is stable and machine-readable, ' +
    '`param` names the request field at fault, and `request_id` is the id to quote when reporting a problem (5xx answers carry no internals).',
  '',
  'Retries: POST routes that create something accept an `Idempotency-Key` header (24 h). 429 and 503 answers carry `Retry-After`.',
  '',
  "Callbacks: with `callback_url`, the service POSTs the job's final payload once the job completes or fails, signed with the Standard Webhooks scheme (see the `callbacks` of POST /api/v1/convert and POST /api/v2/animated-ar).",
].join('\n');

const ERROR_EXAMPLES: Record<string, { type: string; code: string; message: string; param?: string }> = {
  400: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'image_url: must be an http(s) URL', param: 'image_url' },
  401: { type: 'authentication_error', code: 'invalid_api_key', message: 'missing X-API-Key header' },
  402: {
    type: 'insufficient_credits',
    code: 'insufficient_credits',
    message: 'this needs 9 credits; the balance is 4. Nothing was created or charged.',
  },
  403: { type: 'permission_error', code: 'owner_key_required', message: 'this endpoint needs the owner key' },
  404: { type: 'not_found', code: 'resource_missing', message: 'job api_x not found' },
  409: {
    type: 'conflict',
    code: 'idempotency_key_reused',
    message: 'this Idempotency-Key was used with a different request; use a new key for a new request',
    param: 'Idempotency-Key',
  },
  413: { type: 'payload_too_large', code: 'body_too_large', message: 'Request body is too large' },
  415: { type: 'unsupported_media_type', code: 'invalid_body', message: 'Unsupported Media Type' },
  429: { type: 'rate_limited', code: 'rate_limit_exceeded', message: 'too many requests for this API key: 120 per 60 s; retry in 12 s' },
  500: { type: 'api_error', code: 'internal_error', message: 'internal error; quote the request_id when reporting it' },
  503: { type: 'api_error', code: 'service_unavailable', message: 'the database is unavailable; retry in 5 s' },
};

const DEFAULT_ERROR_DESCRIPTION: Record<string, string> = {
  400: 'Invalid request: a parameter (named in error.param), the body, or a value no route accepts (NUL characters, JSON nested over 64 levels).',
  401: 'Missing, unknown or revoked X-API-Key.',
  402: 'Not enough credits (per-user keys): nothing was created or charged.',
  403: "Not allowed for this key: insufficient_scope (the key's scope does not cover this route), origin_not_allowed (a widget key from an origin it does not allow), or a rule of the route.",
  404: 'No such resource for this key (those of other accounts included).',
  409: 'Conflict: idempotency_key_reused (same Idempotency-Key, different request) or idempotency_key_in_use (the first request is still running).',
  413: 'Body or file too large.',
  415: 'Unsupported Content-Type.',
  429: 'Rate limited (per key); see Retry-After.',
  500: 'Internal error; quote error.request_id when reporting it.',
  503: 'The database is unavailable; retry after Retry-After seconds (an Idempotency-Key makes that safe).',
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };

const REQUEST_EXAMPLES: Record<string, unknown> = {
  'post /api/v1/convert': {
    image_url: 'https://example.com/picture.jpg',
    aspect_ratio: '3:2',
    callback_url: 'https://shop.example.com/hooks/ar',
    title: 'Dunes at Dawn',
    frame: 'classic',
  },
  'post /api/v2/showcases': {
    layout_choice: 'branded',
    description: 'Spring collection',
    logo_url: 'https://example.com/logo.png',
    custom_links: [{ title: 'Shop', url: 'https://shop.example.com' }],
    branding: { tagline: 'Art for every wall', primary_color: '#0a66ff', secondary_color: '#222222' },
    image_urls: ['https://example.com/a.jpg'],
    items: [{ image_url: 'https://example.com/dunes.jpg', title: 'Dunes', price: '$120', frame: { style: 'classic', color: 'oak' } }],
  },
  'post /api/v2/animated-ar': {
    image_url: 'https://example.com/lake.jpg',
    motion_style: 'sway',
    remove_background: false,
    callback_url: 'https://shop.example.com/hooks/ar',
  },
  'post /api/admin/users': { email: 'ada@example.com', name: 'Ada', credits: 100, showcase_slots: 2 },
  'post /api/admin/users/{id}/credits': { amount: 50, reason: 'monthly top-up' },
};

const RESPONSE_EXAMPLES: Record<string, unknown> = {
  'post /api/v1/convert 202': { job_id: 'api_k3xq7a2mzp4r', status: 'queued' },
  'get /api/v1/status/{jobId} 200': {
    job_id: 'api_k3xq7a2mzp4r',
    status: 'processing',
    progress: 42.5,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:02.000Z',
    started_at: '2026-01-05T10:00:00.007Z',
    finished_at: null,
    stages: [
      { stage: 'fetch', started_at: '2026-01-05T10:00:00.008Z', duration_ms: 6.4 },
      { stage: 'normalise', started_at: '2026-01-05T10:00:00.015Z', duration_ms: null },
    ],
  },
  'get /api/v1/webhook-secret 200': { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', scheme: 'standard-webhooks v1 (HMAC-SHA256)' },
  'post /api/v2/showcases 201': {
    id: 7,
    url: 'https://ar.example.com/showcase/shw_abcdefghijklmnopqrstuvwx',
    embed_url: 'https://ar.example.com/showcase/shw_abcdefghijklmnopqrstuvwx/embed',
    queued_jobs: [{ job_id: 'v2_3kq7xa2mzp4r', item_id: 12, status: 'queued' }],
    credits_charged: 7,
  },
  'post /api/v2/animated-ar 202': {
    job_id: 'v2_m4q7xa2mzp4r',
    object: 'job',
    kind: 'animated_ar',
    status: 'queued',
    source: 'image',
    pricing: {
      billed: true,
      lines: [
        { item: 'bake', credits: 1 },
        { item: 'ai_motion', credits: 12.5 },
      ],
      total: 13.5,
    },
    credits_charged: 13.5,
    video_model: 'procedural',
  },
  'get /api/v2/jobs/{jobId} 200': {
    job_id: 'v2_3kq7xa2mzp4r',
    object: 'job',
    kind: 'showcase.picture',
    status: 'converting',
    progress: 55,
    showcase_id: 7,
    item_id: 12,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:03.000Z',
    started_at: '2026-01-05T10:00:00.007Z',
    finished_at: null,
    stages: [
      { stage: 'fetch', started_at: '2026-01-05T10:00:00.008Z', duration_ms: 6.4 },
      { stage: 'normalise', started_at: '2026-01-05T10:00:00.015Z', duration_ms: null },
    ],
  },
};

function errorResponse(status: string, description: string): Json {
  const example = ERROR_EXAMPLES[status] ?? ERROR_EXAMPLES[500];
  return {
    description,
    ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorResponseDto) },
        example: { error: { ...example, request_id: 'req_5f1c0e7a9b2d4c3e8f6a1b0c9d8e7f6a' } },
      },
    },
  };
}

function callbackOperation(summary: string, description: string, schemaRef: string, exampleId: string): Json {
  return {
    post: {
      summary,
      description:
        `${description}\n\nSigned with the Standard Webhooks scheme: \`webhook-signature\` is \`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">\` ` +
        'keyed with the base64-decoded part of your secret after `whsec_` (GET /api/v1/webhook-secret). Verify against the raw body, reject timestamps more than 5 minutes off, ' +
        'and dedupe on webhook-id (the same on every retry). A 2xx answer acknowledges; any other answer, a redirect or no answer within the timeout is retried with backoff.',
      security: [],
      parameters: [
        {
          name: 'webhook-id',
          in: 'header',
          required: true,
          description: 'msg_<job_id>_<event>: one per job and event, the same on every retry.',
          schema: { type: 'string' },
          example: exampleId,
        },
        {
          name: 'webhook-timestamp',
          in: 'header',
          required: true,
          description: 'Unix time of this attempt, in seconds.',
          schema: { type: 'string', pattern: '^[0-9]+$' },
          example: '1767607200',
        },
        {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          description: 'Space-separated list of `v1,<base64 signature>` (one today).',
          schema: { type: 'string' },
          example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        },
        { name: 'User-Agent', in: 'header', required: false, schema: { type: 'string' }, example: 'image-ar-service-webhooks/0.1' },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: schemaRef } } } },
      responses: {
        '2XX': { description: 'Delivered; not sent again.' },
        '4XX': {
          description:
            'Not delivered: retried with backoff (up to CALLBACK_MAX_ATTEMPTS attempts; each attempt is listed in the job status).',
        },
      },
    },
  };
}

const CALLBACKS: Record<string, () => Json> = {
  'post /api/v1/convert': () => ({
    jobFinished: {
      '{$request.body#/callback_url}': callbackOperation(
        'v1 job completed or failed',
        'The v1 callback body.',
        getSchemaPath(V1CallbackDto),
        'msg_api_k3xq7a2mzp4r_completed',
      ),
    },
  }),
  'post /api/v2/animated-ar': () => ({
    jobFinished: {
      '{$request.body#/callback_url}': callbackOperation(
        'Animated AR job completed or failed',
        'The final job payload: the body of GET /api/v2/jobs/{job_id}.',
        getSchemaPath(V2JobDto),
        'msg_v2_m4q7xa2mzp4r_completed',
      ),
    },
  }),
};

/** Routes under /api that need no key. */
const PUBLIC_API_PATHS = new Set(['/api/v1/widget.js', '/api/events']);
const needsKey = (path: string) => path.startsWith('/api/') && !PUBLIC_API_PATHS.has(path);

/** Error statuses a route can answer, beyond the ones its controller declares. */
function errorStatuses(method: string, path: string, op: Json): string[] {
  const out = ['400', '500'];
  // 403: a key whose scope does not cover the route (insufficient_scope), a widget key's origin, the owner-only admin API.
  if (needsKey(path)) out.push('401', '403', '429', '503');
  if (/\{[^}]+\}/.test(path)) out.push('404');
  if (method === 'post' && op.requestBody) out.push('413', '415');
  if ((op.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key')) out.push('409');
  if (method === 'post' && (path === '/api/v2/showcases' || path === '/api/v2/showcases/{id}/items' || path === '/api/v2/animated-ar'))
    out.push('402');
  if (method === 'post' && path === '/api/v2/showcases') out.push('403');
  return out;
}

function complete(doc: OpenAPIObject): OpenAPIObject {
  const d = doc as Json;
  d.info.description = DESCRIPTION;
  d.tags = [
    { name: 'v1', description: 'Single-image conversion (free).' },
    { name: 'v2', description: 'Pro showcases, picture upload, animated AR, account (billed in credits for per-user keys).' },
    { name: 'admin', description: 'Operators: users, keys, credits (owner key only).' },
    { name: 'health', description: 'Liveness and readiness (no key).' },
    { name: 'files', description: 'Stored models and posters (local storage; no key).' },
    { name: 'oembed', description: 'oEmbed (oembed.com) for showcase, item, wall and embed page addresses (no key).' },
  ];
  d.security = [{ 'api-key': [] }];
  for (const [path, item] of Object.entries(d.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json) as [string, Json][]) {
      const key = `${method} ${path}`;
      if (!needsKey(path)) op.security = [];
      for (const status of errorStatuses(method, path, op)) op.responses[status] ??= { description: DEFAULT_ERROR_DESCRIPTION[status] };
      for (const [status, r] of Object.entries(op.responses as Json) as [string, Json][]) {
        if (Number(status) >= 400 && !r.content && !(path.startsWith('/files/') && status === '416'))
          Object.assign(r, errorResponse(status, r.description || DEFAULT_ERROR_DESCRIPTION[status] || 'Error.'));
        if (
          Number(status) >= 400 &&
          r.content?.['application/json']?.schema?.$ref === getSchemaPath(ErrorResponseDto) &&
          !r.content['application/json'].example &&
          ERROR_EXAMPLES[status]
        ) {
          r.content['application/json'].example = errorResponse(status, '').content['application/json'].example;
        }
        if (r.description === '') r.description = 'OK';
        const example = RESPONSE_EXAMPLES[`${key} ${status}`];
        if (example && r.content?.['application/json']) r.content['application/json'].example = example;
      }
      const reqExample = REQUEST_EXAMPLES[key];
      if (reqExample && op.requestBody?.content?.['application/json']) op.requestBody.content['application/json'].example = reqExample;
      const callbacks = CALLBACKS[key];
      if (callbacks) op.callbacks = callbacks();
    }
  }
  const files = d.paths['/files/{path}']?.get;
  if (files) {
    files.parameters = [
      {
        name: 'path',
        in: 'path',
        required: true,
        description: 'Storage key of the file (may contain "/"), as in the model and poster URLs of a result.',
        schema: { type: 'string' },
        example: 'models/api_k3xq7a2mzp4r/model.glb',
      },
    ];
    const binary = { schema: { type: 'string', format: 'binary' } };
    const content = {
      'model/gltf-binary': binary,
      'model/vnd.usdz+zip': binary,
      'image/jpeg': binary,
      'image/png': binary,
      'application/octet-stream': binary,
    };
    Object.assign(files.responses, {
      200: { description: 'The file; Cache-Control public, max-age=3600 (files can be deleted), ETag, Accept-Ranges.', content },
      206: { description: 'One byte range (Range: bytes=start-end).', content },
      304: { description: 'Not modified (If-None-Match).' },
      416: { description: 'Range not satisfiable; Content-Range: bytes */size.' },
    });
  }
  Object.assign(d.components.schemas, requestComponents());
  return doc;
}

/** The document of a created (not necessarily listening) API app. */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Image-to-AR conversion service')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addServer(publicBaseUrl)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A per-user key (billed) or the owner key.' }, 'api-key')
    .build();
  return complete(SwaggerModule.createDocument(app, base, { extraModels: [ErrorResponseDto, V1CallbackDto, V2JobDto] }));
}

/** The document without a database, queue or storage: Nest's preview mode registers the routes without creating the providers. */
export async function createOpenApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  const app = await NestFactory.create(ApiModule.forRoot(config), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app, config.publicBaseUrl);
  } finally {
    await app.close();
  }
}
