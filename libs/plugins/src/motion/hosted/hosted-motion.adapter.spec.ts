import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';

import { loadConfig } from '@app/config';
import { createContainer, UserError } from '@app/pipeline';
import { LocalStorageAdapter, type StoragePort } from '@app/storage';
import { ROOT, tempDir, type FakeProviderId, type FakeProviders, startFakeProviders } from '@app/testing';
import { registerServices } from '../../services';
import {
  MOTION_PROVIDER,
  type MotionContext,
  type MotionHandle,
  type MotionPoll,
  type MotionProvider,
  type MotionRequest,
} from '../motion-provider.port';
import { hostedMotionPlugin, hostedProviderStatus } from './hosted-motion.plugin';
import { ProviderHttp, ProviderHttpError, parseRetryAfter } from './provider-http';

const MODELS: Record<FakeProviderId, string> = {
  replicate: 'replicate:kwaivgi/kling-v2.1',
  runway: 'runway:gen4_turbo',
  luma: 'luma:ray-2',
  fal: 'fal:fal-ai/kling-video/v2.1/standard/image-to-video',
  veo: 'veo:veo-3.0-fast-generate-001',
};
const PROVIDERS = Object.keys(MODELS) as FakeProviderId[];
const POLL_MS = 40;

let fakes: FakeProviders;
let storage: StoragePort;
let files: Server;
let video: Buffer;
let picture: MotionRequest['image'];

