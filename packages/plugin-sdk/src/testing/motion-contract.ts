import type { MotionContext, MotionHandle, MotionOutput, MotionPoll, MotionProvider, MotionRequest } from '../motion';
import type { Plugin, PluginContainer } from '../plugin';
import type { StageLogger } from '../stage';
import type { StoragePort } from '../storage';
import { TOKENS } from '../tokens';
import { createMemoryStorage } from './memory-storage';

export interface MotionProviderContractOptions {
  /** Shown in the suite's title: `motion provider contract: <name>`. Default: the provider's id. */
  name?: string;
  /** The model ids to animate with (default: every model the provider lists). */
  models?: readonly string[];
  /** Loop asked for (default 1 s at 8 fps, 48 x 36 frames: small, so the kit stays fast). */
  durationS?: number;
  fps?: number;
  width?: number;
  height?: number;
  /** The frame count must be round(durationS * fps) (default true). */
  exactFrameCount?: boolean;
  /** Longest wait between polls, ms, whatever `retryAfterMs` says (default 100): point hosted models at a fake. */
  maxPollIntervalMs?: number;
  /** Per-test timeout, ms (default 60 s). */
  timeoutMs?: number;
  /**
   * The `ctx.storage` handed to the provider (default: a fresh {@link createMemoryStorage}). A hosted model
   * whose API fetches the still by URL needs one served over HTTP.
   */
  storage?: () => StoragePort;
  /** The plugin that registers the provider: its name, defaults and registration are checked too. */
  plugin?: Plugin<object>;
  /** Option sets (merged over the plugin's defaults) its `register` must refuse. */
  invalidPluginOptions?: readonly object[];
}

/** A container that records registrations: enough for a plugin's `register` in a test. */
export function createTestContainer(): PluginContainer & { readonly registrations: ReadonlyMap<string, unknown[]> } {
  const registrations = new Map<string, unknown[]>();
  return {
    registrations,
    register(token, provider) {
      registrations.set(token, [...(registrations.get(token) ?? []), provider.useValue]);
      return this;
    },
    isRegistered: (token) => registrations.has(token),
    resolve<T>(token: string): T {
      const all = registrations.get(token);
      if (!all?.length) throw new Error(`test container: nothing registered for "${token}"`);
      return all[all.length - 1] as T;
    },
    resolveAll: <T>(token: string) => [...(registrations.get(token) ?? [])] as T[],
  };
}

/**
 * Runs a plugin's `register` with its defaults merged with `options` in a test container, the way the
 * service does, and returns the motion providers it registered under `motion.provider`.
 */
export async function motionProvidersFromPlugin(
  plugin: Plugin<object>,
  options: object = {},
  container = createTestContainer(),
): Promise<MotionProvider[]> {
  await plugin.register(container, { ...(plugin.defaults ?? {}), ...options });
  return container.resolveAll<MotionProvider>(TOKENS.motionProvider);
}

/** A small test picture, RGBA and encoded, made with sharp (`cutOut`: transparent around a disc, PNG). */
export async function makeTestPicture(width = 96, height = 64, cutOut = false): Promise<MotionRequest['image']> {
  // An optional peer dependency, loaded only by the motion kit.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('sharp') as { default?: unknown };
  const sharp = (mod.default ?? mod) as typeof import('sharp').default;
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const check = ((x >> 3) + (y >> 3)) % 2;
      rgba[i] = Math.round((255 * x) / width);
      rgba[i + 1] = check ? 200 : 40;
      rgba[i + 2] = Math.round((255 * y) / height);
      const inside = (x - width / 2) ** 2 / (width / 2.5) ** 2 + (y - height / 2) ** 2 / (height / 2.5) ** 2 <= 1;
      rgba[i + 3] = cutOut && !inside ? 0 : 255;
    }
  }
  const raw = { raw: { width, height, channels: 4 as const } };
  if (cutOut) return { rgba, width, height, encoded: await sharp(rgba, raw).png().toBuffer(), mime: 'image/png' };
  const encoded = await sharp(rgba, raw).jpeg({ quality: 90 }).toBuffer();
  // What the service hands a model: the decoded picture.
  const decoded = await sharp(encoded).ensureAlpha().raw().toBuffer();
  return { rgba: decoded, width, height, encoded, mime: 'image/jpeg' };
}

