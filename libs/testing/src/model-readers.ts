import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NodeIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import JSZip from 'jszip';
import sharp from 'sharp';
import { TEST_NODE_FLAGS } from './paths';

const ROOT = resolve(__dirname, '../../..');

export async function readGlb(glb: Buffer): Promise<Document> {
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(new Uint8Array(glb));
}

/** A picture of a gallery wall's GLB, in inches: its node's translation, and the centre and size of its Picture faces. */
export interface GlbWallPicture {
  translation: number[];
  centre: [number, number];
  size: [number, number];
}

/** Each `Item_<i>` node of a gallery wall's GLB by i: where its picture (the primitives on a Picture material) hangs. */
export async function glbWallPictures(glb: Buffer): Promise<{ doc: Document; pictures: Map<number, GlbWallPicture> }> {
  const IN = 0.0254;
  const doc = await readGlb(glb);
  const pictures = new Map<number, GlbWallPicture>();
  for (const node of doc.getRoot().listNodes()) {
    const m = /^Item_(\d+)$/.exec(node.getName());
    if (!m) continue;
    const t = node.getTranslation();
    const min = [Infinity, Infinity];
    const max = [-Infinity, -Infinity];
    for (const p of node.getMesh()!.listPrimitives()) {
      if (!/^Picture/.test(p.getMaterial()?.getName() ?? '')) continue;
      const a = p.getAttribute('POSITION')!;
      const [lo, hi] = [a.getMin([]), a.getMax([])];
      for (const k of [0, 1]) [min[k], max[k]] = [Math.min(min[k], lo[k] + t[k]), Math.max(max[k], hi[k] + t[k])];
    }
    pictures.set(Number(m[1]), {
      translation: t.map((v) => v / IN),
      centre: [(min[0] + max[0]) / 2 / IN, (min[1] + max[1]) / 2 / IN],
      size: [(max[0] - min[0]) / IN, (max[1] - min[1]) / IN],
    });
  }
  return { doc, pictures };
}

/** Bounds of every mesh's POSITION accessor (at rest, node transforms ignored: our meshes sit at their place). */
export function glbBounds(doc: Document): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) {
      const a = prim.getAttribute('POSITION')!;
      a.getMin([]).forEach((v, i) => (min[i] = Math.min(min[i], v)));
      a.getMax([]).forEach((v, i) => (max[i] = Math.max(max[i], v)));
    }
  return { min, max };
}

export async function validateGlb(glb: Buffer): Promise<{ numErrors: number; numWarnings: number; messages: unknown[] }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const validator = require('gltf-validator');
  const report = await validator.validateBytes(new Uint8Array(glb), { maxIssues: 100 });
  return { numErrors: report.issues.numErrors, numWarnings: report.issues.numWarnings, messages: report.issues.messages };
}

export interface UsdzEntry {
  name: string;
  localHeaderOffset: number;
  dataOffset: number;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
}

/** Walks the local headers byte by byte. */
export function zipLocalEntries(buf: Buffer): UsdzEntry[] {
  const out: UsdzEntry[] = [];
  let p = 0;
  while (buf.readUInt32LE(p) === 0x04034b50) {
    const flags = buf.readUInt16LE(p + 6);
    const method = buf.readUInt16LE(p + 8);
    const crc = buf.readUInt32LE(p + 14);
    const compressedSize = buf.readUInt32LE(p + 18);
    const size = buf.readUInt32LE(p + 22);
    const nameLen = buf.readUInt16LE(p + 26);
    const extraLen = buf.readUInt16LE(p + 28);
    const name = buf.subarray(p + 30, p + 30 + nameLen).toString('utf8');
    const dataOffset = p + 30 + nameLen + extraLen;
    out.push({ name, localHeaderOffset: p, dataOffset, method, flags, crc, compressedSize, size });
    p = dataOffset + compressedSize;
  }
  return out;
}

export async function readUsdz(usdz: Buffer): Promise<{ files: Map<string, Buffer>; usda: string }> {
  const zip = await JSZip.loadAsync(usdz);
  const files = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.files[name].async('nodebuffer'));
  const first = zipLocalEntries(usdz)[0].name;
  return { files, usda: files.get(first)!.toString('utf8') };
}

