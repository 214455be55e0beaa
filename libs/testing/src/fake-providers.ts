import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './paths';

/**
 * Local stand-ins for the five hosted image-to-video APIs, each speaking its provider's documented
 * protocol (paths, auth header, request and status shapes, error bodies) — see docs/providers.md.
 * One HTTP server, one path prefix per provider. What an operation does is scripted per create call.
 */
export interface FakeScenario {
  /** Status requests that answer "still running" before the final state. */
  polls?: number;
  outcome?: 'succeed' | 'fail' | 'moderated';
  /** Create requests answered 429 first (with the provider's rate-limit signal). */
  rateLimitCreate?: number;
  /** Status requests answered 429 first. */
  rateLimitPoll?: number;
  /**
   * Where the finished video is linked: on the API's own origin (default), on the CDN's (another port,
   * so another origin), or on the API origin redirecting to the CDN. Veo's keyed `:download` link is
   * always on the API origin; it redirects to the API's or the CDN's copy.
   */
  result?: 'api' | 'cdn' | 'api-redirect';
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

interface Operation {
  id: string;
  model: string;
  scenario: Required<FakeScenario>;
  polls: number;
  /** Status requests refused with 429 so far. */
  limited: number;
  cancelled: boolean;
  input: unknown;
}

export type FakeProviderId = 'replicate' | 'runway' | 'luma' | 'fal' | 'veo';

export class FakeProvider {
  readonly requests: FakeRequest[] = [];
  readonly operations = new Map<string, Operation>();
  private readonly planned: FakeScenario[] = [];
  private createLimited = 0;
  /** Images the fake fetched from URLs it was given (Luma, fal): content type and size. */
  readonly fetchedImages: { url: string; status: number; contentType: string | null; bytes: number }[] = [];

