import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@app/testing';

/**
 * OpenUSD itself (Autodesk's WebAssembly build shipped by npm `three-usdz-loader`), run in headless Chromium,
 * as an independent check of our USDZ output (DESIGN §5): not our parser, not tinyusdz. The page is served
 * cross-origin isolated (COOP/COEP on every response) from a loopback server; the loader is bundled with
 * esbuild into node_modules/.cache/openusd-harness at test time.
 *
 * @example
 * const usd = await openUsd();                       // ~3-6 s: Chromium + the 8 MB wasm, once
 * const report = await usd.load(writeCardUsdz({ ... }), 'card.usdz');   // ~50-150 ms per file
 * expect(report.errors).toEqual([]);
 * expect(usdAttribute(report, '/Card/Model/Body/Front', 'material:binding')).toBe('</Card/Materials/Picture>');
 * await usd.close();
 */

const ROOT = resolve(__dirname, '../..');
const LOADER_DIR = join(ROOT, 'node_modules/three-usdz-loader');
const EXTERNAL = join(LOADER_DIR, 'external');
const PAGE_ENTRY = join(__dirname, 'openusd-page.mjs');
const CACHE = join(ROOT, 'node_modules/.cache/openusd-harness');

export interface UsdBounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface UsdMeshReport {
  /** Hydra rprim id, i.e. the prim path (e.g. /Card/Front). */
  path: string;
  /** Triangle-soup vertex count the render delegate received. */
  vertices: number;
  hasUv: boolean;
  /** Hydra material id (the bound material's prim path), null when the mesh kept the loader's default. */
  material: string | null;
  /** three.js maps that were filled from USD textures (map, emissiveMap, alphaMap, ...). */
  textures: string[];
  transparent: boolean;
}

export interface UsdPrinted {
  /** usd.stdout / usd.stderr (OpenUSD's own output), usd.abort, console.*, pageerror, unhandledrejection. */
  source: string;
  text: string;
}

export interface UsdReport {
  name: string;
  /** errors is empty: the stage opened, nothing but HARMLESS lines was printed, every texture loaded, every mesh bound. */
  ok: boolean;
  /** Everything printed that is not HARMLESS, plus exceptions, texture failures and unbound meshes. */
  errors: string[];
  /** HARMLESS lines that were filtered out. */
  ignored: string[];
  /** The flattened stage as USDA text (UsdStage::ExportToString), '' when the stage did not open. */
  layer: string;
  /** World-space bounds of the three.js group the loader filled (Box3.setFromObject), null when empty. */
  bounds: UsdBounds | null;
  /** After driver.SetTime(time) + Draw() for each requested time code: the group's and each mesh's bounds. */
  boundsAt: { time: number; bounds: UsdBounds | null; meshes: Record<string, UsdBounds | null> }[];
  meshCount: number;
  meshes: UsdMeshReport[];
  /** Hydra material ids (prim paths) the render delegate received. */
  materials: string[];
  stage: { startTimeCode: number; endTimeCode: number; timeCodesPerSecond: number } | null;
  /** Raw output, in order, for debugging. */
  log: UsdPrinted[];
  /** Time spent in the page for this file. */
  ms: number;
}

export interface UsdLoadOptions {
  /** Time codes at which to re-evaluate the stage and record boundsAt (animation checks). */
  times?: number[];
  /** Milliseconds before the load is abandoned (and the page reloaded). Default 30 s. */
  timeoutMs?: number;
  /**
   * Meshes left on Hydra's fallback material count as errors unless this is set: OpenUSD prints nothing for a
   * material:binding whose target is missing or not a Material, so this is how such a binding shows.
   */
  allowUnboundMeshes?: boolean;
  /**
   * Open the stage with UsdStage.Open before handing it to the loader's driver (default true). The driver
   * aborts the whole wasm module on a stage that fails to open (the page is then reloaded, ~5 s); the
   * pre-check turns that into a plain error.
   */
  probe?: boolean;
}

export interface OpenUsd {
  /** Opens one USDZ (or .usda/.usdc: the name's extension tells OpenUSD the format) in the shared page. */
  load(usdz: Buffer, name?: string, opts?: UsdLoadOptions): Promise<UsdReport>;
  /** What the page printed while OpenUSD started (plugin warnings), for debugging. */
  readonly startupLog: UsdPrinted[];
  close(): Promise<void>;
}

/**
 * Lines that are not problems in the file (DESIGN §5: missing UsdVol/Ndr plugins), matched per printed line.
 * Kept narrow on purpose: anything else printed fails the report.
 */
export const HARMLESS: RegExp[] = [
  // The wasm build ships without the UsdVol schema plugin and without Ndr discovery plugins; the first stage
  // opened on a page prints these (openUsd() opens a warm-up stage, so files normally never see them).
  /Failed to find plugin for schema type 'UsdVol\w+'/,
  /ndr\/registry\.cpp -- Failed verification: ' pluginFactory '/,
  // Emscripten's runtime (warnOnce, not OpenUSD): printed the first time the page's main thread waits on a lock
  // a worker thread holds, which depends on timing (machine load), not on the file.
  /^Blocking on the main thread is very dangerous/,
];

