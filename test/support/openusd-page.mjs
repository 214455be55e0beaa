// Browser side of test/support/openusd.ts: bundled with esbuild at test time (never committed as output).
// Loads OpenUSD's WebAssembly build (three-usdz-loader's external/emHdBindings.*) once, then opens USDZ files
// through the loader's own Hydra -> three.js path and reports what OpenUSD printed, the flattened stage,
// the three.js bounds and the meshes/materials the render delegate received.
import * as THREE from 'three';
import { USDZLoader } from 'three-usdz-loader';

/** Everything printed on this page (OpenUSD's stdout/stderr, console, uncaught errors), in order. */
const log = [];
const capture = (source, args) => {
  log.push({
    source,
    text: args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === 'string' ? a : safeJson(a))).join(' '),
  });
};
function safeJson(v) {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    capture(`console.${level}`, args);
    original(...args);
  };
}
addEventListener('error', (e) => capture('pageerror', [e.error ?? e.message]));
addEventListener('unhandledrejection', (e) => capture('unhandledrejection', [e.reason ?? 'unhandled rejection']));

// The loader's default material reads window.envMap; undefined makes three.js warn on every page.
window.envMap = null;

let modulePromise;
let aborted = null;
function usdModule() {
  modulePromise ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/usd/emHdBindings.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('emHdBindings.js failed to load'));
    document.head.appendChild(script);
  }).then(async () => {
    if (!crossOriginIsolated) throw new Error('page is not cross-origin isolated (COOP/COEP): SharedArrayBuffer is unavailable');
    const module = await window.getUsdModule(
      {
        print: (text) => capture('usd.stdout', [text]),
        printErr: (text) => capture('usd.stderr', [text]),
        onAbort: (what) => {
          aborted = String(what);
          capture('usd.abort', [String(what)]);
        },
      },
      '/usd',
    );
    await module.ready;
    return module;
  });
  return modulePromise;
}

// A bound UsdPreviewSurface makes OpenUSD initialise its shader registry (Ndr) during warm-up.
const WARMUP_USDA = `#usda 1.0
(
    defaultPrim = "W"
)

def Xform "W"
{
    def Mesh "M" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        rel material:binding = </W/Mat>
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    }

    def Material "Mat"
    {
        token outputs:surface.connect = </W/Mat/S.outputs:surface>

        def Shader "S"
        {
            uniform token info:id = "UsdPreviewSurface"
            color3f inputs:diffuseColor = (1, 1, 1)
            token outputs:surface
        }
    }
}
`;

const round = (n) => Math.round(n * 1e9) / 1e9;
const vec = (v) => [round(v.x), round(v.y), round(v.z)];

function boundsOf(group) {
  group.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(group);
  return box.isEmpty() ? null : { min: vec(box.min), max: vec(box.max) };
}

function meshesOf(renderInterface) {
  const materialIds = new Map(Object.entries(renderInterface.materials).map(([id, m]) => [m._material, id]));
  return Object.entries(renderInterface.meshes).map(([path, hydraMesh]) => {
    const mesh = hydraMesh._mesh;
    const material = mesh.material;
    const textures = ['map', 'emissiveMap', 'alphaMap', 'normalMap', 'roughnessMap', 'metalnessMap', 'aoMap'].filter((k) => material?.[k]);
    return {
      path,
      vertices: mesh.geometry.getAttribute('position')?.count ?? 0,
      hasUv: !!mesh.geometry.getAttribute('uv'),
      // '' is Hydra's fallback material: the mesh has no (resolvable) binding.
      material: materialIds.get(material) || null,
      textures,
      transparent: !!material?.transparent,
    };
  });
}

/** Drop embind handles so repeated loads do not leak wasm memory. */
const release = (handle) => {
  try {
    handle?.delete?.();
  } catch {
    /* already deleted */
  }
};