  constructor(
    readonly id: FakeProviderId,
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  /** The next create call runs this scenario (queued; default: succeed after 2 running polls). */
  plan(s: FakeScenario): this {
    this.planned.push(s);
    return this;
  }

  get creates(): FakeRequest[] {
    return this.requests.filter(
      (r) => r.method === 'POST' && r.body !== undefined && !r.path.includes('/cancel') && !r.path.endsWith('/files'),
    );
  }

  newOperation(model: string, input: unknown, id: string = randomUUID()): Operation {
    const s = this.planned.shift() ?? {};
    const op: Operation = {
      id,
      model,
      input,
      polls: 0,
      limited: 0,
      cancelled: false,
      scenario: { polls: 2, outcome: 'succeed', rateLimitCreate: 0, rateLimitPoll: 0, result: 'api', ...s },
    };
    this.operations.set(id, op);
    this.createLimited = 0;
    return op;
  }

  /** True while the planned create should still be refused with 429. */
  limitCreate(): boolean {
    const next = this.planned[0]?.rateLimitCreate ?? 0;
    if (this.createLimited < next) {
      this.createLimited++;
      return true;
    }
    return false;
  }

  limitPoll(op: Operation): boolean {
    if (op.limited < op.scenario.rateLimitPoll) {
      op.limited++;
      return true;
    }
    return false;
  }

  /** Advances an operation by one status request. */
  step(op: Operation): 'running' | 'succeeded' | 'failed' | 'moderated' | 'cancelled' {
    if (op.cancelled) return 'cancelled';
    op.polls++;
    if (op.polls <= op.scenario.polls) return 'running';
    return op.scenario.outcome === 'succeed' ? 'succeeded' : op.scenario.outcome === 'fail' ? 'failed' : 'moderated';
  }

  reset(): void {
    this.requests.length = 0;
    this.operations.clear();
    this.planned.length = 0;
    this.createLimited = 0;
    this.fetchedImages.length = 0;
  }
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

const RUNWAY_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672', '1280:768', '768:1280'];

/** A second server, on its own port: a CDN on another origin than the APIs. It records what it is sent. */
export interface FakeCdn {
  base: string;
  requests: FakeRequest[];
}

export interface FakeProviders {
  base: string;
  cdn: FakeCdn;
  /** Downloads of results from the APIs' own origin (`/videos/…`, `/to-cdn/…`). */
  apiDownloads: FakeRequest[];
  replicate: FakeProvider;
  runway: FakeProvider;
  luma: FakeProvider;
  fal: FakeProvider;
  veo: FakeProvider;
  all: FakeProvider[];
  /** Environment that points the service at the fakes. */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the fakes on one port. `video` is what a finished operation returns. */
export async function startFakeProviders(opts: { video?: Buffer } = {}): Promise<FakeProviders> {
  const video = opts.video ?? readFileSync(join(ROOT, 'test/fixtures/media/clip-city-2s.mp4'));
  const uploads = new Map<string, { bytes: Buffer; type: string }>();
  const sockets = new Set<Socket>();
  let base = '';
  const fakes = {} as Record<FakeProviderId, FakeProvider>;
  const cdn: FakeCdn = { base: '', requests: [] };
  const apiDownloads: FakeRequest[] = [];

  const videoFile = (op: Operation) => `${op.id.replace(/\W+/g, '_')}.mp4`;
  const videoUrl = (op: Operation) => {
    const where = op.scenario.result;
    return `${where === 'cdn' ? cdn.base : base}${where === 'api-redirect' ? '/to-cdn' : ''}/videos/${videoFile(op)}`;
  };

  async function fetchImage(fake: FakeProvider, url: string): Promise<boolean> {
    try {
      const res = await fetch(url, { method: 'GET' });
      const bytes = Buffer.from(await res.arrayBuffer());
      fake.fetchedImages.push({ url, status: res.status, contentType: res.headers.get('content-type'), bytes: bytes.length });
      return res.ok && /^image\//.test(res.headers.get('content-type') ?? '') && bytes.length > 0;
    } catch {
      fake.fetchedImages.push({ url, status: 0, contentType: null, bytes: 0 });
      return false;
    }
  }

  // --- Replicate: https://replicate.com/docs/topics/predictions
  async function replicate(
    f: FakeProvider,
    method: string,
    path: string,
    req: IncomingMessage,
    body: unknown,
    raw: Buffer,
  ): Promise<Reply> {
    if (req.headers.authorization !== `Bearer ${f.apiKey}`)
      return { status: 401, body: { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 } };
    const limited = (): Reply => ({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { detail: 'Request was throttled. Your rate limit resets in ~1s.', status: 429 },
    });
    if (method === 'POST' && path === '/files') {
      const form = await new Request('http://x/', {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: new Uint8Array(raw),
      }).formData();
      const file = form.get('content');
      if (!(file instanceof Blob)) return { status: 400, body: { detail: 'content is required', status: 400 } };
      const id = randomUUID();
      uploads.set(id, { bytes: Buffer.from(await file.arrayBuffer()), type: file.type });
      return {
        status: 201,
        body: { id, content_type: file.type, size: file.size, urls: { get: `${base}/replicate/v1/files/${id}/download` } },
      };
    }
    const create = method === 'POST' && (/^\/models\/[^/]+\/[^/]+\/predictions$/.test(path) || path === '/predictions');
    if (create) {
      if (f.limitCreate()) return limited();
      const b = body as { input?: Record<string, unknown>; version?: string };
      const model = path === '/predictions' ? String(b.version) : path.split('/').slice(2, 4).join('/');
      const images = Object.values(b.input ?? {}).filter(
        (v) => typeof v === 'string' && (v.startsWith('data:image/') || v.startsWith(`${base}/replicate/v1/files/`)),
      );
      if (!b.input || typeof b.input.prompt !== 'string' || images.length !== 1)
        return {
          status: 422,
          body: { title: 'Input validation failed', detail: 'input: an image and a prompt are required', status: 422 },
        };
      const op = f.newOperation(model, b.input);
      return {
        status: 201,
        body: {
          id: op.id,
          model,
          status: 'starting',
          input: b.input,
          output: null,
          error: null,
          urls: { get: `${base}/replicate/v1/predictions/${op.id}`, cancel: `${base}/replicate/v1/predictions/${op.id}/cancel` },
        },
      };
    }
    const m = path.match(/^\/predictions\/([^/]+)(\/cancel)?$/);
    const op = m ? f.operations.get(m[1]) : undefined;
    if (!m || !op) return { status: 404, body: { detail: 'Not found.', status: 404 } };
    if (m[2] && method === 'POST') {
      op.cancelled = true;
      return { status: 200, body: { id: op.id, status: 'canceled' } };
    }
    if (method !== 'GET') return { status: 405 };
    if (f.limitPoll(op)) return limited();
    const s = f.step(op);
    const p = { id: op.id, model: op.model, input: op.input, urls: { get: `${base}/replicate/v1/predictions/${op.id}` } };
    if (s === 'running')
      return {
        status: 200,
        body: { ...p, status: op.polls === 1 ? 'starting' : 'processing', output: null, error: null, logs: 'generating' },
      };
    if (s === 'succeeded') return { status: 200, body: { ...p, status: 'succeeded', output: videoUrl(op), error: null } };
    if (s === 'cancelled') return { status: 200, body: { ...p, status: 'canceled', output: null, error: null } };
    return {
      status: 200,
      body: {
        ...p,
        status: 'failed',
        output: null,
        error: s === 'moderated' ? 'NSFW content detected in the input image' : 'CUDA out of memory',
      },
    };
  }

  // --- Runway: https://docs.dev.runwayml.com/api
  function runway(f: FakeProvider, method: string, path: string, req: IncomingMessage, body: unknown): Reply {
    if (req.headers.authorization !== `Bearer ${f.apiKey}`) return { status: 401, body: { error: 'Invalid API key' } };
    if (req.headers['x-runway-version'] !== '2024-11-06')
      return { status: 400, body: { error: 'Missing or invalid X-Runway-Version header' } };
    if (method === 'POST' && path === '/image_to_video') {
      if (f.limitCreate())
        return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'You have exceeded your daily task limit' } };
      const b = body as Record<string, unknown>;
      const problems = [
        typeof b.promptImage === 'string' && /^data:image\/(jpe?g|png|webp);base64,/.test(b.promptImage)
          ? ''
          : 'promptImage must be an https URL or a data URI',
        typeof b.model === 'string' ? '' : 'model is required',
        RUNWAY_RATIOS.includes(String(b.ratio)) ? '' : `ratio ${String(b.ratio)} is not valid`,
        [5, 10].includes(Number(b.duration)) ? '' : 'duration must be 5 or 10',
        typeof b.promptText === 'string' && b.promptText.length <= 1000 ? '' : 'promptText must be at most 1000 characters',
      ].filter(Boolean);
      if (problems.length) return { status: 400, body: { error: problems.join('; ') } };
      const op = f.newOperation(String(b.model), b);
      return { status: 200, body: { id: op.id } };
    }
    const m = path.match(/^\/tasks\/([^/]+)$/);
    const op = m ? f.operations.get(m[1]) : undefined;
    if (!op || (op.cancelled && method === 'GET')) return { status: 404, body: { error: 'Task not found' } };
    if (method === 'DELETE') {
      op.cancelled = true;
      return { status: 204 };
    }
    if (f.limitPoll(op)) return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too many requests' } };
    const s = f.step(op);
    const t = { id: op.id, createdAt: new Date().toISOString() };
    if (s === 'running')
      return {
        status: 200,
        body:
          op.polls === 1
            ? { ...t, status: 'THROTTLED' }
            : { ...t, status: 'RUNNING', progress: Math.min(0.9, op.polls / (op.scenario.polls + 1)) },
      };
    if (s === 'succeeded') return { status: 200, body: { ...t, status: 'SUCCEEDED', output: [videoUrl(op)] } };
    if (s === 'moderated')
      return {
        status: 200,
        body: { ...t, status: 'FAILED', failure: 'The input image did not pass moderation', failureCode: 'SAFETY.INPUT.IMAGE' },
      };
    return {
      status: 200,
      body: { ...t, status: 'FAILED', failure: 'An unexpected error occurred', failureCode: 'INTERNAL.BAD_OUTPUT.CODE01' },
    };
  }

  // --- Luma Dream Machine: https://docs.lumalabs.ai/docs/video-generation
  async function luma(f: FakeProvider, method: string, path: string, req: IncomingMessage, body: unknown): Promise<Reply> {
    if (req.headers.authorization !== `Bearer ${f.apiKey}`) return { status: 401, body: { detail: 'Invalid authentication credentials' } };
    if (method === 'POST' && path === '/generations') {
      if (f.limitCreate()) return { status: 429, headers: { 'retry-after': '1' }, body: { detail: 'Rate limit exceeded' } };
      const b = body as {
        prompt?: string;
        model?: string;
        keyframes?: { frame0?: { type?: string; url?: string } };
        loop?: boolean;
        aspect_ratio?: string;
      };
      const url = b.keyframes?.frame0?.type === 'image' ? b.keyframes.frame0.url : undefined;
      if (!url || !/^https?:\/\//.test(url)) return { status: 400, body: { detail: 'keyframes.frame0 must be an image with a url' } };
      if (!(await fetchImage(f, url))) return { status: 400, body: { detail: 'Failed to read user input frames' } };
      if (!['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'].includes(String(b.aspect_ratio)))
        return { status: 400, body: { detail: 'Invalid aspect ratio' } };
      const op = f.newOperation(String(b.model), b);
      return {
        status: 201,
        body: {
          id: op.id,
          state: 'queued',
          failure_reason: null,
          model: b.model,
          assets: null,
          request: b,
          created_at: new Date().toISOString(),
        },
      };
    }
    const m = path.match(/^\/generations\/([^/]+)$/);
    const op = m ? f.operations.get(m[1]) : undefined;
    if (!op) return { status: 404, body: { detail: 'Generation not found' } };
    if (method === 'DELETE') {
      op.cancelled = true;
      f.operations.delete(op.id);
      return { status: 204 };
    }
    if (f.limitPoll(op)) return { status: 429, body: { detail: 'Rate limit exceeded' } };
    const s = f.step(op);
    const g = { id: op.id, model: op.model, generation_type: 'video', created_at: new Date().toISOString() };
    if (s === 'running')
      return { status: 200, body: { ...g, state: op.polls === 1 ? 'queued' : 'dreaming', failure_reason: null, assets: null } };
    if (s === 'succeeded')
      return { status: 200, body: { ...g, state: 'completed', failure_reason: null, assets: { video: videoUrl(op), image: null } } };
    return {
      status: 200,
      body: {
        ...g,
        state: 'failed',
        failure_reason: s === 'moderated' ? 'Frame moderation failed' : 'Prompt processing failed',
        assets: null,
      },
    };
  }

  // --- fal queue: https://fal.ai/docs/api-reference/inference-api
  async function fal(f: FakeProvider, method: string, path: string, req: IncomingMessage, body: unknown): Promise<Reply> {
    if (req.headers.authorization !== `Key ${f.apiKey}`) return { status: 401, body: { detail: 'Unauthorized: invalid key' } };
    const m = path.match(/^\/([^/]+)\/([^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/);
    if (!m && method === 'POST') {
      if (f.limitCreate())
        return { status: 429, headers: { 'retry-after': '1' }, body: { detail: 'Too many requests', error_type: 'rate_limited' } };
      const b = body as { prompt?: string; image_url?: string };
      if (typeof b.image_url !== 'string' || typeof b.prompt !== 'string')
        return { status: 422, body: { detail: [{ loc: ['body', 'image_url'], msg: 'field required', type: 'value_error.missing' }] } };
      if (!(await fetchImage(f, b.image_url)))
        return {
          status: 422,
          body: { detail: [{ loc: ['body', 'image_url'], msg: 'Failed to download the file', type: 'file_download_error' }] },
        };
      const model = path.slice(1);
      const app = model.split('/').slice(0, 2).join('/');
      const op = f.newOperation(model, b);
      const r = `${base}/fal/${app}/requests/${op.id}`;
      return {
        status: 200,
        body: {
          request_id: op.id,
          status: 'IN_QUEUE',
          queue_position: 0,
          status_url: `${r}/status`,
          response_url: r,
          cancel_url: `${r}/cancel`,
        },
      };
    }
    const op = m ? f.operations.get(m[3]) : undefined;
    if (!m || !op) return { status: 404, body: { detail: 'Request not found' } };
    if (m[4] === '/cancel' && method === 'PUT') {
      if (op.polls > op.scenario.polls) return { status: 400, body: { status: 'ALREADY_COMPLETED' } };
      op.cancelled = true;
      return { status: 202, body: { status: 'CANCELLATION_REQUESTED' } };
    }
    if (m[4] === '/status') {
      if (f.limitPoll(op)) return { status: 429, body: { detail: 'Too many requests' } };
      const s = f.step(op);
      if (s === 'running')
        return { status: 202, body: op.polls === 1 ? { status: 'IN_QUEUE', queue_position: 1 } : { status: 'IN_PROGRESS', logs: [] } };
      return { status: 200, body: { status: 'COMPLETED', logs: [], metrics: { inference_time: 1.2 } } };
    }
    // The result: the model's answer, or its error replayed with the model's status code.
    if (op.cancelled) return { status: 400, body: { detail: 'Request was cancelled' } };
    if (op.polls <= op.scenario.polls) return { status: 400, body: { detail: 'Request is still in progress' } };
    if (op.scenario.outcome === 'succeed')
      return { status: 200, body: { video: { url: videoUrl(op), content_type: 'video/mp4', file_size: video.length } } };
    if (op.scenario.outcome === 'moderated')
      return {
        status: 422,
        body: {
          detail: [{ loc: ['body', 'image_url'], msg: 'The image was flagged by the content checker', type: 'content_policy_violation' }],
        },
      };
    return {
      status: 500,
      headers: { 'x-fal-retryable': 'true' },
      body: { detail: 'Internal server error', error_type: 'runner_server_error' },
    };
  }

  // --- Google Veo via the Gemini API: https://ai.google.dev/gemini-api/docs/video
  function veo(f: FakeProvider, method: string, path: string, req: IncomingMessage, body: unknown): Reply {
    if (req.headers['x-goog-api-key'] !== f.apiKey)
      return {
        status: 403,
        body: { error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED' } },
      };
    const exhausted = (): Reply => ({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
        },
      },
    });
    const create = path.match(/^\/models\/([^/:]+):predictLongRunning$/);
    if (create && method === 'POST') {
      if (f.limitCreate()) return exhausted();
      const b = body as {
        instances?: { prompt?: string; image?: { bytesBase64Encoded?: string; mimeType?: string } }[];
        parameters?: Record<string, unknown>;
      };
      const i = b.instances?.[0];
      if (!i?.prompt || !i.image?.bytesBase64Encoded || !/^image\/(png|jpeg)$/.test(i.image.mimeType ?? '')) {
        return { status: 400, body: { error: { code: 400, message: 'Invalid value at instances[0].image', status: 'INVALID_ARGUMENT' } } };
      }
      if (!['16:9', '9:16'].includes(String(b.parameters?.aspectRatio)))
        return { status: 400, body: { error: { code: 400, message: 'aspectRatio must be 16:9 or 9:16', status: 'INVALID_ARGUMENT' } } };
      const id = randomUUID().replace(/-/g, '').slice(0, 12);
      const op = f.newOperation(create[1], b, `models/${create[1]}/operations/${id}`);
      return { status: 200, body: { name: op.id } };
    }
    const file = path.match(/^\/files\/([^/:]+):download$/);
    if (file && method === 'GET') {
      const op = [...f.operations.values()].find((o) => videoFile(o) === `${file[1]}.mp4`);
      return { status: 302, headers: { location: `${op && op.scenario.result !== 'api' ? cdn.base : base}/videos/${file[1]}.mp4` } };
    }
    const op = f.operations.get(path.slice(1));
    if (!op || method !== 'GET')
      return { status: 404, body: { error: { code: 404, message: 'Operation not found', status: 'NOT_FOUND' } } };
    if (f.limitPoll(op)) return exhausted();
    const s = f.step(op);
    if (s === 'running') return { status: 200, body: { name: op.id } };
    if (s === 'succeeded') {
      const fileId = op.id.replace(/\W+/g, '_');
      return {
        status: 200,
        body: {
          name: op.id,
          done: true,
          response: {
            '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
            generateVideoResponse: { generatedSamples: [{ video: { uri: `${base}/veo/v1beta/files/${fileId}:download?alt=media` } }] },
          },
        },
      };
    }
    if (s === 'moderated')
      return {
        status: 200,
        body: {
          name: op.id,
          done: true,
          response: {
            generateVideoResponse: {
              raiMediaFilteredCount: 1,
              raiMediaFilteredReasons: ['The image contains content that violates the usage guidelines.'],
            },
          },
        },
      };
    return { status: 200, body: { name: op.id, done: true, error: { code: 3, message: 'The prompt could not be processed.' } } };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const url = new URL(req.url!, 'http://x');
        const path = url.pathname;
        const method = req.method ?? 'GET';
        let reply: Reply;
        if (path.startsWith('/videos/') && method === 'GET') {
          apiDownloads.push({ method, path, headers: req.headers, body: undefined, at: Date.now() });
          res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
          res.end(video);
          return;
        }
        if (path.startsWith('/to-cdn/videos/') && method === 'GET') {
          apiDownloads.push({ method, path, headers: req.headers, body: undefined, at: Date.now() });
          res.writeHead(302, { location: `${cdn.base}${path.slice('/to-cdn'.length)}` });
          res.end();
          return;
        }
        const upload = path.match(/^\/replicate\/v1\/files\/([^/]+)\/download$/);
        if (upload && uploads.has(upload[1])) {
          const u = uploads.get(upload[1])!;
          res.writeHead(200, { 'content-type': u.type });
          res.end(u.bytes);
          return;
        }
        const prefix = (['replicate', 'runway', 'luma', 'fal', 'veo'] as const).find((p) => path.startsWith(`/${p}/`));
        const fake = prefix && fakes[prefix];
        if (!fake) {
          res.writeHead(404);
          res.end();
          return;
        }
        const rest = path.slice(new URL(fake.baseUrl).pathname.length);
        const isJson = (req.headers['content-type'] ?? '').includes('application/json');
        let body: unknown;
        try {
          body = isJson && raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: 'invalid JSON' }));
          return;
        }
        fake.requests.push({ method, path: rest, headers: req.headers, body, at: Date.now() });
        try {
          if (prefix === 'replicate') reply = await replicate(fake, method, rest, req, body, raw);
          else if (prefix === 'runway') reply = runway(fake, method, rest, req, body);
          else if (prefix === 'luma') reply = await luma(fake, method, rest, req, body);
          else if (prefix === 'fal') reply = await fal(fake, method, rest, req, body);
          else reply = veo(fake, method, rest, req, body);
        } catch (err) {
          reply = { status: 500, body: { detail: (err as Error).message } };
        }
        res.writeHead(reply.status, { ...(reply.body !== undefined ? { 'content-type': 'application/json' } : {}), ...reply.headers });
        res.end(reply.body !== undefined ? JSON.stringify(reply.body) : undefined);
      })();
    });
  });
  const cdnServer = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    cdn.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: undefined, at: Date.now() });
    req.resume();
    if (!path.startsWith('/videos/')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
    res.end(video);
  });
  for (const srv of [server, cdnServer]) {
    srv.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => cdnServer.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cdn.base = `http://127.0.0.1:${(cdnServer.address() as AddressInfo).port}`;
  fakes.replicate = new FakeProvider('replicate', `${base}/replicate/v1`, 'r8_fake_replicate_token');
  fakes.runway = new FakeProvider('runway', `${base}/runway/v1`, 'key_fake_runway_secret');
  fakes.luma = new FakeProvider('luma', `${base}/luma/dream-machine/v1`, 'luma-fake-key');
  fakes.fal = new FakeProvider('fal', `${base}/fal`, 'fal-fake-id:fal-fake-secret');
  fakes.veo = new FakeProvider('veo', `${base}/veo/v1beta`, 'AIzaFakeGeminiKey');
  return {
    base,
    cdn,
    apiDownloads,
    ...fakes,
    all: Object.values(fakes),
    env: () => ({
      REPLICATE_API_TOKEN: fakes.replicate.apiKey,
      REPLICATE_BASE_URL: fakes.replicate.baseUrl,
      RUNWAYML_API_SECRET: fakes.runway.apiKey,
      RUNWAY_BASE_URL: fakes.runway.baseUrl,
      LUMAAI_API_KEY: fakes.luma.apiKey,
      LUMA_BASE_URL: fakes.luma.baseUrl,
      FAL_KEY: fakes.fal.apiKey,
      FAL_QUEUE_URL: fakes.fal.baseUrl,
      GEMINI_API_KEY: fakes.veo.apiKey,
      VEO_BASE_URL: fakes.veo.baseUrl,
    }),
    stop: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([server, cdnServer].map((srv) => new Promise((r) => srv.close(r))));
    },
  };
}
