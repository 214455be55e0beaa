/**
 * The cost of a gallery wall (`node dist/bench/gallery-wall.js [runs]`, after a build): the `gallery-wall` stage
 * end to end (each picture's texture read out of its stored GLB, layout, model, GLB + USDZ writers, poster,
 * the three files stored on the local disk) for 3, 6 and 12 framed pictures of assorted sizes and frames, each
 * picture's GLB made as a showcase item's is (a normalised photograph, texture 2048 px, the still scene
 * written by `writeSceneGlb`); p50/p95 over `runs` for 12 pictures (default 10; twice as many for 6, three
 * times for 3), and each part (read textures, buildGalleryWall, store). The floor, in the same run: the plain
 * libraries making the same outputs (sharp decoding each picture's texture once into the same atlas cell,
 * encoding the same atlases, composing and encoding the same-size poster from the same pixels; @gltf-transform
 * writing a GLB of the same textures, materials and triangles; JSZip storing the same USDZ entries; fs reading
 * the GLBs and writing the three files). Stage, parts and floor are interleaved run by run. Then a visitor's
 * wall of 6 pictures through the running service (embedded): `GET /showcase/{id}/together/model.glb` built on
 * the first request (each set of 6 of 7 pictures is a new wall; an order is not: the set is the key), then
 * served from storage.
 * Results: bench/results/gallery-wall.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Document, NodeIO } from '@gltf-transform/core';
import JSZip from 'jszip';
import sharp from 'sharp';
import type { StageContext } from '@app/pipeline';
import {
  ATLAS_JPEG,
  buildGalleryWall,
  colorHex,
  createGalleryWallStage,
  type GalleryWall,
  loadWallPictures,
  normaliseImage,
  storeModelFiles,
  uncroppedPictureModel,
  type WallBuildInput,
  type WallPictureInput,
  type WallPictureRef,
  writeSceneGlb,
  writeSceneUsdz,
} from '@app/plugins';
import { LocalStorageAdapter } from '@app/storage';
import { callJson, median, round, servePictures, startApi, waitShowcaseReady, addSensorNoise } from './bench-service';
import { MAX_TEXTURE } from './still-inputs';

const RUNS = Number(process.argv[2] ?? 10);
const SERVICE_BUILDS = 6;
const SERVICE_CACHED = 20;
const OWNER = 'owner-key-for-the-gallery-wall-bench';
const MEDIA = join(__dirname, '../../test/fixtures/media');
const SOURCES = ['photo-street.jpg', 'photo-bubbles.jpg'];
const DEFAULT_WALL_COLOR = '#ebe8e2';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const stats = (xs: number[]) => ({ p50: round(pct(xs, 0.5)), p95: round(pct(xs, 0.95)) });
const mb = (n: number) => round(n / 1024 / 1024, 2);

/**
 * Twelve pictures a gallery hangs together: the source's aspect (w:h, of one of the two fixture photographs)
 * and the wall spec (size, fit, frame, mat). Walls of n pictures take the first n.
 */
const PICTURES: { source: number; aspect: [number, number]; spec: Record<string, unknown> }[] = [
  {
    source: 0,
    aspect: [4, 3],
    spec: { width_inches: 24, height_inches: 18, frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } },
  },
  { source: 1, aspect: [3, 4], spec: { width_inches: 16, height_inches: 22, fit: 'crop', frame: 'thin' } },
  { source: 0, aspect: [1, 1], spec: { width_inches: 20, height_inches: 20, frame: { style: 'float', color: 'black' } } },
  { source: 1, aspect: [3, 2], spec: { width_inches: 30, height_inches: 20, frame: { style: 'canvas' } } },
  { source: 0, aspect: [2, 3], spec: { width_inches: 12, height_inches: 18 } },
  {
    source: 1,
    aspect: [4, 5],
    spec: { width_inches: 16, height_inches: 20, frame: { style: 'classic', color: 'walnut' }, mat: { width_inches: 1.5 } },
  },
  { source: 0, aspect: [16, 9], spec: { width_inches: 32, height_inches: 18, frame: { style: 'classic', color: 'gold' } } },
  {
    source: 1,
    aspect: [1, 1],
    spec: { width_inches: 14, height_inches: 14, frame: { style: 'thin', color: 'white' }, mat: { width_inches: 2 } },
  },
  { source: 0, aspect: [3, 4], spec: { width_inches: 18, height_inches: 24, fit: 'crop', frame: { style: 'float', color: 'walnut' } } },
  { source: 1, aspect: [4, 3], spec: { width_inches: 20, height_inches: 16, fit: 'crop', frame: { style: 'thin', color: 'oak' } } },
  { source: 0, aspect: [5, 4], spec: { width_inches: 10, height_inches: 8, frame: 'thin', mat: { width_inches: 1.5 } } },
  { source: 1, aspect: [2, 3], spec: { width_inches: 24, height_inches: 36, frame: { style: 'canvas' } } },
];