beforeAll(async () => {
  fakes = await startFakeProviders();
  video = readFileSync(join(ROOT, 'test/fixtures/media/clip-city-2s.mp4'));
  // Local storage served over HTTP, as the API serves /files: Luma and fal fetch the picture from it.
  files = createServer((req, res) => {
    void (async () => {
      const key = req.url!.replace(/^\/files\//, '');
      const stat = await storage.stat(key).catch(() => null);
      if (!stat) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': stat.contentType, 'content-length': stat.size });
      (await storage.read(key)).pipe(res);
    })();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  storage = new LocalStorageAdapter(join(tempDir('hosted-'), 'storage'), `http://127.0.0.1:${(files.address() as AddressInfo).port}`);
  const img = sharp(readFileSync(join(ROOT, 'test/fixtures/media/photo-bubbles.jpg'))).resize(640);
  const { data, info } = await img.clone().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  picture = {
    rgba: data,
    width: info.width,
    height: info.height,
    encoded: await img.clone().jpeg({ quality: 92 }).toBuffer(),
    mime: 'image/jpeg',
  };
});
afterAll(async () => {
  await fakes.stop();
  await new Promise((r) => files.close(r));
});
beforeEach(() => {
  fakes.all.forEach((f) => f.reset());
  fakes.cdn.requests.length = 0;
  fakes.apiDownloads.length = 0;
});

/** Boots the hosted plugin the way the service does: config from the environment, then register(). */
async function boot(env: Record<string, string> = {}): Promise<Map<string, MotionProvider>> {
  const config = loadConfig({ DATA_DIR: tempDir('hosted-cfg-'), ...fakes.env(), MOTION_POLL_INTERVAL_MS: String(POLL_MS), ...env });
  const c = createContainer();
  registerServices(c, { config, storage });
  await hostedMotionPlugin.register(c, {});
  const providers = c.isRegistered(MOTION_PROVIDER) ? c.resolveAll<MotionProvider>(MOTION_PROVIDER) : [];
  return new Map(providers.map((p) => [p.id, p]));
}

function request(model: string, jobId = `v2_${Math.random().toString(36).slice(2, 10)}`): MotionRequest {
  return {
    jobId,
    model,
    image: picture,
    style: 'push-in',
    prompt: 'Slow push-in towards the subject, gentle parallax',
    durationS: 4,
    fps: 12,
    width: 640,
    height: picture.height,
  };
}

function context(progress: number[] = []): MotionContext {
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  return { signal: new AbortController().signal, log, storage, progress: (f) => progress.push(f) };
}

/** Polls like the motion stage: waits what the provider says, until a final state. */
async function pollToEnd(
  p: MotionProvider,
  handle: MotionHandle,
  req: MotionRequest,
  ctx = context(),
  max = 40,
): Promise<{ final: MotionPoll; polls: MotionPoll[] }> {
  const polls: MotionPoll[] = [];
  for (let i = 0; i < max; i++) {
    const r = await p.poll(JSON.parse(JSON.stringify(handle)) as MotionHandle, req, ctx);
    polls.push(r);
    if (r.state !== 'running') return { final: r, polls };
    await new Promise((ok) => setTimeout(ok, r.retryAfterMs ?? POLL_MS));
  }
  throw new Error('never finished');
}

async function readKey(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage.read(key)) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe.each(PROVIDERS)('hosted motion adapter: %s (against a local fake of its API)', (id) => {
  const fake = () => fakes[id];

  it('creates, polls a slow job with progress, and copies the video into our storage at once', async () => {
    const provider = (await boot()).get(id)!;
    expect(provider.models().map((m) => m.id)).toContain(MODELS[id]);
    fake().plan({ polls: 4 });
    const req = request(MODELS[id]);
    const progress: number[] = [];
    const handle = await provider.start(req, context(progress));
    expect(JSON.parse(JSON.stringify(handle))).toEqual(handle);
    const { final, polls } = await pollToEnd(provider, handle, req, context(progress));
    expect(polls.filter((p) => p.state === 'running')).toHaveLength(4);
    for (const p of polls.slice(0, 4)) expect(p).toMatchObject({ state: 'running', retryAfterMs: POLL_MS });
    expect(final).toMatchObject({ state: 'succeeded', output: { kind: 'video' } });
    const key = (final as { output: { storageKey: string } }).output.storageKey;
    expect(key).toMatch(new RegExp(`^motion/${req.jobId}/${id}-`));
    expect((await readKey(key)).equals(video)).toBe(true);
    expect(fake().creates).toHaveLength(1);
  });

  it('maps a failed operation to a clear job error, and a moderation refusal to its own code', async () => {
    const provider = (await boot()).get(id)!;
    fake().plan({ polls: 1, outcome: 'fail' }).plan({ polls: 0, outcome: 'moderated' });
    const req = request(MODELS[id]);
    const failed = (await pollToEnd(provider, await provider.start(req, context()), req)).final;
    expect(failed).toMatchObject({ state: 'failed', code: 'motion_failed' });
    expect((failed as { message: string }).message.length).toBeGreaterThan(20);
    const moderated = (await pollToEnd(provider, await provider.start(req, context()), req)).final;
    expect(moderated).toMatchObject({ state: 'failed', code: 'motion_moderated' });
  });

  it("honours 429: waits the provider's retry hint before creating again, and backs off a rate-limited status request", async () => {
    const provider = (await boot()).get(id)!;
    fake().plan({ rateLimitCreate: 1, rateLimitPoll: 1, polls: 1 });
    const req = request(MODELS[id]);
    const handle = await provider.start(req, context());
    const creates = fake().requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/files'));
    expect(creates).toHaveLength(2);
    // Retry-After: 1 (Veo: RetryInfo retryDelay "1s"), so the second create waits at least ~1 s.
    expect(creates[1].at - creates[0].at).toBeGreaterThanOrEqual(950);
    const first = await provider.poll(handle, req, context());
    expect(first).toEqual({ state: 'running', retryAfterMs: id === 'luma' || id === 'fal' ? POLL_MS : 1000 });
    expect((await pollToEnd(provider, handle, req)).final.state).toBe('succeeded');
    expect(fake().operations.size).toBe(1);
  });

  it('resumes a checkpointed operation after a restart without creating a second one', async () => {
    const before = (await boot()).get(id)!;
    fake().plan({ polls: 3 });
    const req = request(MODELS[id]);
    const saved = JSON.stringify(await before.start(req, context()));
    expect((await before.poll(JSON.parse(saved) as MotionHandle, req, context())).state).toBe('running');
    // A new process: a fresh plugin registration, only the JSON checkpoint survives.
    const after = (await boot()).get(id)!;
    const { final } = await pollToEnd(after, JSON.parse(saved) as MotionHandle, req);
    expect(final.state).toBe('succeeded');
    expect(fake().creates).toHaveLength(1);
  });

  it("cancels through the provider's cancel call", async () => {
    const provider = (await boot()).get(id)!;
    fake().plan({ polls: 10 });
    const req = request(MODELS[id]);
    const handle = await provider.start(req, context());
    await provider.cancel(handle, context());
    const op = [...fake().operations.values()][0];
    if (id === 'veo') {
      // Veo operations have no cancel method: nothing is sent, the operation expires on its own.
      expect(fake().requests.filter((r) => r.path.includes('cancel'))).toHaveLength(0);
    } else {
      expect(op?.cancelled ?? true).toBe(true);
      expect(fake().requests.at(-1)!.method).toBe(id === 'fal' ? 'PUT' : id === 'replicate' ? 'POST' : 'DELETE');
    }
  });

  it('refuses to run on a wrong key with an error that names the provider and never leaks the key', async () => {
    const keyEnv = {
      replicate: 'REPLICATE_API_TOKEN',
      runway: 'RUNWAYML_API_SECRET',
      luma: 'LUMAAI_API_KEY',
      fal: 'FAL_KEY',
      veo: 'GEMINI_API_KEY',
    }[id];
    const provider = (await boot({ [keyEnv]: 'wrong-key-0000' })).get(id)!;
    const err = await provider.start(request(MODELS[id]), context()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ code: 'motion_provider_auth' });
    expect((err as Error).message).not.toContain('wrong-key-0000');
  });
});

describe('hosted motion: request shapes each provider documents', () => {
  it('Runway: version header, data URI, a ratio of the model, 5 s', async () => {
    const p = (await boot()).get('runway')!;
    await p.start(request(MODELS.runway), context());
    const r = fakes.runway.creates[0];
    expect(r.headers['x-runway-version']).toBe('2024-11-06');
    const body = r.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'gen4_turbo',
      duration: 5,
      ratio: picture.width > picture.height ? expect.stringMatching(/^(1280:720|1104:832|1584:672)$/) : expect.any(String),
    });
    expect(String(body.promptImage)).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('Luma: a hosted picture it could fetch, loop on, an aspect ratio it knows', async () => {
    const p = (await boot()).get('luma')!;
    await p.start(request(MODELS.luma), context());
    expect(fakes.luma.creates[0].body).toMatchObject({
      model: 'ray-2',
      loop: true,
      duration: '5s',
      keyframes: { frame0: { type: 'image' } },
    });
    expect(fakes.luma.fetchedImages).toEqual([
      expect.objectContaining({ status: 200, contentType: 'image/jpeg', bytes: picture.encoded.length }),
    ]);
  });

  it("Replicate: the model's own image field; big pictures go through the Files API", async () => {
    const p = (await boot()).get('replicate')!;
    const req = request(MODELS.replicate);
    const big = await sharp(readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')))
      .resize(2400)
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(256 * 1024);
    await p.start({ ...req, image: { ...req.image, encoded: big, mime: 'image/png' } }, context());
    const input = (fakes.replicate.creates[0].body as { input: Record<string, string> }).input;
    expect(fakes.replicate.creates[0].path).toBe('/models/kwaivgi/kling-v2.1/predictions');
    expect(input.start_image).toMatch(/\/replicate\/v1\/files\/.+\/download$/);
    expect(fakes.replicate.requests.some((r) => r.method === 'POST' && r.path === '/files')).toBe(true);
    const small = { ...req, image: { ...req.image, encoded: await sharp(req.image.encoded).resize(200).jpeg().toBuffer() } };
    await p.start(small, context());
    expect((fakes.replicate.creates[1].body as { input: Record<string, string> }).input.start_image).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('Replicate: operator-configured models, input fields and a pinned version', async () => {
    const dir = tempDir('hosted-cfg-');
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        motion: {
          models: [
            {
              id: 'replicate:acme/animate:0123abcd',
              display_name: 'Acme Animate',
              image_field: 'first_frame',
              prompt_field: 'text',
              input: { fps: 24 },
            },
          ],
        },
      }),
    );
    const p = (await boot({ CONFIG_FILE: file })).get('replicate')!;
    expect(p.models()).toEqual([{ id: 'replicate:acme/animate:0123abcd', display_name: 'Acme Animate', provider: 'replicate' }]);
    const small = {
      ...request('replicate:acme/animate:0123abcd'),
      image: { ...picture, encoded: await sharp(picture.encoded).resize(100).jpeg().toBuffer() },
    };
    // The fake wants a `prompt`: the model's own field name is sent instead, so it answers 422 -> a clear refusal.
    const err = await p.start(small, context()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'motion_rejected' });
    const body = fakes.replicate.creates[0].body as { version: string; input: Record<string, unknown> };
    expect(fakes.replicate.creates[0].path).toBe('/predictions');
    expect(body).toMatchObject({ version: '0123abcd', input: { text: small.prompt, fps: 24 } });
    expect(String(body.input.first_frame)).toMatch(/^data:image\/jpeg/);
  });

  it('fal: status, result and cancel URLs are taken from the submit answer (app id only)', async () => {
    const p = (await boot()).get('fal')!;
    const handle = await p.start(request(MODELS.fal), context());
    expect(fakes.fal.creates[0].path).toBe('/fal-ai/kling-video/v2.1/standard/image-to-video');
    expect(handle.status_url).toMatch(/\/fal\/fal-ai\/kling-video\/requests\/[^/]+\/status$/);
  });

  it('Veo: inline base64 picture, an aspect ratio Veo takes, the result downloaded with the key', async () => {
    const p = (await boot()).get('veo')!;
    const req = request(MODELS.veo);
    const handle = await p.start(req, context());
    const body = fakes.veo.creates[0].body as {
      instances: { image: { bytesBase64Encoded: string; mimeType: string } }[];
      parameters: { aspectRatio: string };
    };
    expect(Buffer.from(body.instances[0].image.bytesBase64Encoded, 'base64').equals(picture.encoded)).toBe(true);
    expect(body.parameters.aspectRatio).toBe('16:9');
    expect(handle.id).toMatch(/^models\/veo-3.0-fast-generate-001\/operations\//);
    expect((await pollToEnd(p, handle, req)).final.state).toBe('succeeded');
    const download = fakes.veo.requests.find((r) => r.path.includes(':download'));
    expect(download?.headers['x-goog-api-key']).toBe(fakes.veo.apiKey);
  });
});

describe("hosted motion: credentials stay with the provider's API origin", () => {
  /** Headers a request carried that would give a provider's key away. */
  const leaked = (headers: Record<string, unknown>, id: FakeProviderId) =>
    Object.entries(headers).filter(
      ([name, v]) => ['authorization', 'x-goog-api-key', 'x-runway-version'].includes(name) || String(v).includes(fakes[id].apiKey),
    );

  it.each(PROVIDERS)(
    '%s: a result on another origin is downloaded without the key, also after a redirect from the API origin',
    async (id) => {
      // The CDN is another port of 127.0.0.1: another origin, and a private address (allowed here).
      const provider = (await boot({ ALLOW_PRIVATE_NETWORKS: 'true' })).get(id)!;
      for (const result of ['cdn', 'api-redirect'] as const) {
        fakes.cdn.requests.length = 0;
        fakes.apiDownloads.length = 0;
        fakes[id].plan({ polls: 0, result });
        const req = request(MODELS[id]);
        const { final } = await pollToEnd(provider, await provider.start(req, context()), req);
        expect(final).toMatchObject({ state: 'succeeded', output: { kind: 'video' } });
        expect((await readKey((final as { output: { storageKey: string } }).output.storageKey)).equals(video)).toBe(true);
        expect(fakes.cdn.requests).toHaveLength(1);
        expect(leaked(fakes.cdn.requests[0].headers, id)).toEqual([]);
        // The hop on the API's own origin is the provider's: it may have the key (Veo's download needs it).
        const apiHop = id === 'veo' ? fakes.veo.requests.find((r) => r.path.includes(':download')) : fakes.apiDownloads[0];
        if (id === 'veo') expect(apiHop?.headers['x-goog-api-key']).toBe(fakes.veo.apiKey);
        else if (result === 'api-redirect') expect(leaked(apiHop!.headers, id)).not.toEqual([]);
        else expect(apiHop).toBeUndefined();
      }
    },
  );

  it('refuses a result link that leads to a private address when private networks are not allowed', async () => {
    const providers = await boot();
    // The API origin is the operator's choice (a local fake here) and stays reachable; where it points is checked.
    for (const [id, result] of [
      ['runway', 'cdn'],
      ['replicate', 'api-redirect'],
      ['veo', 'cdn'],
    ] as const) {
      fakes[id].plan({ polls: 0, result });
      const p = providers.get(id)!;
      const req = request(MODELS[id]);
      const err = await pollToEnd(p, await p.start(req, context()), req).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect(err).toMatchObject({
        code: 'motion_result_blocked',
        message: expect.stringMatching(/^motion: .*127\.0\.0\.1 is a private or reserved address$/),
      });
    }
    expect(fakes.cdn.requests).toHaveLength(0);
  });
});

describe('ProviderHttp: credentials and redirects', () => {
  let api: Server;
  let other: Server;
  let apiBase: string;
  let otherBase: string;
  const seen: { server: 'api' | 'other'; path: string; headers: Record<string, unknown> }[] = [];
  const KEY = 's3cret-key';

  beforeAll(async () => {
    api = createServer((req, res) => {
      seen.push({ server: 'api', path: req.url!, headers: req.headers });
      const to: Record<string, string> = {
        '/v1/moved': `${apiBase}/v1/here`,
        '/v1/away': `${otherBase}/v1/here`,
        '/v1/file': `${otherBase}/file.mp4`,
        '/v1/to-name': `http://cdn.internal.test:${new URL(otherBase).port}/file.mp4`,
      };
      if (to[req.url!]) return void res.writeHead(307, { location: to[req.url!] }).end();
      if (req.url === '/v1/trickle') {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        const t = setInterval(() => res.write(Buffer.alloc(10)), 50);
        return void res.on('close', () => clearInterval(t));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    other = createServer((req, res) => {
      seen.push({ server: 'other', path: req.url!, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    for (const s of [api, other]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of [api, other]) await new Promise((r) => s.close(r));
  });
  beforeEach(() => (seen.length = 0));

  const client = (opts: Partial<ConstructorParameters<typeof ProviderHttp>[0]> = {}) =>
    new ProviderHttp({
      provider: 'acme',
      baseUrl: `${apiBase}/v1`,
      headers: { authorization: `Bearer ${KEY}`, 'x-acme-key': KEY },
      timeoutMs: 3000,
      allowPrivateNetworks: true,
      ...opts,
    });
  const carriesKey = (h: Record<string, unknown>) => JSON.stringify(h).includes(KEY);

  it('follows an API redirect on the API origin with the key, and none off it', async () => {
    expect((await client().json('POST', `${apiBase}/v1/moved`, { body: { a: 1 } })).body).toEqual({ ok: true });
    expect(seen.map((s) => [s.server, s.path, carriesKey(s.headers)])).toEqual([
      ['api', '/v1/moved', true],
      ['api', '/v1/here', true],
    ]);
    seen.length = 0;
    const err = await client()
      .json('GET', `${apiBase}/v1/away`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderHttpError);
    expect(err).toMatchObject({ kind: 'rejected', status: 307, message: expect.stringContaining('not followed') });
    expect(seen.map((s) => s.server)).toEqual(['api']);
  });

  it('sends nothing secret to a URL on another origin (a link taken from an answer)', async () => {
    await client().json('GET', `${otherBase}/v1/status`);
    expect(seen).toHaveLength(1);
    expect(carriesKey(seen[0].headers)).toBe(false);
  });

  it('downloads across origins without the key, with it on the API origin (extra download headers too)', async () => {
    const { stream } = await client().stream(`${apiBase}/v1/file`, { headers: { 'x-download-key': KEY } });
    stream.resume();
    expect(seen.map((s) => [s.server, carriesKey(s.headers)])).toEqual([
      ['api', true],
      ['other', false],
    ]);
    expect(seen[0].headers['x-download-key']).toBe(KEY);
  });

  it('ends a download that outlives the request timeout, body included', async () => {
    const t0 = Date.now();
    const { stream } = await client({ timeoutMs: 400 }).stream(`${apiBase}/v1/trickle`);
    const err = await new Promise<Error>((resolve) => stream.on('error', resolve).resume());
    expect(err.message).toBe('no complete answer within 400 ms');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('refuses a download redirect to a name that resolves to a private address, without saying the address', async () => {
    const resolve = (_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: '10.0.0.5', family: 4 }]);
    const err = await client({ allowPrivateNetworks: false, resolve })
      .stream(`${apiBase}/v1/to-name`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({
      code: 'motion_result_blocked',
      message: 'motion: acme: the result link leads to a refused address: cdn.internal.test resolves to a private or reserved address',
    });
    expect((err as Error).message).not.toContain('10.0.0.5');
    expect(seen.map((s) => s.server)).toEqual(['api']);
  });
});

describe('hosted motion: configuration', () => {
  it('enables a provider only with its key and lists the others as disabled with the reason', () => {
    const config = loadConfig({ DATA_DIR: tempDir('hosted-cfg-'), RUNWAYML_API_SECRET: 'key_x' });
    const status = hostedProviderStatus(config);
    expect(status.find((s) => s.id === 'runway')).toEqual({ id: 'runway', enabled: true, models: ['runway:gen4_turbo'] });
    expect(status.find((s) => s.id === 'veo')).toEqual({ id: 'veo', enabled: false, reason: 'GEMINI_API_KEY is not set', models: [] });
  });

  it('fails startup when a configured model has no key, naming the variable, and for unknown providers', () => {
    const dir = tempDir('hosted-cfg-');
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ motion: { models: [{ id: 'luma:ray-2' }, { id: 'acme:x' }] } }));
    expect(() => loadConfig({ DATA_DIR: dir, CONFIG_FILE: file })).toThrow(
      /LUMAAI_API_KEY: required by the luma models in CONFIG_FILE motion.models \(luma:ray-2\)/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, CONFIG_FILE: file })).toThrow(/"acme:x" names no built-in hosted provider/);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