/** Points and st of a mesh in the USDA text. */
export function usdaMesh(usda: string, name: string): { points: number[][]; st?: number[][] } {
  const at = usda.indexOf(`def Mesh "${name}"`);
  const indent = at >= 0 ? /[ ]*$/.exec(usda.slice(0, at))![0] : '';
  const block = at >= 0 ? usda.slice(at, usda.indexOf(`\n${indent}}`, at) + indent.length + 2) : undefined;
  if (!block) throw new Error(`mesh ${name} not in usda`);
  const tuples = (s: string) => [...s.matchAll(/\(([^()]+)\)/g)].map((m) => m[1].split(',').map(Number));
  const points = tuples(/point3f\[\] points = \[(.*)\]/.exec(block)![1]);
  const stLine = /texCoord2f\[\] primvars:st = \[(.*)\]/.exec(block);
  return { points, st: stLine ? tuples(stLine[1]) : undefined };
}

export interface TinyUsdzSummary {
  ok: boolean;
  error: string;
  meshes: { name: string; path: string; points: number[]; materialId: number }[];
  materials: { diffuseColor: number[]; diffuseColorTextureId: number; emissiveColorTextureId: number }[];
  images: { uri: string }[];
  root: { name: string; children: string[] } | null;
}

/** Parses a USDZ with tinyusdz (WASM) in a child Node process. */
export function tinyusdzParse(usdz: Buffer): TinyUsdzSummary {
  const dir = mkdtempSync(join(tmpdir(), 'tinyusdz-'));
  const mod = join(dir, 'tinyusdz.mjs');
  copyFileSync(join(ROOT, 'node_modules/tinyusdz/tinyusdz.js'), mod);
  const file = join(dir, 'model.usdz');
  writeFileSync(file, usdz);
  const out = execFileSync(
    process.execPath,
    [...TEST_NODE_FLAGS, join(ROOT, 'libs/testing/src/tinyusdz-probe.mjs'), mod, join(ROOT, 'node_modules/tinyusdz/tinyusdz.wasm'), file],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(out) as TinyUsdzSummary;
}

/** RGB of the pixel at normalised image coordinates (x right, y down). */
export async function samplePixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = Math.min(info.width - 1, Math.max(0, Math.floor(x * info.width)));
  const py = Math.min(info.height - 1, Math.max(0, Math.floor(y * info.height)));
  const i = (py * info.width + px) * info.channels;
  return [data[i], data[i + 1], data[i + 2]];
}

const METERS_PER_INCH = 0.0254;

/**
 * The picture in a GLB (the primitives with material `Picture`: the front, and for a canvas its wrapped edges,
 * which lie within the front's outline): its width and height in inches and how many primitives carry it.
 */
export async function glbPicture(glb: Buffer): Promise<{ inches: [number, number]; primitives: number }> {
  const prims = (await readGlb(glb))
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())
    .filter((p) => p.getMaterial()?.getName() === 'Picture');
  const min = [Infinity, Infinity];
  const max = [-Infinity, -Infinity];
  for (const p of prims) {
    const pos = p.getAttribute('POSITION')!;
    const [lo, hi] = [pos.getMin([]), pos.getMax([])];
    for (const i of [0, 1]) [min[i], max[i]] = [Math.min(min[i], lo[i]), Math.max(max[i], hi[i])];
  }
  return { inches: [(max[0] - min[0]) / METERS_PER_INCH, (max[1] - min[1]) / METERS_PER_INCH], primitives: prims.length };
}

/** Width and height in inches of the picture's front quad (`Front`) in a USDZ. */
export async function usdzPictureInches(usdz: Buffer): Promise<[number, number]> {
  const { points } = usdaMesh((await readUsdz(usdz)).usda, 'Front');
  const span = (i: number) => (Math.max(...points.map((p) => p[i])) - Math.min(...points.map((p) => p[i]))) / METERS_PER_INCH;
  return [span(0), span(1)];
}