function isHarmless(line: UsdPrinted): boolean {
  return HARMLESS.some((re) => re.test(line.text));
}

/** Splits what the page printed (OpenUSD output, console, uncaught errors) into errors and HARMLESS lines. */
function classify(log: UsdPrinted[]): { errors: string[]; ignored: string[] } {
  const errors: string[] = [];
  const ignored: string[] = [];
  for (const line of log) {
    if (!line.text.trim()) continue;
    (isHarmless(line) ? ignored : errors).push(`${line.source}: ${line.text}`);
  }
  return { errors, ignored };
}

function packageVersion(dir: string): string {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** esbuild bundle of openusd-page.mjs (+ three + three-usdz-loader), cached under node_modules/.cache by content. */
async function pageBundle(): Promise<Buffer> {
  const entry = readFileSync(PAGE_ENTRY);
  const key = createHash('sha256')
    .update(entry)
    .update(packageVersion(join(ROOT, 'node_modules/three')))
    .update(packageVersion(LOADER_DIR))
    .update(packageVersion(join(ROOT, 'node_modules/esbuild')))
    .digest('hex')
    .slice(0, 16);
  const cached = join(CACHE, `page-${key}.js`);
  if (existsSync(cached)) return readFileSync(cached);
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const code = Buffer.from(out.outputFiles[0].contents);
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, cached);
  for (const old of readdirSync(CACHE))
    if (/^page-[0-9a-f]+\.js$/.test(old) && join(CACHE, old) !== cached) rmSync(join(CACHE, old), { force: true });
  return code;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.html': 'text/html; charset=utf-8',
};

/** Cross-origin isolation on every response (page, bundle, worker, .wasm, .data, files): SharedArrayBuffer needs it. */
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const INDEX =
  '<!doctype html><html><head><meta charset="utf-8"><title>OpenUSD check</title></head><body><script src="/page.js"></script></body></html>';

