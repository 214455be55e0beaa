/**
 * The cost of an item's variant (`node dist/bench/variant-cost.js [runs]`, after a build): one variant (scene,
 * GLB writer, USDZ writer, framed poster; storage left out) built by `buildVariantModel` from a normalised
 * 12 MP photograph (texture 2048 px, kept whole), framed in classic oak with a 2 in mat and cropped to 50 x 70
 * cm; p50/p95 over `runs` (default 30), and each part. The floor, in the same run: the plain libraries making
 * the same outputs (sharp cutting the poster's pixels, adding the mat and a frame-coloured border and encoding
 * it; @gltf-transform writing a quad GLB with the same textures; JSZip storing the same USDZ entries). Then
 * "6 variants in one job": the variants stage with 6 specs, its files stored on the local disk, one variant
 * at a time and two at once. Results: bench/results/variant-cost.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Document, NodeIO } from '@gltf-transform/core';
import JSZip from 'jszip';
import sharp from 'sharp';
import type { StageContext } from '@app/pipeline';
import {
  buildVariantModel,
  colorHex,
  createVariantsStage,
  normaliseImage,
  parseVariantSpecs,
  uncroppedPictureModel,
  writeSceneGlb,
  writeSceneUsdz,
  type NormalisedImage,
  type VariantsStageOptions,
} from '@app/plugins';
import { LocalStorageAdapter } from '@app/storage';
import { MAX_TEXTURE } from './still-inputs';
import { addSensorNoise } from './bench-service';

const RUNS = Number(process.argv[2] ?? 30);
const JOB_RUNS = 10;
const PHOTO = join(__dirname, '../../test/fixtures/media/photo-street.jpg');

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const stats = (xs: number[]) => ({ p50: round(pct(xs, 0.5)), p95: round(pct(xs, 0.95)) });

/** The variant measured: 50 x 70 cm of a 4:3 photograph (a portrait crop), classic oak moulding, 2 in mat. */
const SPEC = {
  id: 'var_50x70oak',
  width_inches: 19.69,
  height_inches: 27.56,
  fit: 'crop',
  frame: { style: 'classic', color: 'oak' },
  mat: { width_inches: 2 },
};

/** Six variants a shop sells one picture in: sizes, aspects and frames. */
const SIX = [
  SPEC,
  { id: 'var_a3unframed', width_inches: 11.69, height_inches: 16.54, fit: 'crop' },
  { id: 'var_a2thinblack', width_inches: 16.54, height_inches: 23.39, fit: 'crop', frame: 'thin', mat: { width_inches: 1.5 } },
  { id: 'var_60x45canvas', width_inches: 23.62, height_inches: 17.72, frame: { style: 'canvas' } },
  { id: 'var_30x30walnut', width_inches: 11.81, height_inches: 11.81, fit: 'crop', frame: { style: 'float', color: 'walnut' } },
  { id: 'var_100x70gold', width_inches: 39.37, height_inches: 27.56, fit: 'stretch', frame: { style: 'classic', color: 'gold' } },
];

/** A 12 MP photograph (4000 x 3000) with sensor-like noise, saved as a camera would. */
async function photo12mp(): Promise<Buffer> {
  const W = 4000;
  const H = 3000;
  const base = await sharp(readFileSync(PHOTO)).resize(W, H, { fit: 'cover', kernel: 'lanczos3' }).raw().toBuffer();
  await addSensorNoise(base, W, H);
  return sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * The same outputs with the plain libraries: the poster (cut, mat, a frame-coloured border, JPEG q86), a
 * GLB of a quad with the picture and grain textures, and a stored zip of the same USDZ entries.
 */
async function floor(img: NormalisedImage, textures: { image: Buffer; mime: string }[], usdEntries: Map<string, Buffer>, uv: number[]) {
  const p = img.poster.pixels!;
  const region = {
    left: Math.round(uv[0] * p.width),
    top: Math.round(uv[1] * p.height),
    width: Math.round(uv[2] * p.width) - Math.round(uv[0] * p.width),
    height: Math.round(uv[3] * p.height) - Math.round(uv[1] * p.height),
  };
  const ppi = region.width / SPEC.width_inches;
  const mat = Math.round(2 * ppi);
  const frame = Math.round(1.5 * ppi);
  const matted = await sharp(p.data, { raw: { width: p.width, height: p.height, channels: p.channels } })
    .extract(region)
    .extend({ top: mat, bottom: mat, left: mat, right: mat, background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const poster = sharp(matted.data, { raw: { width: matted.info.width, height: matted.info.height, channels: p.channels } })
    .extend({ top: frame, bottom: frame, left: frame, right: frame, background: colorHex('oak') })
    .jpeg({ quality: 86 })
    .toBuffer();

  const doc = new Document();
  const buffer = doc.createBuffer();
  const mats = textures.map((t, i) =>
    doc.createMaterial(`m${i}`).setBaseColorTexture(doc.createTexture(`t${i}`).setImage(new Uint8Array(t.image)).setMimeType(t.mime)),
  );
  const mesh = doc.createMesh('quad');
  for (const m of mats) {
    const acc = (type: 'VEC3' | 'VEC2', a: Float32Array<ArrayBuffer>) => doc.createAccessor().setType(type).setArray(a).setBuffer(buffer);
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', acc('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0])))
        .setAttribute('TEXCOORD_0', acc('VEC2', new Float32Array([uv[0], uv[3], uv[2], uv[3], uv[2], uv[1], uv[0], uv[1]])))
        .setIndices(
          doc
            .createAccessor()
            .setType('SCALAR')
            .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
            .setBuffer(buffer),
        )
        .setMaterial(m),
    );
  }
  doc.createScene().addChild(doc.createNode().setMesh(mesh));
  const glb = new NodeIO().writeBinary(doc);

  const zip = new JSZip();
  for (const [name, data] of usdEntries) zip.file(name, data, { compression: 'STORE' });
  const usdz = zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
  await Promise.all([poster, glb, usdz]);
}