/** Walls measured: pictures, arrangement, runs. */
const WALLS: { n: number; arrangement: WallBuildInput['arrangement']; runs: number }[] = [
  { n: 3, arrangement: 'row', runs: 3 * RUNS },
  { n: 6, arrangement: 'grid', runs: 2 * RUNS },
  { n: 12, arrangement: 'salon', runs: RUNS },
];

/** A photograph (long side 3000 px) cut from a fixture at `aspect`, with sensor-like noise, saved as a camera would. */
async function photo(source: number, [aw, ah]: [number, number]): Promise<Buffer> {
  const long = 3000;
  const W = aw >= ah ? long : Math.round((long * aw) / ah);
  const H = aw >= ah ? Math.round((long * ah) / aw) : long;
  const base = await sharp(readFileSync(join(MEDIA, SOURCES[source])))
    .resize(W, H, { fit: 'cover', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  await addSensorNoise(base, W, H);
  return sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A stage context for calling the gallery-wall stage directly (what the runner gives it). */
function stageContext(input: Record<string, unknown>): StageContext {
  return {
    job: { id: `job_bench_${Math.random().toString(36).slice(2)}`, kind: 'gallery-wall', ownerId: null, input, attempt: 1 },
    outputs: {},
    options: {},
    progress: () => undefined,
    signal: new AbortController().signal,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    status: 'converting',
    checkpoints: { get: () => undefined, set: async () => undefined },
    io: (work) => work(),
  } as StageContext;
}

interface FloorPlan {
  glbPaths: string[];
  /** Per picture: the texture region shown, the atlas cell it goes to (absent: its texture embedded as is), the poster box. */
  pictures: {
    region: { left: number; top: number; width: number; height: number };
    cell?: { atlas: number; left: number; top: number; width: number; height: number };
    poster: { left: number; top: number; width: number; height: number; mat: number; matColor: string; frame: number; frameColor: string };
  }[];
  atlases: { width: number; height: number }[];
  poster: { width: number; height: number };
  usdEntries: Map<string, Buffer>;
}

/**
 * What the floor makes, taken from one wall built by the service: the same regions, atlas cells and sizes,
 * poster size and boxes, and USDZ entries.
 */
async function floorPlan(wall: GalleryWall, pictures: WallPictureInput[], glbPaths: string[]): Promise<FloorPlan> {
  const { model } = wall;
  const scene = model.scene;
  const atlasIds = model.textures.reencoded
    ? [...new Set(scene.materials.filter((m) => m.texture && /^(atlas|picture)_/.test(m.texture)).map((m) => m.texture!))]
    : [];
  // The poster's scale, as the service computes it.
  const outers = model.pictures.map((p) => p.outer_dimensions);
  const pos = model.pictures.map((p) => p.position);
  const x0 = Math.min(...pos.map((p, i) => p.x_inches - outers[i].width_inches / 2));
  const x1 = Math.max(...pos.map((p, i) => p.x_inches + outers[i].width_inches / 2));
  const y0 = Math.min(...pos.map((p, i) => p.y_inches - outers[i].height_inches / 2));
  const y1 = Math.max(...pos.map((p, i) => p.y_inches + outers[i].height_inches / 2));
  const margin = Math.max(6, 0.08 * Math.max(x1 - x0, y1 - y0));
  const ppi = Math.min(2048 / (x1 - x0 + 2 * margin), 2048 / (y1 - y0 + 2 * margin));
  const plan = pictures.map((p, i) => {
    const r = model.pictures[i];
    const [u0, v0, u1, v1] = r.crop ?? [0, 0, 1, 1];
    const W = p.texture.width;
    const H = p.texture.height;
    const left = Math.round(u0 * W);
    const top = Math.round(v0 * H);
    const region = { left, top, width: Math.round(u1 * W) - left, height: Math.round(v1 * H) - top };
    let cell: FloorPlan['pictures'][number]['cell'];
    if (atlasIds.length) {
      const front = scene.nodes.find((n) => n.name === `Item_${i}`)!.meshes.find((m) => m.name === 'Front')!;
      const t = scene.textures.find((x) => x.id === scene.materials.find((m) => m.id === front.material)!.texture)!;
      const us = front.uvs!.filter((_, k) => k % 2 === 0);
      const vs = front.uvs!.filter((_, k) => k % 2 === 1);
      const cl = Math.round(Math.min(...us) * t.width!);
      const ct = Math.round(Math.min(...vs) * t.height!);
      cell = {
        atlas: atlasIds.indexOf(t.id),
        left: cl,
        top: ct,
        width: Math.round(Math.max(...us) * t.width!) - cl,
        height: Math.round(Math.max(...vs) * t.height!) - ct,
      };
    }
    const { frame, mat } = r.presentation;
    const framed = frame.style === 'thin' || frame.style === 'classic' || frame.style === 'float';
    const width = Math.max(1, Math.round(r.dimensions.width_inches * ppi));
    const height = Math.max(1, Math.round(r.dimensions.height_inches * ppi));
    const matPx = framed && mat ? Math.round(mat.width_inches * ppi) : 0;
    const framePx = framed ? Math.round(frame.width_inches * ppi) : 0;
    const cx = (pos[i].x_inches - x0 + margin) * ppi;
    const cy = (y1 + margin - pos[i].y_inches) * ppi;
    return {
      region,
      ...(cell ? { cell } : {}),
      poster: {
        left: Math.max(0, Math.round(cx - width / 2) - matPx - framePx),
        top: Math.max(0, Math.round(cy - height / 2) - matPx - framePx),
        width,
        height,
        mat: matPx,
        matColor: colorHex(mat?.color ?? 'white'),
        frame: framePx,
        frameColor: colorHex(frame.color),
      },
    };
  });
  const zipped = await JSZip.loadAsync(wall.bodies.usdz);
  const usdEntries = new Map<string, Buffer>();
  for (const name of Object.keys(zipped.files)) usdEntries.set(name, await zipped.files[name].async('nodebuffer'));
  return {
    glbPaths,
    pictures: plan,
    atlases: atlasIds.map((id) => {
      const t = scene.textures.find((x) => x.id === id)!;
      return { width: t.width!, height: t.height! };
    }),
    poster: { width: model.poster.width, height: model.poster.height },
    usdEntries,
  };
}

/** The texture of a GLB we wrote (its `Picture` material's image), as the floor reads it: plain JSON parsing. */
function glbTexture(glb: Buffer): Buffer {
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  const bin = glb.subarray(20 + jsonLength + 8);
  const material = json.materials.findIndex((m: { name?: string }) => m.name === 'Picture');
  const texture = json.materials[material].pbrMetallicRoughness.baseColorTexture.index;
  const view = json.bufferViews[json.images[json.textures[texture].source].bufferView];
  return bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
}

/**
 * The same outputs with the plain libraries: each GLB read and its texture decoded once (one sharp pipeline
 * cutting its shown region and resizing it to its atlas cell, or to its poster box when the textures are
 * embedded as they are); the poster box (mat and frame-coloured borders) made from the cell's pixels; the
 * atlases and the poster composed and encoded; a GLB of the same textures, materials and geometry; a stored
 * zip of the same USDZ entries; the three files written. Returns the parts' ms.
 */
async function floor(plan: FloorPlan, wall: GalleryWall, outDir: string) {
  const t0 = performance.now();
  const textures = await Promise.all(plan.glbPaths.map(async (path) => glbTexture(await readFile(path))));
  const tRead = performance.now();
  // Each texture decoded once: into its atlas cell's pixels when there are atlases.
  const cells = await Promise.all(
    plan.pictures.map(async (p, i) =>
      p.cell
        ? {
            atlas: p.cell.atlas,
            input: await sharp(textures[i]).extract(p.region).resize(p.cell.width, p.cell.height, { fit: 'fill' }).raw().toBuffer(),
            raw: { width: p.cell.width, height: p.cell.height, channels: 3 as const },
            left: p.cell.left,
            top: p.cell.top,
          }
        : undefined,
    ),
  );
  const atlasTextures = plan.atlases.length
    ? Promise.all(
        plan.atlases.map((a, k) =>
          sharp({ create: { width: a.width, height: a.height, channels: 3, background: '#000' } })
            .composite(cells.filter((c) => c?.atlas === k).map((c) => ({ input: c!.input, raw: c!.raw, left: c!.left, top: c!.top })))
            .jpeg(ATLAS_JPEG)
            .toBuffer(),
        ),
      )
    : Promise.resolve(wall.model.scene.textures.filter((t) => /^picture_/.test(t.id)).map((t) => t.image));
  const poster = (async () => {
    const boxes = await Promise.all(
      plan.pictures.map(async ({ poster: b, region }, i) => {
        const c = cells[i];
        const { data, info } = await (c ? sharp(c.input, { raw: c.raw }) : sharp(textures[i]).extract(region))
          .resize(b.width, b.height, { fit: 'fill' })
          .extend({ top: b.mat, bottom: b.mat, left: b.mat, right: b.mat, background: b.matColor })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const input = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
          .extend({ top: b.frame, bottom: b.frame, left: b.frame, right: b.frame, background: b.frameColor })
          .raw()
          .toBuffer({ resolveWithObject: true });
        return {
          input: input.data,
          raw: { width: input.info.width, height: input.info.height, channels: 3 as const },
          left: Math.min(b.left, plan.poster.width - input.info.width),
          top: Math.min(b.top, plan.poster.height - input.info.height),
        };
      }),
    );
    return sharp({ create: { width: plan.poster.width, height: plan.poster.height, channels: 3, background: DEFAULT_WALL_COLOR } })
      .composite(boxes)
      .jpeg({ quality: 85, chromaSubsampling: '4:2:0' })
      .toBuffer();
  })();
  const glb = (async () => {
    const images = await atlasTextures;
    const scene = wall.model.scene;
    const doc = new Document();
    const buffer = doc.createBuffer();
    let k = 0;
    const textures = new Map(
      scene.textures.map((t) => {
        const image = /^(atlas|picture)_/.test(t.id) ? images[k++] : t.image;
        return [t.id, doc.createTexture(t.id).setImage(new Uint8Array(image)).setMimeType(t.mime)];
      }),
    );
    const materials = new Map(
      scene.materials.map((m) => {
        const mat = doc
          .createMaterial(m.id)
          .setBaseColorFactor([...m.color, 1])
          .setRoughnessFactor(m.roughness)
          .setMetallicFactor(m.metallic);
        if (m.texture) mat.setBaseColorTexture(textures.get(m.texture)!);
        return [m.id, mat];
      }),
    );
    const root = doc.createScene();
    for (const n of scene.nodes) {
      const mesh = doc.createMesh(n.name);
      for (const m of n.meshes) {
        const acc = (type: 'VEC3' | 'VEC2', a: number[]) =>
          doc.createAccessor().setType(type).setArray(new Float32Array(a)).setBuffer(buffer);
        const prim = doc
          .createPrimitive()
          .setAttribute('POSITION', acc('VEC3', m.positions))
          .setAttribute('NORMAL', acc('VEC3', m.normals))
          .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(m.indices)).setBuffer(buffer))
          .setMaterial(materials.get(m.material)!);
        if (m.uvs) prim.setAttribute('TEXCOORD_0', acc('VEC2', m.uvs));
        mesh.addPrimitive(prim);
      }
      root.addChild(
        doc
          .createNode(n.name)
          .setMesh(mesh)
          .setTranslation(n.translation ?? [0, 0, 0]),
      );
    }
    return new NodeIO().writeBinary(doc);
  })();
  const usdz = (async () => {
    const zip = new JSZip();
    for (const [name, data] of plan.usdEntries) zip.file(name, data, { compression: 'STORE' });
    return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
  })();
  const [g, u, p] = await Promise.all([glb, usdz, poster]);
  const tBuilt = performance.now();
  await Promise.all([
    writeFile(join(outDir, 'model.glb'), g),
    writeFile(join(outDir, 'model.usdz'), u),
    writeFile(join(outDir, 'poster.jpg'), p),
  ]);
  const tEnd = performance.now();
  return { total: tEnd - t0, read: tRead - t0, build: tBuilt - tRead, store: tEnd - tBuilt };
}

/** The stage, its parts and the floor for a wall of the first `n` pictures. */
async function measureWall(
  dir: string,
  storage: LocalStorageAdapter,
  refs: WallPictureRef[],
  arrangement: WallBuildInput['arrangement'],
  runs: number,
) {
  const stage = createGalleryWallStage(storage);
  const input = { showcase_id: 1, wall: { pictures: refs, arrangement } satisfies WallBuildInput };
  let result = await stage.run(stageContext(input));
  // The floor's plan (regions, atlas cells, poster boxes, USDZ entries) from one wall the service built.
  let pictures = await loadWallPictures(storage, refs);
  let wall = await buildGalleryWall(pictures, { arrangement });
  const plan = await floorPlan(
    wall,
    pictures,
    refs.map((r) => join(dir, 'storage', r.glb_key)),
  );
  const out = mkdtempSync(join(dir, 'floor-'));
  for (let i = 0; i < 2; i++) {
    await stage.run(stageContext(input));
    await floor(plan, wall, out);
  }

  // Each run: the stage; its parts as it runs them (the writers timed again on the built model); the floor.
  // Interleaved, so a change in the machine's load falls on all three alike.
  const total: number[] = [];
  const parts = {
    read_textures: [] as number[],
    build_gallery_wall: [] as number[],
    store: [] as number[],
    glb: [] as number[],
    usdz: [] as number[],
  };
  const floors: Awaited<ReturnType<typeof floor>>[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    result = await stage.run(stageContext(input));
    total.push(performance.now() - t);

    t = performance.now();
    pictures = await loadWallPictures(storage, refs);
    parts.read_textures.push(performance.now() - t);
    t = performance.now();
    wall = await buildGalleryWall(pictures, { arrangement });
    parts.build_gallery_wall.push(performance.now() - t);
    t = performance.now();
    await storeModelFiles(storage, 'gallery-wall', `job_parts_${i}`, wall.bodies, () => undefined);
    parts.store.push(performance.now() - t);
    t = performance.now();
    await writeSceneGlb(wall.model.scene);
    parts.glb.push(performance.now() - t);
    t = performance.now();
    writeSceneUsdz(wall.model.scene, 'wall.usda');
    parts.usdz.push(performance.now() - t);

    floors.push(await floor(plan, wall, out));
  }

  const w = result.wall;
  const f = (k: keyof (typeof floors)[number]) => stats(floors.map((x) => x[k]));
  const glbBytes = result.files.glb.bytes;
  return {
    pictures: refs.length,
    arrangement,
    runs,
    outer_inches: `${result.outer_dimensions.width_inches} x ${result.outer_dimensions.height_inches}`,
    textures: w.textures,
    materials: w.materials,
    decoded_texture_mb: mb(w.decoded_texture_bytes),
    files_kb: {
      glb: Math.round(glbBytes / 1024),
      usdz: Math.round(result.files.usdz.bytes / 1024),
      poster: Math.round(result.files.poster.bytes / 1024),
      poster_size: `${wall.model.poster.width}x${wall.model.poster.height}`,
      input_textures: Math.round(pictures.reduce((s, p) => s + p.texture.image.length, 0) / 1024),
    },
    stage_ms: stats(total),
    parts_ms: {
      read_textures: stats(parts.read_textures),
      build_gallery_wall: stats(parts.build_gallery_wall),
      of_which_glb_writer: stats(parts.glb),
      of_which_usdz_writer: stats(parts.usdz),
      store: stats(parts.store),
    },
    floor_ms: f('total'),
    floor_parts_ms: { read_textures: f('read'), pixels_glb_usdz: f('build'), write: f('store') },
    ratio_p50: round(
      pct(total, 0.5) /
        pct(
          floors.map((x) => x.total),
          0.5,
        ),
      2,
    ),
  };
}

/** A visitor's wall of 6 pictures through the running service: first request (the build) vs cached requests. */
async function visitorWall(sources: Buffer[]) {
  const { server: media, base: mediaBase } = await servePictures(sources);
  const dataDir = mkdtempSync(join(tmpdir(), 'gallery-wall-bench-'));
  const { proc, base } = await startApi(OWNER, {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_KEY: '1000000',
    WALL_VISITOR_BUILDS_PER_MINUTE: '10000',
  });
  try {
    const created = await callJson(base, 'POST', '/api/v2/showcases', OWNER, {
      items: PICTURES.slice(0, 7).map((p, i) => ({ image_url: `${mediaBase}/p${i}.jpg`, title: `Picture ${i}`, ...p.spec })),
    });
    const showcase = await waitShowcaseReady(base, OWNER, created.id, 300_000);
    const site = new URL(showcase.url).pathname.split('/').pop();
    const ids: number[] = showcase.items.map((i: any) => i.id);
    // Each set is another wall (the set is the cache key, not the order): 6 of the 7, leaving out picture k.
    const url = (k: number) => `${base}/showcase/${site}/together/model.glb?items=${ids.filter((_, i) => i !== k).join(',')}`;
    const get = async (k: number) => {
      const t = performance.now();
      const r = await fetch(url(k));
      const body = Buffer.from(await r.arrayBuffer());
      if (!r.ok) throw new Error(`GET together/model.glb: ${r.status} ${body.toString('utf8').slice(0, 200)}`);
      return { ms: performance.now() - t, bytes: body.length };
    };
    const builds: number[] = [];
    let bytes = 0;
    for (let k = 0; k < SERVICE_BUILDS; k++) {
      const r = await get(k);
      builds.push(r.ms);
      bytes = r.bytes;
    }
    const cached: number[] = [];
    for (let i = 0; i < SERVICE_CACHED; i++) cached.push((await get(i % SERVICE_BUILDS)).ms);
    return {
      note: `embedded service, 6 pictures (6 of the first seven above, converted from ${SOURCES.join(' / ')} photographs), default arrangement (grid); each set (leaving out another of the seven) a new wall`,
      glb_kb: Math.round(bytes / 1024),
      first_request_build_ms: { p50: round(median(builds)), max: round(Math.max(...builds)), all: builds.map((v) => round(v)) },
      cached_request_ms: { p50: round(median(cached)), max: round(Math.max(...cached)) },
    };
  } finally {
    proc.kill('SIGKILL');
    media.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = performance.now();
  const load0 = loadavg().map((v) => round(v, 2));
  const dir = mkdtempSync(join(tmpdir(), 'gallery-wall-'));
  const storage = new LocalStorageAdapter(join(dir, 'storage'), 'http://files.bench');
  const sources: Buffer[] = [];
  const refs: WallPictureRef[] = [];
  let texturePx = '';
  try {
    // Each picture's stored GLB, made as a showcase item's is: normalised, its still scene written.
    for (const [i, p] of PICTURES.entries()) {
      const source = await photo(p.source, p.aspect);
      sources.push(source);
      const img = await normaliseImage(source, { maxTexturePx: MAX_TEXTURE, maxInputPixels: 100_000_000 });
      const model = await uncroppedPictureModel('scene', p.spec, img);
      const key = `models/job_item_${i}/model.glb`;
      await storage.put(key, await writeSceneGlb(model.scene), 'model/gltf-binary');
      refs.push({ glb_key: key, spec: p.spec, item_id: i + 1 });
      if (i < 2) texturePx += `${i ? ', ' : ''}${img.width}x${img.height} (${Math.round(img.texture.length / 1024)} KB)`;
    }
    const walls = [];
    for (const w of WALLS) walls.push(await measureWall(dir, storage, refs.slice(0, w.n), w.arrangement, w.runs));
    const visitor = await visitorWall(sources.slice(0, 7));

    const result = {
      when: new Date().toISOString(),
      machine: { cpus: cpus().length, loadavg_before: load0, loadavg_after: loadavg().map((v) => round(v, 2)) },
      sources: `photographs (long side 3000 px, 8 aspects from 16:9 to 2:3) of two fixtures with sensor-like noise; each normalised (texture 2048 px long side, e.g. ${texturePx}) and its still scene written as a showcase item's GLB, stored on the local disk`,
      pictures: PICTURES.map((p) => p.spec),
      walls,
      visitor_wall: visitor,
      bench_s: round((performance.now() - started) / 1000),
    };
    mkdirSync(join(__dirname, '../../bench/results'), { recursive: true });
    writeFileSync(join(__dirname, '../../bench/results/gallery-wall.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