async function startServer(bundle: Buffer, files: Map<string, Buffer>): Promise<{ server: Server; base: string }> {
  const external = new Map<string, Buffer>();
  for (const f of ['emHdBindings.js', 'emHdBindings.wasm', 'emHdBindings.data', 'emHdBindings.worker.js'])
    external.set(f, readFileSync(join(EXTERNAL, f)));
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    let body: Buffer | undefined;
    if (path === '/') body = Buffer.from(INDEX);
    else if (path === '/page.js') body = bundle;
    else if (path.startsWith('/usd/')) body = external.get(path.slice(5));
    else if (path.startsWith('/files/')) body = files.get(path.slice(7).split('/')[0]);
    if (!body) {
      res.writeHead(404, ISOLATION).end('not found');
      return;
    }
    const type =
      path === '/'
        ? TYPES['.html']
        : path.startsWith('/files/')
          ? 'model/vnd.usdz+zip'
          : (TYPES[extname(path)] ?? 'application/octet-stream');
    res.writeHead(200, { ...ISOLATION, 'Content-Type': type, 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Starts a loopback server and one Chromium page with OpenUSD loaded; load() reuses that page for every file
 * (the wasm module and its 8 MB binary load once). A load that aborts OpenUSD or times out reloads the page.
 */
export async function openUsd(): Promise<OpenUsd> {
  if (!existsSync(join(EXTERNAL, 'emHdBindings.wasm'))) throw new Error('three-usdz-loader is not installed (npm ci)');
  const files = new Map<string, Buffer>();
  const bundle = await pageBundle();
  const { server, base } = await startServer(bundle, files);
  let browser: Browser | undefined;
  let page: Page;
  const pageLog: UsdPrinted[] = [];
  const startupLog: UsdPrinted[] = [];

  async function openPage(): Promise<void> {
    page = await browser!.newPage();
    // Worker threads print with their own console (not the page's wrappers): keep those too.
    page.on('worker', (worker) => worker.on('console', (m) => pageLog.push({ source: `worker.${m.type()}`, text: m.text() })));
    page.on('crash', () => pageLog.push({ source: 'crash', text: 'page crashed' }));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => !!(window as any).__openusd);
    const ready = await page.evaluate(() => (window as any).__openusd.ready());
    if (!ready.crossOriginIsolated) throw new Error('OpenUSD page is not cross-origin isolated');
    startupLog.splice(0, startupLog.length, ...ready.log);
  }

  try {
    browser = await launchChromium();
    await openPage();
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await new Promise((r) => server.close(r));
    throw e;
  }
  let dirty = false;
  let queue: Promise<unknown> = Promise.resolve();

  async function loadOne(usdz: Buffer, name: string, opts: UsdLoadOptions): Promise<UsdReport> {
    if (dirty || (await page.evaluate(() => (window as any).__openusd.isAborted()).catch(() => 'gone'))) {
      await page.close().catch(() => undefined);
      await openPage();
      dirty = false;
    }
    const id = randomUUID();
    files.set(id, usdz);
    const workerStart = pageLog.length;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const raw = await Promise.race([
        page.evaluate(([url, n, times, probe]) => (window as any).__openusd.load(url, n, times, probe), [
          `/files/${id}/${encodeURIComponent(name)}`,
          name,
          opts.times ?? [],
          opts.probe ?? true,
        ] as const),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`OpenUSD load of ${name} timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      const log: UsdPrinted[] = [...raw.log, ...pageLog.slice(workerStart)];
      const { errors, ignored } = classify(log);
      if (raw.exception) errors.unshift(`exception: ${raw.exception}`);
      for (const t of raw.textureErrors) errors.push(`texture: ${t}`);
      if (!raw.layer && !raw.exception) errors.push('stage did not open (empty layer)');
      if (!opts.allowUnboundMeshes) {
        for (const m of raw.meshes as UsdMeshReport[])
          if (!m.material) errors.push(`mesh ${m.path} has no bound material (binding missing, or its target is not a Material)`);
      }
      const aborted = await page.evaluate(() => (window as any).__openusd.isAborted()).catch(() => 'page gone');
      if (aborted) {
        dirty = true;
        if (!errors.some((e) => e.includes('abort'))) errors.push(`OpenUSD aborted: ${aborted}`);
      }
      return { ...raw, ok: errors.length === 0, errors, ignored, meshCount: raw.meshes.length, log };
    } catch (e) {
      dirty = true;
      const message = e instanceof Error ? e.message : String(e);
      const log = pageLog.slice(workerStart);
      return {
        name,
        ok: false,
        errors: [`harness: ${message}`, ...classify(log).errors],
        ignored: [],
        layer: '',
        bounds: null,
        boundsAt: [],
        meshCount: 0,
        meshes: [],
        materials: [],
        stage: null,
        log,
        ms: timeoutMs,
      };
    } finally {
      clearTimeout(timer);
      files.delete(id);
    }
  }

  return {
    startupLog,
    load(usdz, name = 'model.usdz', opts = {}) {
      // One file at a time: the loader's driver and texture registry are page globals.
      const next = queue.then(() => loadOne(usdz, name, opts));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await queue;
      await browser?.close().catch(() => undefined);
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * The text of a property in the exported (flattened) layer: `usdAttribute(report, '/Card/Front', 'points')`
 * returns everything after `points = ` up to the end of the line (or the closing bracket of a multi-line value),
 * or undefined. Without primPath the first match anywhere is returned.
 */
export function usdAttribute(report: Pick<UsdReport, 'layer'>, primPath: string | undefined, name: string): string | undefined {
  const text = primPath ? usdPrimBody(report.layer, primPath) : report.layer;
  if (text === undefined) return undefined;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(
    `^[ \\t]*(?:(?:uniform|custom|varying|prepend|append|delete|add|reorder)\\s+)*(?:[\\w\\[\\]:]+\\s+)?${escaped}(?:\\.(?:timeSamples|connect))?\\s*=\\s*`,
    'm',
  ).exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index + m[0].length);
  const open = rest[0];
  if (open === '[' || open === '{' || open === '(') {
    const close = open === '[' ? ']' : open === '{' ? '}' : ')';
    let depth = 0;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === open) depth++;
      else if (rest[i] === close && --depth === 0) return rest.slice(0, i + 1);
    }
  }
  return rest.split('\n')[0].trim();
}

/**
 * The text between the braces of the prim at `primPath` (e.g. '/Card/Materials/Picture') in USDA text, its
 * children's definitions included; undefined when there is no such prim.
 */
export function usdPrimBody(usda: string, primPath: string): string | undefined {
  let scope = usda;
  for (const name of primPath.split('/').filter(Boolean)) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`^[ \\t]*(?:def|over|class)(?:\\s+\\w+)?\\s+"${escaped}"`, 'm').exec(scope);
    if (!m) return undefined;
    const from = scope.indexOf('{', matchEndSkippingMetadata(scope, m.index + m[0].length));
    if (from < 0) return undefined;
    let depth = 0;
    let end = -1;
    for (let i = from; i < scope.length; i++) {
      if (scope[i] === '{') depth++;
      else if (scope[i] === '}' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return undefined;
    scope = scope.slice(from + 1, end);
  }
  return scope;
}

/** Skips a prim's `( ... )` metadata block so its braces (e.g. in dictionaries) are not taken for the body. */
function matchEndSkippingMetadata(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i])) i++;
  if (text[i] !== '(') return at;
  let depth = 0;
  for (; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return at;
}