const silentLog: StageLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Registers a Jest suite that checks a motion provider against the contract the motion stage relies on:
 * a valid id and model list, a JSON handle, real frames of the requested size and count for a real
 * picture (or a video put into storage), progress within 0..1, transparency kept when declared, an
 * AbortSignal honoured, cancel. `factory` builds the provider (for a plugin, use
 * {@link motionProvidersFromPlugin}); sharp must be installed (it makes the test pictures).
 *
 * @example
 * ```ts
 * import { describeMotionProviderContract, motionProvidersFromPlugin } from '@image-ar/plugin-sdk/testing';
 * const plugin = require('../index.js');
 * describeMotionProviderContract(async () => (await motionProvidersFromPlugin(plugin, { degrees: 5 }))[0], { plugin });
 * ```
 */
export function describeMotionProviderContract(
  factory: () => MotionProvider | Promise<MotionProvider>,
  options: MotionProviderContractOptions = {},
): void {
  const timeout = options.timeoutMs ?? 60_000;
  const size = { durationS: options.durationS ?? 1, fps: options.fps ?? 8, width: options.width ?? 48, height: options.height ?? 36 };
  const expectedFrames = Math.round(size.durationS * size.fps);

  const request = (model: string, image: MotionRequest['image'], over: Partial<MotionRequest> = {}): MotionRequest => ({
    jobId: `contract-${Math.random().toString(36).slice(2, 10)}`,
    model,
    image,
    style: 'breathe',
    prompt: 'Gentle breathing zoom, the camera stays centred.',
    ...size,
    ...over,
  });

  const context = (signal: AbortSignal = new AbortController().signal) => {
    const progress: number[] = [];
    const ctx: MotionContext = {
      signal,
      log: silentLog,
      storage: options.storage?.() ?? createMemoryStorage(),
      progress: (f) => void progress.push(f),
    };
    return { ctx, progress };
  };

  /** start, then poll (with the handle as a restarted worker reads it back) until done. */
  const run = async (
    provider: MotionProvider,
    req: MotionRequest,
    ctx: MotionContext,
  ): Promise<{ handle: MotionHandle; result: MotionPoll }> => {
    const handle = await provider.start(req, ctx);
    const saved = JSON.parse(JSON.stringify(handle)) as MotionHandle;
    const deadline = Date.now() + timeout - 2000;
    for (;;) {
      const result = await provider.poll(structuredClone(saved), req, ctx);
      if (result.state !== 'running') return { handle: saved, result };
      if (result.progress !== undefined) expect(result.progress >= 0 && result.progress <= 1).toBe(true);
      if (Date.now() > deadline) throw new Error(`motion provider "${provider.id}": still running at the kit's time limit`);
      await new Promise((r) => setTimeout(r, Math.min(result.retryAfterMs ?? 2000, options.maxPollIntervalMs ?? 100)));
    }
  };

  /** Checks an output against the request; returns the frames' alpha bytes summary. */
  const checkOutput = async (
    output: MotionOutput,
    req: MotionRequest,
    ctx: MotionContext,
  ): Promise<{ alpha: string; translucent: boolean } | null> => {
    if (output.kind === 'video') {
      expect(typeof output.storageKey).toBe('string');
      const stat = await ctx.storage.stat(output.storageKey);
      expect(stat).not.toBeNull();
      expect(stat!.size).toBeGreaterThan(0);
      expect(stat!.contentType).toMatch(/^video\//);
      return null;
    }
    expect(output.kind).toBe('frames');
    const seq = output.sequence;
    expect({ width: seq.width, height: seq.height }).toEqual({ width: req.width, height: req.height });
    expect(['opaque', 'mask', 'blend']).toContain(seq.alpha);
    if (options.exactFrameCount ?? true) expect(seq.frames.length).toBe(expectedFrames);
    else expect(seq.frames.length).toBeGreaterThanOrEqual(2);
    let seconds = 0;
    let translucent = false;
    for (const f of seq.frames) {
      expect((f.rgba as unknown) instanceof Uint8Array).toBe(true);
      expect(f.rgba.length).toBe(req.width * req.height * 4);
      expect(Number.isFinite(f.duration) && f.duration > 0).toBe(true);
      seconds += f.duration;
      for (let i = 3; i < f.rgba.length && !translucent; i += 4) if (f.rgba[i] < 255) translucent = true;
    }
    expect(Math.abs(seconds - req.durationS)).toBeLessThanOrEqual(1 / req.fps + 1e-6);
    // The declared alpha matches the pixels: an "opaque" sequence has no see-through pixel.
    if (seq.alpha === 'opaque') expect(translucent).toBe(false);
    // It is motion: the loop does not show the same picture all along.
    expect(seq.frames.some((f) => !Buffer.from(f.rgba).equals(Buffer.from(seq.frames[0].rgba)))).toBe(true);
    return { alpha: seq.alpha, translucent };
  };

  describe(`motion provider contract: ${options.name ?? 'provider'}`, () => {
    let photo: MotionRequest['image'];
    let cutOut: MotionRequest['image'];
    beforeAll(async () => {
      photo = await makeTestPicture(96, 64, false);
      cutOut = await makeTestPicture(96, 64, true);
    }, timeout);

    const modelsOf = (provider: MotionProvider) => options.models ?? provider.models().map((m) => m.id);

    if (options.plugin) {
      const plugin = options.plugin;
      it(
        'the plugin declares its name and defaults, and registers a provider with its defaults',
        async () => {
          expect(typeof plugin.name).toBe('string');
          expect(plugin.name).toMatch(/^[a-z0-9@][a-z0-9@/._-]*$/i);
          expect(typeof plugin.register).toBe('function');
          if (plugin.defaults !== undefined) {
            expect(typeof plugin.defaults).toBe('object');
            expect(Array.isArray(plugin.defaults)).toBe(false);
            // Every accepted option has a JSON default (CONFIG_FILE is JSON; other keys stop the start).
            expect(JSON.parse(JSON.stringify(plugin.defaults))).toEqual(plugin.defaults);
            for (const [key, value] of Object.entries(plugin.defaults)) {
              if (value === undefined || value === null) throw new Error(`plugin "${plugin.name}": option "${key}" has no default`);
            }
          }
          const providers = await motionProvidersFromPlugin(plugin);
          expect(providers.length).toBeGreaterThan(0);
        },
        timeout,
      );

      for (const [i, bad] of (options.invalidPluginOptions ?? []).entries()) {
        it(
          `the plugin refuses invalid options (${i + 1}: ${JSON.stringify(bad)})`,
          async () => {
            await expect((async () => motionProvidersFromPlugin(plugin, bad))()).rejects.toThrow();
          },
          timeout,
        );
      }
    }

    it(
      'declares a valid id, its transparency and its models',
      async () => {
        const provider = await factory();
        expect(provider.id).toMatch(/^[a-z][a-z0-9-]*$/);
        expect(typeof provider.acceptsTransparency).toBe('boolean');
        for (const m of ['start', 'poll', 'cancel', 'models'] as const) expect(typeof provider[m]).toBe('function');
        const models = provider.models();
        expect(models.length).toBeGreaterThan(0);
        const ids = new Set<string>();
        for (const m of models) {
          expect(m.id).toMatch(/^\S+$/);
          // `<provider>:<model>` (or the provider's own id for its only model): ids stay unique across providers.
          expect(m.id === provider.id || m.id.startsWith(`${provider.id}:`)).toBe(true);
          expect(m.provider).toBe(provider.id);
          expect(typeof m.display_name).toBe('string');
          expect(m.display_name.trim().length).toBeGreaterThan(0);
          if (m.description !== undefined) expect(typeof m.description).toBe('string');
          expect(ids.has(m.id)).toBe(false);
          ids.add(m.id);
        }
        // Listed by the options endpoint as JSON, the same each time.
        expect(JSON.parse(JSON.stringify(models))).toEqual(models);
        expect(provider.models().map((m) => m.id)).toEqual([...ids]);
        for (const m of options.models ?? []) expect(ids.has(m)).toBe(true);
      },
      timeout,
    );

    it(
      'animates a real picture: a JSON handle, then frames of the requested size and count (or a stored video)',
      async () => {
        const provider = await factory();
        for (const model of modelsOf(provider)) {
          const req = request(model, photo);
          const { ctx, progress } = context();
          const { handle, result } = await run(provider, req, ctx);
          expect(handle && typeof handle === 'object' && !Array.isArray(handle)).toBe(true);
          if (result.state !== 'succeeded') throw new Error(`model "${model}" did not succeed: ${JSON.stringify(result)}`);
          await checkOutput(result.output, req, ctx);
          for (const f of progress) expect(Number.isFinite(f) && f >= 0 && f <= 1).toBe(true);
        }
      },
      timeout,
    );

    it(
      "renders the request's frame size, whatever the picture's aspect ratio",
      async () => {
        const provider = await factory();
        const [model] = modelsOf(provider);
        const req = request(model, photo, { width: 30, height: 40, style: 'drift', customMotion: 'slowly to the left' });
        const { ctx } = context();
        const { result } = await run(provider, req, ctx);
        if (result.state !== 'succeeded') throw new Error(`model "${model}" did not succeed: ${JSON.stringify(result)}`);
        await checkOutput(result.output, req, ctx);
      },
      timeout,
    );

    it(
      'keeps a cut-out picture cut out when it declares acceptsTransparency',
      async () => {
        const provider = await factory();
        if (!provider.acceptsTransparency) return;
        const [model] = modelsOf(provider);
        const req = request(model, cutOut);
        const { ctx } = context();
        const { result } = await run(provider, req, ctx);
        if (result.state !== 'succeeded') throw new Error(`model "${model}" did not succeed: ${JSON.stringify(result)}`);
        const seen = await checkOutput(result.output, req, ctx);
        if (seen) {
          expect(seen.alpha).not.toBe('opaque');
          expect(seen.translucent).toBe(true);
        }
      },
      timeout,
    );

    it(
      'honours an aborted signal: no result once aborted',
      async () => {
        const provider = await factory();
        const [model] = modelsOf(provider);
        const req = request(model, photo);
        const started = context();
        const handle = JSON.parse(JSON.stringify(await provider.start(req, started.ctx))) as MotionHandle;
        // Already aborted (shutdown while it waited): it must not deliver.
        const gone = new AbortController();
        gone.abort(new Error('shutdown'));
        const { ctx: abortedCtx } = context(gone.signal);
        const early = await provider.poll(structuredClone(handle), req, abortedCtx).then(
          (r) => r,
          (e: unknown) => e,
        );
        expect((early as MotionPoll)?.state).not.toBe('succeeded');
        // Aborted while it works (at its first progress report, or on the next turn of the event loop).
        const longer = request(model, photo, { durationS: 4, fps: 24 });
        const longHandle = JSON.parse(JSON.stringify(await provider.start(longer, started.ctx))) as MotionHandle;
        const controller = new AbortController();
        const during = context(controller.signal);
        during.ctx.progress = () => controller.abort(new Error('cancelled'));
        const timer = setTimeout(() => controller.abort(new Error('cancelled')), 0);
        const t0 = Date.now();
        const late = await provider.poll(longHandle, longer, during.ctx).then(
          (r) => r,
          (e: unknown) => e,
        );
        clearTimeout(timer);
        expect((late as MotionPoll)?.state).not.toBe('succeeded');
        expect(Date.now() - t0).toBeLessThan(timeout / 2);
      },
      timeout,
    );

    it(
      'cancels a started operation',
      async () => {
        const provider = await factory();
        const [model] = modelsOf(provider);
        const req = request(model, photo);
        const { ctx } = context();
        const handle = await provider.start(req, ctx);
        await expect(provider.cancel(JSON.parse(JSON.stringify(handle)) as MotionHandle, ctx)).resolves.toBeUndefined();
      },
      timeout,
    );
  });
}