/** UsdStage.Open on a copy of the file: throws (without aborting the module) when the stage does not open. */
function probeStage(module, name, bytes) {
  const probeName = `probe-${Math.random().toString(36).slice(2)}.${name.split('.').pop()}`;
  module.FS.createDataFile('/', probeName, new Uint8Array(bytes), true, true, true);
  let stage;
  try {
    stage = module.UsdStage.Open(probeName);
  } finally {
    module.FS.unlink(probeName);
  }
  if (!stage) throw new Error('OpenUSD could not open the stage');
  release(stage);
}

window.__openusd = {
  /** Loads the module and opens a small bound-material stage once, so plugin-registry chatter lands here, not in a file's log. */
  async ready() {
    const start = log.length;
    const module = await usdModule();
    const group = new THREE.Group();
    const warmup = new TextEncoder().encode(WARMUP_USDA);
    const instance = USDZLoader.prototype.loadUsdFileFromArrayBuffer.call(null, module, 'warmup.usda', warmup.buffer, group);
    instance.clear();
    release(instance.driver);
    return { crossOriginIsolated, log: log.slice(start) };
  },
  isAborted: () => aborted,
  /** url: where the page fetches the bytes (same origin); name: file name OpenUSD sees (extension matters). */
  async load(url, name, times, probeFirst = true) {
    const start = log.length;
    const t0 = performance.now();
    const report = {
      name,
      exception: null,
      layer: '',
      bounds: null,
      boundsAt: [],
      meshes: [],
      materials: [],
      textureErrors: [],
      stage: null,
      log: [],
      ms: 0,
    };
    let instance;
    let module;
    try {
      module = await usdModule();
      if (aborted) throw new Error(`OpenUSD aborted earlier: ${aborted}`);
      const bytes = await (await fetch(url)).arrayBuffer();
      // Open the stage on its own first: the loader's driver aborts the whole module on a stage that fails to open.
      if (probeFirst) probeStage(module, name, bytes);
      const group = new THREE.Group();
      instance = USDZLoader.prototype.loadUsdFileFromArrayBuffer.call(null, module, name, bytes, group);
      // Textures arrive asynchronously (blob URL -> THREE.TextureLoader): wait for all of them.
      const textures = Object.entries(instance.renderInterface.registry.textures);
      const settled = await Promise.allSettled(textures.map(([, p]) => p));
      settled.forEach((s, i) => {
        if (s.status === 'rejected') report.textureErrors.push(`${textures[i][0]}: ${s.reason?.message ?? s.reason}`);
      });
      const stage = instance.driver.GetStage();
      try {
        report.stage = {
          startTimeCode: stage.GetStartTimeCode(),
          endTimeCode: stage.GetEndTimeCode(),
          timeCodesPerSecond: stage.GetTimeCodesPerSecond(),
        };
        report.layer = stage.ExportToString();
      } finally {
        release(stage);
      }
      report.bounds = boundsOf(group);
      report.meshes = meshesOf(instance.renderInterface);
      report.materials = Object.keys(instance.renderInterface.materials).filter(Boolean);
      for (const time of times ?? []) {
        instance.driver.SetTime(time);
        instance.driver.Draw();
        const meshes = Object.fromEntries(Object.entries(instance.renderInterface.meshes).map(([path, m]) => [path, boundsOf(m._mesh)]));
        report.boundsAt.push({ time, bounds: boundsOf(group), meshes });
      }
    } catch (e) {
      report.exception =
        e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : typeof e === 'number' ? `wasm exception (pointer ${e})` : String(e);
    } finally {
      try {
        instance?.clear();
      } catch {
        /* file already gone */
      }
      release(instance?.driver);
      if (window.driver === instance?.driver) window.driver = undefined;
    }
    // Let late output (texture decode errors, worker messages) land before the log is cut.
    await new Promise((r) => setTimeout(r, 0));
    report.log = log.slice(start);
    report.ms = Math.round(performance.now() - t0);
    return report;
  },
};
