/**
 * Catalogue edits (`node dist/bench/catalogue-edit.js [items]`, after a build): the time from an edit to the
 * switched files. An embedded service converts `items` (default 6) 12 MP photographs once; then each item is
 * edited twice: a free edit (artist, price, availability: answered at once, nothing rebuilt) and a size + frame
 * change, timed from the PATCH to the moment the item serves the rebuilt files (its `rebuild_job_id` gone and
 * the new dimensions in place), one item at a time. The floor, in the same run: plain sharp decoding the
 * item's stored texture (the JPEG inside its GLB) and encoding the same outputs again (the texture at its size,
 * the 1024 px poster), which is the pixel work a rebuild cannot avoid. Results: bench/results/catalogue-edit.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { callJson, median, round, sleep, startApi } from './bench-service';
import { sameOutputFloor } from './catalogue-inputs';

const OWNER = 'owner-key-for-the-catalogue-edit-bench';
const ITEMS = Number(process.argv[2] ?? 6);
const PHOTO = join(__dirname, '../../test/fixtures/media/photo-street.jpg');

/** The JPEG texture inside a GLB (its first image's buffer view). */
function glbTexture(glb: Buffer): Buffer {
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  const bin = glb.subarray(20 + jsonLength + 8);
  const view = json.bufferViews[json.images[0].bufferView];
  return bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
}

async function waitFor<T>(fn: () => Promise<T | undefined | false>, what: string, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function main() {
  // A 12 MP photograph, as a gallery would upload it.
  const photo = await sharp(readFileSync(PHOTO)).resize(4000, 3000, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  const media = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo));
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-edit-bench-'));
  const { proc, base } = await startApi(OWNER, { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_KEY: '1000000' });
  // The owner key: free and without a showcase slot limit (billing is not what is measured).
  const key = OWNER;
  try {
    const created = await callJson(base, 'POST', '/api/v2/showcases', key, {
      units: 'cm',
      items: Array.from({ length: ITEMS }, (_, i) => ({
        image_url: `${mediaBase}/p${i}.jpg`,
        width_cm: 60,
        height_cm: 45,
        external_id: `E${i}`,
      })),
    });
    const id = created.id;
    const items = await waitFor(
      async () => {
        const s = await callJson(base, 'GET', `/api/v2/showcases/${id}`, key);
        return s.items.every((i: any) => i.status === 'completed') && s.items;
      },
      'the first conversions',
      600_000,
    );

    const free: number[] = [];
    const rebuild: number[] = [];
    const floor: number[] = [];
    for (const [n, item] of (items as any[]).entries()) {
      // Its stored texture, for the floor (the file is replaced, and deleted, when the rebuild switches).
      const texture = glbTexture(Buffer.from(await (await fetch(item.glb_url)).arrayBuffer()));
      const f0 = performance.now();
      const edited = await callJson(base, 'PATCH', `/api/v2/showcases/${id}/items/${item.id}`, key, {
        artist: `Artist ${n}`,
        price: `€${1000 + n}`,
        availability: n % 2 ? 'sold' : 'reserved',
      });
      free.push(performance.now() - f0);
      if (edited.rebuild_job_id) throw new Error('a free edit started a rebuild');

      const width = 80 + n;
      const t0 = performance.now();
      const answer = await callJson(base, 'PATCH', `/api/v2/showcases/${id}/items/${item.id}`, key, {
        width_cm: width,
        height_cm: 60,
        frame: 'thin',
      });
      if (!answer.rebuild_job_id) throw new Error('a size change did not rebuild');
      await waitFor(async () => {
        const i = await callJson(base, 'GET', `/api/v2/showcases/${id}/items/${item.id}`, key);
        return !i.rebuild_job_id && i.dimensions_cm?.width_cm === width && i;
      }, 'the switch');
      rebuild.push(performance.now() - t0);

      // The floor: the same pixel work with the plain library, on the stored texture.
      const p0 = performance.now();
      await sameOutputFloor(texture);
      floor.push(performance.now() - p0);
    }
    const result = {
      when: new Date().toISOString(),
      machine: { cpus: cpus().length, loadavg_before: loadavg().map((v) => round(v, 2)) },
      items: ITEMS,
      source: '12 MP JPEG (4000x3000), texture 2048x1536',
      free_edit_ms: { p50: round(median(free)), max: round(Math.max(...free)) },
      edit_to_switched_files_ms: { p50: round(median(rebuild)), max: round(Math.max(...rebuild)), all: rebuild.map((v) => round(v)) },
      floor_ms: { p50: round(median(floor)) },
      ratio_p50: round(median(rebuild) / median(floor), 2),
    };
    mkdirSync(join(__dirname, '../../bench/results'), { recursive: true });
    writeFileSync(join(__dirname, '../../bench/results/catalogue-edit.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    proc.kill('SIGKILL');
    media.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