/** A stage context for calling the variants stage directly (what the runner gives it). */
function stageContext(
  input: Record<string, unknown>,
  img: NormalisedImage,
  options: VariantsStageOptions,
): StageContext<VariantsStageOptions> {
  return {
    job: { id: `job_bench_${Math.random().toString(36).slice(2)}`, kind: 'showcase.variants', ownerId: null, input, attempt: 1 },
    outputs: { normalise: img },
    options,
    progress: () => undefined,
    signal: new AbortController().signal,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    status: 'converting',
    checkpoints: { get: () => undefined, set: async () => undefined },
    io: (work) => work(),
  } as StageContext<VariantsStageOptions>;
}

async function main() {
  const source = await photo12mp();
  // An item with variants: the texture keeps the whole picture.
  const img = await normaliseImage(source, { maxTexturePx: MAX_TEXTURE, maxInputPixels: 100_000_000 });
  const [spec] = parseVariantSpecs({ variants: [SPEC] });
  const load0 = loadavg().map((v) => round(v, 2));

  // Warm-up: the grain texture and its raw pixels are made once per colour and cached.
  for (let i = 0; i < 3; i++) await buildVariantModel(spec, img);

  const total: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await buildVariantModel(spec, img);
    total.push(performance.now() - t);
  }

  // The parts, as buildVariantModel runs them: scene + framed poster, GLB, USDZ.
  const parts = { scene_and_poster: [] as number[], glb: [] as number[], usdz: [] as number[] };
  let sample: Awaited<ReturnType<typeof uncroppedPictureModel>> | undefined;
  let usdz: Buffer | undefined;
  let glb: Buffer | undefined;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    sample = await uncroppedPictureModel('variants', spec.input, img);
    parts.scene_and_poster.push(performance.now() - t);
    t = performance.now();
    glb = await writeSceneGlb(sample.scene);
    parts.glb.push(performance.now() - t);
    t = performance.now();
    usdz = writeSceneUsdz(sample.scene, 'card.usda');
    parts.usdz.push(performance.now() - t);
  }

  // The floor on the same texture, poster pixels and USDZ entries.
  const uv = sample!.scene.nodes[0].meshes.find((m) => m.name === 'Front')!.uvs!;
  const us = uv.filter((_, i) => i % 2 === 0);
  const vs = uv.filter((_, i) => i % 2 === 1);
  const rect = [Math.min(...us), Math.min(...vs), Math.max(...us), Math.max(...vs)];
  const zipped = await JSZip.loadAsync(usdz!);
  const entries = new Map<string, Buffer>();
  for (const name of Object.keys(zipped.files)) entries.set(name, await zipped.files[name].async('nodebuffer'));
  const textures = sample!.scene.textures.map((t) => ({ image: t.image, mime: t.mime }));
  for (let i = 0; i < 3; i++) await floor(img, textures, entries, rect);
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await floor(img, textures, entries, rect);
    floors.push(performance.now() - t);
  }

  // 6 variants in one job: the stage, files stored on the local disk; one at a time, then two at once.
  const dir = mkdtempSync(join(tmpdir(), 'variant-cost-'));
  const storage = new LocalStorageAdapter(join(dir, 'storage'), 'http://files.bench');
  const stage = createVariantsStage(storage);
  const job: Record<string, number[]> = { concurrency_1: [], concurrency_2: [] };
  try {
    for (let i = 0; i < JOB_RUNS; i++) {
      for (const c of [1, 2]) {
        const t = performance.now();
        const out = await stage.run(stageContext({ variants: SIX }, img, { concurrency: c }));
        job[`concurrency_${c}`].push(performance.now() - t);
        if (out.variants.length !== 6) throw new Error('the stage built fewer than 6 variants');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const result = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, loadavg_before: load0 },
    runs: RUNS,
    source: `12 MP JPEG (4000x3000), texture ${img.width}x${img.height} (${Math.round(img.texture.length / 1024)} KB), kept whole`,
    variant: '50 x 70 cm crop of the 4:3 picture, classic oak frame, 2 in mat',
    files_kb: {
      glb: Math.round(glb!.length / 1024),
      usdz: Math.round(usdz!.length / 1024),
      poster: Math.round(sample!.poster.image.length / 1024),
      poster_size: `${sample!.poster.width}x${sample!.poster.height}`,
    },
    per_variant_ms: stats(total),
    parts_ms: {
      scene_and_framed_poster: stats(parts.scene_and_poster),
      glb: stats(parts.glb),
      usdz: stats(parts.usdz),
    },
    floor_ms: stats(floors),
    ratio_p50: round(pct(total, 0.5) / pct(floors, 0.5), 2),
    target_ms: 60,
    six_variants_one_job_ms: {
      note: 'variants stage: 6 specs (sizes, crops, thin/classic/float/canvas frames), files stored on the local disk',
      concurrency_1: { p50: round(pct(job.concurrency_1, 0.5)), max: round(Math.max(...job.concurrency_1)) },
      concurrency_2: { p50: round(pct(job.concurrency_2, 0.5)), max: round(Math.max(...job.concurrency_2)) },
    },
  };
  mkdirSync(join(__dirname, '../../bench/results'), { recursive: true });
  writeFileSync(join(__dirname, '../../bench/results/variant-cost.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
