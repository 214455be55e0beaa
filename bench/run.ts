/**
 * Still-image conversion benchmark (`npm run bench`).
 *
 * For each input (a generated 12-megapixel JPEG and a 2-megapixel RGBA PNG) it runs the real stages
 * several times, unframed and framed (normalise renders texture and poster, the scene stage builds the
 * model and the framed poster, then the GLB and USDZ writers; storage is left out: it is a file write) and reports p50 per stage and in total, peak RSS, and the ratio of the total to the
 * floor: sharp decoding + resizing to the same texture size + encoding the same image in the same run.
 * Results go to bench/results/still-image.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { MAX_TEXTURE, photo12mp, stillFloor } from './still-inputs';
import {
  framedPoster,
  normaliseImage,
  parsePresentation,
  pictureScene,
  resolveDimensions,
  writeSceneGlb,
  writeSceneUsdz,
} from '@app/plugins';

/** Unframed (the default) and a framed variant (classic oak moulding, 3 in mat, lit matte picture). */
const VARIANTS = {
  unframed: {},
  framed: { frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 3 }, finish: 'matte' },
} as const;

const RUNS = Number(process.argv[2] ?? 15);

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function makeInputs(): Promise<{ name: string; bytes: Buffer; format: 'jpeg' | 'png' }[]> {
  const photo = await photo12mp();
  const w = 1600;
  const h = 1250;
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      rgba[i] = (x * 255) / w;
      rgba[i + 1] = (y * 255) / h;
      rgba[i + 2] = (x ^ y) & 255;
      const dx = x - w / 2;
      const dy = y - h / 2;
      rgba[i + 3] = Math.max(0, Math.min(255, 255 - Math.sqrt(dx * dx + dy * dy) / 3));
    }
  }
  const cutout = await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
  return [
    { name: '12MP JPEG (4000x3000)', bytes: photo, format: 'jpeg' },
    { name: '2MP RGBA PNG (1600x1250)', bytes: cutout, format: 'png' },
  ];
}

async function main(): Promise<void> {
  sharp.cache(false); // measure decoding every run, not libvips' operation cache
  const inputs = await makeInputs();
  const results: { input: string; variant: string; p50_ms: Record<string, number>; [k: string]: unknown }[] = [];
  for (const input of inputs) {
    for (const [variant, fields] of Object.entries(VARIANTS)) {
      const presentation = parsePresentation(fields as Record<string, unknown>);
      const stages: Record<string, number[]> = { normalise: [], scene: [], 'glb-writer': [], 'usdz-writer': [], total: [], floor: [] };
      let sizes = { texture: 0, glb: 0, usdz: 0 };
      for (let run = 0; run < RUNS + 1; run++) {
        const f = await stillFloor(input.bytes, input.format);
        const t0 = performance.now();
        const img = await normaliseImage(input.bytes, { maxTexturePx: MAX_TEXTURE, maxInputPixels: 100_000_000 });
        const t1 = performance.now();
        const dims = resolveDimensions({ mode: 'auto' }, img.sourceWidth, img.sourceHeight);
        const { scene } = await pictureScene(presentation, dims, {
          kind: 'still',
          texture: { id: 'picture', image: img.texture, mime: img.mime, width: img.width, height: img.height },
          alpha: img.alpha,
        });
        await framedPoster(img.poster, dims, presentation);
        const t2 = performance.now();
        const glb = await writeSceneGlb(scene);
        const t3 = performance.now();
        const usdz = writeSceneUsdz(scene);
        const t4 = performance.now();
        if (run === 0) continue; // warm-up
        stages.normalise.push(t1 - t0);
        stages.scene.push(t2 - t1);
        stages['glb-writer'].push(t3 - t2);
        stages['usdz-writer'].push(t4 - t3);
        stages.total.push(t4 - t0);
        stages.floor.push(f);
        sizes = { texture: img.texture.length, glb: glb.length, usdz: usdz.length };
      }
      const p = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(p50(v) * 10) / 10]));
      const unframed = results.find((r) => r.input === input.name && r.variant === 'unframed');
      const r = {
        input: input.name,
        variant,
        input_bytes: input.bytes.length,
        runs: RUNS,
        p50_ms: p,
        ratio_total_to_floor: Math.round((p.total / p.floor) * 100) / 100,
        ...(unframed ? { ratio_total_to_unframed: Math.round((p.total / unframed.p50_ms.total) * 100) / 100 } : {}),
        bytes: { ...sizes, glb_overhead: sizes.glb - sizes.texture, usdz_overhead: sizes.usdz - sizes.texture },
      };
      results.push(r);
      console.log(
        `${r.input}, ${variant}: total p50 ${p.total} ms, floor ${p.floor} ms, ratio ${r.ratio_total_to_floor}x` +
          `${'ratio_total_to_unframed' in r ? ` (${r.ratio_total_to_unframed}x the unframed)` : ''}; ` +
          `normalise (texture + poster) ${p.normalise}, scene ${p.scene}, glb ${p['glb-writer']}, usdz ${p['usdz-writer']} ms; ` +
          `GLB +${r.bytes.glb_overhead} B, USDZ +${r.bytes.usdz_overhead} B over the ${sizes.texture}-byte texture`,
      );
    }
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    sharp: sharp.versions,
    cpus: (await import('node:os')).cpus().length,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    targets: { ratio_total_to_floor: 1.3, model_overhead_bytes: 50 * 1024, framed_to_unframed: 1.3 },
    results,
  };
  const dir = join(__dirname, '../../bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'still-image.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(`peak RSS ${report.peak_rss_mb} MB; written to bench/results/still-image.json`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
