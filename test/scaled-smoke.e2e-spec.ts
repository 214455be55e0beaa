import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { glbPicture, glbWallPictures, usdzPictureInches, validateGlb } from '@app/testing';
import {
  Api,
  type AppProcess,
  createTestDatabase,
  freePort,
  REDIS_URL,
  spawnApp,
  tempDir,
  waitFor,
  waitHealthy,
} from './support/app-process';
import { contractFor } from './support/openapi-contract';

/**
 * Scaled mode as it is deployed: Postgres + Redis, an API process (`--role api`) and a separate worker
 * process sharing one database, one Bull queue and one DATA_DIR. Each feature whose own file tests it in
 * full in embedded mode (catalogue, variants, imports, imports with variants, item edits, gallery walls,
 * analytics) runs once here, end to end: created through the API, converted by the worker, read back.
 */

const OWNER = 'owner-key-for-scaled-smoke-e2e';
const METRICS_TOKEN = 'metrics-token-scaled-smoke';
const CM = 1 / 2.54;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** One tiny picture (fast conversions) at any path ending in .jpg, any query; counts the fetches per URL. */
async function pictureServer(): Promise<{ base: string; hits: Record<string, number>; stop: () => Promise<void> }> {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6ea5' } })
    .jpeg()
    .toBuffer();
  const hits: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    hits[url.pathname + url.search] = (hits[url.pathname + url.search] ?? 0) + 1;
    if (!url.pathname.endsWith('.jpg')) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A CSV request, its JSON answer checked against the published document. */
async function postCsv(api: Api, path: string, csv: string) {
  const r = await fetch(`${api.base}${path}`, { method: 'POST', headers: { 'x-api-key': api.key, 'content-type': 'text/csv' }, body: csv });
  const body = (await r.json()) as any;
  (await contractFor(api.base)).check('POST', path, r.status, r.headers.get('content-type'), body);
  return { status: r.status, body };
}

/** A served file: status, content type and bytes. */
async function file(url: string) {
  const r = await fetch(url);
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}
const magic = (b: Buffer, n: number) => b.subarray(0, n).toString('latin1');

/** GET the GLB and USDZ of a model: both served, a GLB (`glTF`) and a zip (`PK`); the picture's size in each. */
async function modelInches(m: { glb_url: string; usdz_url: string }): Promise<{ glb: [number, number]; usdz: [number, number] }> {
  const glb = await file(m.glb_url);
  expect([glb.status, magic(glb.bytes, 4)]).toEqual([200, 'glTF']);
  const usdz = await file(m.usdz_url);
  expect([usdz.status, magic(usdz.bytes, 2)]).toEqual([200, 'PK']);
  return { glb: (await glbPicture(glb.bytes)).inches, usdz: await usdzPictureInches(usdz.bytes) };
}

const close = (v: number) => expect.closeTo(v, 2);

/** Jobs a process has completed (`jobs_total`, every kind), from its /metrics. */
async function completedJobs(metricsUrl: string): Promise<number> {
  const r = await fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(r.status).toBe(200);
  return (await r.text())
    .split('\n')
    .filter((l) => l.startsWith('jobs_total{') && l.includes('outcome="completed"'))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

describe('scaled mode smoke: Postgres + Redis, an API process and a worker process', () => {
  let api: AppProcess;
  let worker: AppProcess;
  let db: { url: string; drop: () => Promise<void> };
  let media: Awaited<ReturnType<typeof pictureServer>>;
  let base: string;
  let workerMetrics: string;
  let user: Api;

  beforeAll(async () => {
    [media, db] = await Promise.all([pictureServer(), createTestDatabase({ migrated: true })]);
    const [port, metricsPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    workerMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: tempDir(),
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_NAME: `scaled-smoke-${Date.now()}-${process.pid}`,
      OWNER_API_KEY: OWNER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_KEY: '1000000',
      ANALYTICS_FLUSH_MS: '100',
      METRICS_TOKEN,
    };
    api = spawnApp('api', { ...env, PORT: String(port) }, ['--role', 'api']);
    worker = spawnApp('worker', { ...env, METRICS_PORT: String(metricsPort) });
    await waitHealthy(base, api, 60_000);
    await waitFor(
      async () => {
        if (worker.proc.exitCode !== null) throw new Error(`worker exited: ${worker.output()}`);
        return /worker \d+ started \(scaled mode/.test(worker.output()) && /metrics on http/.test(worker.output());
      },
      60_000,
      'the worker to start',
    );
    // The API runs no jobs itself: every conversion below is the worker's.
    expect(api.output()).toMatch(/API \(scaled mode\) listening/);
    expect(api.output()).not.toMatch(/API \+ worker/);

    const owner = new Api(base, OWNER);
    const u = await owner.req('POST', '/api/admin/users', { email: 'scaled-smoke@example.com', credits: 200, showcase_slots: 10 });
    expect(u.status).toBe(201);
    user = new Api(base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
  }, 90_000);

  afterAll(async () => {
    await worker?.kill('SIGKILL');
    await api?.kill('SIGKILL');
    await db?.drop();
    await media?.stop();
  });

  const balance = async () => (await user.req('GET', '/api/v2/me')).body.credits as number;

  /** The jobs a test made ran in the worker process: its count grew by at least `n`; the API ran none. */
  async function expectWorkerRan(before: number, n: number): Promise<void> {
    await waitFor(async () => (await completedJobs(workerMetrics)) >= before + n, 5000, `${n} more jobs completed in the worker`);
    expect(await completedJobs(`${base}/metrics`)).toBe(0);
  }

  /** The showcase's items once each is settled (completed or failed, no variant or rebuild in progress). */
  async function settledItems(showcaseId: number, count: number): Promise<any[]> {
    return waitFor(
      async () => {
        const items = (await user.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items as any[];
        const busy = items.some(
          (i) =>
            !['completed', 'failed'].includes(i.status) ||
            i.rebuild_job_id ||
            i.variants?.some((v: { status: string; build_job_id?: string }) => v.status === 'building' || v.build_job_id),
        );
        return items.length === count && !busy && items;
      },
      60_000,
      `showcase ${showcaseId}'s ${count} items to be built`,
    );
  }

  async function waitImport(id: string): Promise<any> {
    return waitFor(
      async () => {
        const r = await user.req('GET', `/api/v2/imports/${id}?rows=all`);
        return r.body.status === 'completed' && r.body;
      },
      60_000,
      `import ${id} to complete`,
    );
  }

  it('converts a showcase item at its real size: the GLB and USDZ are served at it, the item reports it', async () => {
    const jobs = await completedJobs(workerMetrics);
    const before = await balance();
    const created = await user.req('POST', '/api/v2/showcases', {
      items: [{ image_url: `${media.base}/sized.jpg`, width_cm: 40.64, height_cm: 30.48, frame: 'thin', title: 'Sized' }],
    });
    expect(created.status).toBe(201);
    const [item] = await settledItems(created.body.id, 1);
    expect(item.status).toBe('completed');
    expect(item.dimensions).toEqual({ width_inches: close(16), height_inches: close(12) });
    expect(item.dimensions_cm).toEqual({ width_cm: 40.64, height_cm: 30.48 });
    expect(item.frame).toMatchObject({ style: 'thin' });
    const inches = await modelInches(item);
    expect(inches).toEqual({ glb: [close(16), close(12)], usdz: [close(16), close(12)] });
    expect((await validateGlb((await file(item.glb_url)).bytes)).numErrors).toBe(0);
    // A showcase (5) and a picture (2).
    expect(before - (await balance())).toBe(7);
    await expectWorkerRan(jobs, 1);
  }, 60_000);

  it('builds an item with two variants, each at its own size, from one fetch and one charge', async () => {
    const jobs = await completedJobs(workerMetrics);
    const created = await user.req('POST', '/api/v2/showcases', {
      items: [
        {
          image_url: `${media.base}/variants.jpg`,
          title: 'Variants',
          variants: [
            { sku: 'V-S', width_cm: 20, height_cm: 15, price: '€20' },
            { sku: 'V-L', width_cm: 40, height_cm: 30, frame: 'thin', price: '€40', default: true },
          ],
        },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.queued_jobs).toHaveLength(1);
    const [item] = await settledItems(created.body.id, 1);
    expect(item.status).toBe('completed');
    expect(item.variants.map((v: { sku: string; status: string; default: boolean }) => [v.sku, v.status, v.default])).toEqual([
      ['V-S', 'ready', false],
      ['V-L', 'ready', true],
    ]);
    expect(item.glb_url).toBe(item.variants[1].glb_url);
    expect(item.variants[0].glb_url).not.toBe(item.variants[1].glb_url);
    for (const [v, [w, h]] of [
      [item.variants[0], [20, 15]],
      [item.variants[1], [40, 30]],
    ] as const) {
      expect(await modelInches(v)).toEqual({ glb: [close(w * CM), close(h * CM)], usdz: [close(w * CM), close(h * CM)] });
    }
    expect(media.hits['/variants.jpg']).toBe(1);
    await expectWorkerRan(jobs, 1);
  }, 60_000);

  it('imports a CSV: the dry run is free, the import reports the invalid row, charges and creates the rest, converted', async () => {
    const jobs = await completedJobs(workerMetrics);
    const s = (await user.req('POST', '/api/v2/showcases', {})).body.id as number;
    const csv = [
      'image_url,title,external_id,width_cm,height_cm',
      `${media.base}/import.jpg?n=1,One,I-1,40,30`,
      `${media.base}/import.jpg?n=2,Two,I-2,abc,30`,
      `${media.base}/import.jpg?n=3,Three,I-3,20,15`,
      `${media.base}/import.jpg?n=4,Four,I-4,,`,
    ].join('\r\n');
    const credits = await balance();
    const dry = await postCsv(user, `/api/v2/showcases/${s}/imports?dry_run=true`, csv);
    expect(dry.status).toBe(200);
    expect(dry.body.counts).toEqual({ rows: 4, invalid: 1, created: 3, updated: 0, unchanged: 0, skipped: 0 });
    expect(dry.body.price).toMatchObject({ pictures: 3, credits: 6 });
    expect(await balance()).toBe(credits);

    const started = await postCsv(user, `/api/v2/showcases/${s}/imports`, csv);
    expect(started.status).toBe(202);
    const done = await waitImport(started.body.id);
    expect(done.counts).toMatchObject({ rows: 4, invalid: 1, created: 3, skipped: 0, processed: 4 });
    expect(done.credits_charged).toBe(6);
    expect(await balance()).toBe(credits - 6);
    const invalid = done.rows.filter((r: { status: string }) => r.status === 'invalid');
    expect(invalid).toEqual([expect.objectContaining({ row: 2, field: 'width_cm' })]);

    const items = await settledItems(s, 3);
    expect(items.map((i) => [i.external_id, i.status])).toEqual([
      ['I-1', 'completed'],
      ['I-3', 'completed'],
      ['I-4', 'completed'],
    ]);
    expect(items[0].dimensions_cm).toEqual({ width_cm: 40, height_cm: 30 });
    for (const i of items) {
      const glb = await file(i.glb_url);
      expect([glb.status, magic(glb.bytes, 4)]).toEqual([200, 'glTF']);
    }
    expect((await user.req('GET', `/api/v2/imports/${done.id}`)).body.counts).toMatchObject({ completed: 3, failed: 0, queued: 0 });
    await expectWorkerRan(jobs, 3);
  }, 60_000);

  it('imports variant rows grouped by external_id: one item with two variants and a plain one, two charges', async () => {
    const jobs = await completedJobs(workerMetrics);
    const s = (await user.req('POST', '/api/v2/showcases', { units: 'cm' })).body.id as number;
    const csv = [
      'external_id,image_url,title,sku,price,width_cm,height_cm,frame',
      `DUNES,${media.base}/dunes.jpg,Dunes,DUNES-S,€39,20,30,`,
      `DUNES,,,DUNES-L,€149,40,60,thin`,
      `PLAIN,${media.base}/plain.jpg,Plain,,€10,20,30,`,
    ].join('\r\n');
    const credits = await balance();
    const started = await postCsv(user, `/api/v2/showcases/${s}/imports`, csv);
    expect(started.status).toBe(202);
    const done = await waitImport(started.body.id);
    expect(done.counts).toMatchObject({ rows: 3, invalid: 0, created: 3, skipped: 0 });
    expect(done.credits_charged).toBe(4);
    expect(await balance()).toBe(credits - 4);
    // Rows 1 and 2 are one item (one job).
    expect(done.rows[0].item_id).toBe(done.rows[1].item_id);
    expect(done.rows[0].item_id).not.toBe(done.rows[2].item_id);

    const items = await settledItems(s, 2);
    const dunes = items.find((i) => i.external_id === 'DUNES');
    const plain = items.find((i) => i.external_id === 'PLAIN');
    expect([dunes.status, plain.status]).toEqual(['completed', 'completed']);
    expect(dunes.variants.map((v: { sku: string; status: string; price: string }) => [v.sku, v.status, v.price])).toEqual([
      ['DUNES-S', 'ready', '€39'],
      ['DUNES-L', 'ready', '€149'],
    ]);
    expect(await modelInches(dunes.variants[1])).toEqual({ glb: [close(40 * CM), close(60 * CM)], usdz: [close(40 * CM), close(60 * CM)] });
    expect(plain.variants).toBeNull();
    expect((await modelInches(plain)).glb).toEqual([close(20 * CM), close(30 * CM)]);
    await expectWorkerRan(jobs, 2);
  }, 60_000);

  it('rebuilds an edited size in the worker from the stored texture; the embed page shows the new model', async () => {
    const jobs = await completedJobs(workerMetrics);
    const created = await user.req('POST', '/api/v2/showcases', {
      items: [{ image_url: `${media.base}/edit.jpg`, width_inches: 16, height_inches: 12 }],
    });
    expect(created.status).toBe(201);
    const [before] = await settledItems(created.body.id, 1);
    expect(before).toMatchObject({ status: 'completed', dimensions: { width_inches: 16, height_inches: 12 } });
    const credits = await balance();

    const edit = await user.req('PATCH', `/api/v2/showcases/${created.body.id}/items/${before.id}`, {
      width_inches: 20,
      height_inches: 15,
    });
    expect(edit.status).toBe(202);
    const rebuild = edit.body.rebuild_job_id as string;
    expect(rebuild).toMatch(/^v2_/);
    const after = await waitFor(
      async () => {
        const i = (await user.req('GET', `/api/v2/showcases/${created.body.id}/items/${before.id}`)).body;
        return (i.rebuild_error || (i.job_id === rebuild && i.status === 'completed' && !i.rebuild_job_id)) && i;
      },
      60_000,
      'the item to switch to its rebuild',
    );
    expect(after.rebuild_error).toBeUndefined();
    expect(after).toMatchObject({ job_id: rebuild, embed_url: before.embed_url, dimensions: { width_inches: 20, height_inches: 15 } });
    expect(after.glb_url).not.toBe(before.glb_url);
    expect(await modelInches(after)).toEqual({ glb: [close(20), close(15)], usdz: [close(20), close(15)] });
    const embed = await fetch(before.embed_url);
    expect(embed.status).toBe(200);
    expect(await embed.text()).toContain(`models/${rebuild}/model.glb`);
    expect((await fetch(before.glb_url)).status).toBe(410);
    // Rebuilt from the stored texture (the source fetched once), free.
    expect(media.hits['/edit.jpg']).toBe(1);
    expect(await balance()).toBe(credits);
    await expectWorkerRan(jobs, 2);
  }, 60_000);

  it("builds an owner's gallery wall in the worker (GLB + USDZ) and answers a visitor's wall as a GLB", async () => {
    const jobs = await completedJobs(workerMetrics);
    const created = await user.req('POST', '/api/v2/showcases', {
      items: [
        { image_url: `${media.base}/wall-a.jpg`, width_inches: 24, height_inches: 18, frame: 'thin' },
        { image_url: `${media.base}/wall-b.jpg`, width_inches: 16, height_inches: 12 },
      ],
    });
    expect(created.status).toBe(201);
    const showcaseId = created.body.id as number;
    const items = await settledItems(showcaseId, 2);
    expect(items.map((i) => i.status)).toEqual(['completed', 'completed']);
    const credits = await balance();

    const wall = await user.req('POST', `/api/v2/showcases/${showcaseId}/walls`, {
      name: 'Hall',
      items: items.map((i) => ({ item_id: i.id })),
      arrangement: 'row',
    });
    expect(wall.status).toBe(202);
    expect(wall.body.credits_charged).toBe(1);
    const built = await waitFor(
      async () => {
        const w = (await user.req('GET', `/api/v2/showcases/${showcaseId}/walls/${wall.body.id}`)).body;
        return ['completed', 'failed'].includes(w.status) && w;
      },
      60_000,
      'the wall to be built',
    );
    expect(built.status).toBe('completed');
    const glb = await file(built.glb_url);
    expect([glb.status, glb.type, magic(glb.bytes, 4)]).toEqual([200, 'model/gltf-binary', 'glTF']);
    const pictures = (await glbWallPictures(glb.bytes)).pictures;
    expect([pictures.size, pictures.get(0)?.size, pictures.get(1)?.size]).toEqual([2, [close(24), close(18)], [close(16), close(12)]]);
    const usdz = await file(built.usdz_url);
    expect([usdz.status, usdz.type, magic(usdz.bytes, 2)]).toEqual([200, 'model/vnd.usdz+zip', 'PK']);
    expect(credits - (await balance())).toBe(1);

    const site = new URL(created.body.url).pathname.split('/').pop();
    const together = await file(`${base}/showcase/${site}/together/model.glb?items=${items.map((i) => i.id).join(',')}`);
    expect([together.status, together.type, magic(together.bytes, 4)]).toEqual([200, 'model/gltf-binary', 'glTF']);
    expect((await glbWallPictures(together.bytes)).pictures.size).toBe(2);
    // A visitor's wall is free.
    expect(credits - (await balance())).toBe(1);
    await expectWorkerRan(jobs, 3);
  }, 60_000);

  it('buffers beacons through Redis and reads them back from /api/v2/analytics, each event id counted once', async () => {
    const jobs = await completedJobs(workerMetrics);
    const created = await user.req('POST', '/api/v2/showcases', { items: [{ image_url: `${media.base}/analytics.jpg`, title: 'One' }] });
    expect(created.status).toBe(201);
    const [item] = await settledItems(created.body.id, 1);
    const site = new URL(created.body.url).pathname.split('/').pop();
    const beacon = async (events: unknown[]) => {
      const r = await fetch(`${base}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': IPHONE },
        body: JSON.stringify({ site, events }),
      });
      expect(r.status).toBe(204);
    };
    const stamp = `${Date.now()}`;
    const twice = { id: `ev${stamp}a`, kind: 'view', surface: 'showcase' };
    await beacon([
      twice,
      { id: `ev${stamp}b`, kind: 'view', surface: 'item', item_id: item.id },
      { id: `ev${stamp}c`, kind: 'ar_launch', surface: 'item', item_id: item.id, platform: 'quick_look' },
    ]);
    await beacon([twice]);
    // Sent last: once it is counted, everything before it has been through the flusher.
    await beacon([{ id: `ev${stamp}d`, kind: 'banner_tap', surface: 'item', item_id: item.id }]);

    const today = new Date().toISOString().slice(0, 10);
    const query = `/api/v2/analytics?from=${today}&to=${today}&showcase_id=${created.body.id}`;
    const report = await waitFor(
      async () => {
        const r = await user.req('GET', query);
        return r.status === 200 && r.body.totals.banner_taps >= 1 && r.body;
      },
      15_000,
      'the events to be counted',
    );
    expect(report.totals).toEqual({
      views: 2,
      interactions: 0,
      ar_launches: 1,
      banner_taps: 1,
      qr_opens: 0,
      variant_selects: 0,
      room_views: 0,
      unique_visitors: 1,
    });
    const byItem = (await user.req('GET', `${query}&group_by=item`)).body.groups;
    expect(byItem.map((g: { item_id: number; views: number; ar_launches: number }) => [g.item_id, g.views, g.ar_launches])).toEqual([
      [item.id, 1, 1],
    ]);
    await expectWorkerRan(jobs, 1);
  }, 60_000);
});
