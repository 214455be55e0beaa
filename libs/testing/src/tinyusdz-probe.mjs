// Parses a USDZ with the tinyusdz WASM build and prints a JSON summary.
// tinyusdz.js is an ES module without "type": "module", and guards against Node: the caller copies it to
// a .mjs file (argv[2]) and we bypass the guard as DESIGN §5 describes.
import { readFileSync } from 'node:fs';

const [modulePath, wasmPath, usdzPath] = process.argv.slice(2);
process.type = 'renderer';
globalThis.WorkerGlobalScope = class {};
const { default: init } = await import(modulePath);
const native = await init({ wasmBinary: readFileSync(wasmPath), print: () => {}, printErr: () => {} });
const usd = new native.TinyUSDZLoaderNative();
const ok = usd.loadFromBinary(new Uint8Array(readFileSync(usdzPath)), 'model.usdz');
const out = { ok, error: usd.error(), meshes: [], materials: [], images: [], root: null };
if (ok) {
  const arr = (o) =>
    Object.keys(o ?? {})
      .sort((a, b) => a - b)
      .map((k) => o[k]);
  for (let i = 0; i < usd.numMeshes(); i++) {
    const m = usd.getMesh(i);
    out.meshes.push({ name: m.primName, path: m.absPath, points: arr(m.points), materialId: m.materialId });
  }
  for (let i = 0; ; i++) {
    const mat = usd.getMaterial(i);
    if (!mat || mat.diffuseColor === undefined) break;
    out.materials.push({
      diffuseColor: mat.diffuseColor,
      diffuseColorTextureId: mat.diffuseColorTextureId ?? -1,
      emissiveColorTextureId: mat.emissiveColorTextureId ?? -1,
    });
    if (i > 20) break;
  }
  for (let i = 0; ; i++) {
    const img = usd.getImage(i);
    if (!img || img.uri === undefined) break;
    out.images.push({ uri: img.uri });
    if (i > 20) break;
  }
  const root = usd.getDefaultRootNode();
  out.root = { name: root.primName, children: (root.children ?? []).map((c) => c.primName) };
}
process.stdout.write(JSON.stringify(out));
