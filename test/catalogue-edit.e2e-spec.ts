import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { glbPicture, readGlb } from '@app/testing';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';

/**
 * Catalogue, edit in place: PATCH of a showcase item and the items' order, through the running service,
 * embedded (PGlite, in-process queue, the app in the test's process; scaled mode: test/scaled-smoke.e2e-spec.ts). Label, banner, availability and position
 * apply at once and cost nothing; a size or presentation change rebuilds the files from the stored texture
 * (the source is not fetched again), the old files serving until the item switches, its embed URL kept.
 *
 * The worker takes one job at a time (WORKER_MAX_JOBS=1), so a conversion whose source the test holds back
 * keeps a rebuild queued while the test looks at the item.
 */

const OWNER = 'owner-key-for-catalogue-edit-e2e';

/** Width and height in inches of the picture in a GLB (at least one primitive carries it). */
async function glbPictureInches(glb: Buffer): Promise<[number, number]> {
  const { inches, primitives } = await glbPicture(glb);
  expect(primitives).toBeGreaterThanOrEqual(1);
  return inches;
}

/** Material names of a GLB. */
const glbMaterials = async (glb: Buffer) =>
  (await readGlb(glb))
    .getRoot()
    .listMaterials()
    .map((m) => m.getName());

/** The pictures' origin (`/photo*.jpg`): counts what is fetched, can stop serving a path, and holds `/hold.jpg` until released. */
async function startSource(photo: Buffer) {
  const hits: Record<string, number> = {};
  const stopped = new Set<string>();
  let held: (() => void) | null = null;
  let holding = false;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const send = () => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(photo);
    };
    if (path === '/hold.jpg') {
      holding = true;
      held = send;
      return;
    }
    if (stopped.has(path) || !path.startsWith('/photo')) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    stopServing: (path: string) => void stopped.add(path),
    isHolding: async () => holding,
    release: () => {
      holding = false;
      held?.();
      held = null;
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}

const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('editing showcase items in place', () => {
  let app: TestApp;
  let owner: Api;
  let source: Awaited<ReturnType<typeof startSource>>;

  beforeAll(async () => {
    // 4:3, 800 x 600: the texture keeps these pixels (under the 2048 px viewer limit).
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a6ea5' } })
      .jpeg()
      .toBuffer();
    source = await startSource(photo);
    const env: Record<string, string> = {
      WORKER_MAX_JOBS: '1',
    };
    // Imports are the subject, not the embedded database: Postgres takes PGlite's CPU out of this process.
    app = await startServiceApp(OWNER, env, { database: 'postgres' });
    owner = new Api(app.base, OWNER);
  }, 90_000);

  afterAll(async () => {
    source?.release();
    await app?.close();
    await source?.stop();
  });

  async function newUser(email: string, credits: number) {
    const u = await owner.req('POST', '/api/admin/users', { email, credits, showcase_slots: 2 });
    expect(u.status).toBe(201);
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    return new Api(owner.base, k.body.key);
  }
  const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;

  /** Holds the worker's one job slot with a conversion whose source answers only on release. */
  async function holdWorker(): Promise<void> {
    const r = await owner.req('POST', '/api/v1/convert', { image_url: `${source.base}/hold.jpg` });
    expect(r.status).toBe(202);
    await waitFor(source.isHolding, 30_000, 'the held conversion to start');
  }

  it('applies label, banner, availability at once and free; rebuilds size and frame from the texture, switching when done', async () => {
    const api = await newUser(`edit-${Date.now()}@example.com`, 100);
    const created = await api.req('POST', '/api/v2/showcases', {
      items: [
        {
          image_url: `${source.base}/photo.jpg`,
          title: 'Dunes',
          price: '$120',
          link_url: 'https://shop.example/dunes',
          call_to_action: 'Buy',
          external_id: 'A-1',
          width_inches: 32,
          height_inches: 24,
        },
        { image_url: `${source.base}/photo-2.jpg`, external_id: 'A-2' },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const [first, second] = created.body.queued_jobs.map((j: { item_id: number }) => j.item_id);
    const items = await waitFor(
      async () => {
        const s = (await api.req('GET', `/api/v2/showcases/${id}`)).body;
        return s.items.every((i: { status: string }) => i.status === 'completed') && s.items;
      },
      120_000,
      'the items to convert',
    );
    const before = items.find((i: { id: number }) => i.id === first);
    expect(before).toMatchObject({ dimensions: { width_inches: 32, height_inches: 24 }, texture: { width: 800, height: 600 } });
    const credits = await balance(api);
    expect(credits).toBe(100 - 5 - 2 * 2);
    // From here on the source is gone: a rebuild that fetched it would fail.
    expect(source.hits['/photo.jpg']).toBe(1);
    source.stopServing('/photo.jpg');

    // Free fields: at once, 200, nothing charged, the files untouched.
    const label = await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, {
      artist: 'Hilma af Klint',
      year: '1907',
      availability: 'sold',
      price: '$90',
      title: 'Dunes at dawn',
    });
    expect(label.status).toBe(200);
    expect(label.body).toMatchObject({
      id: first,
      job_id: before.job_id,
      glb_url: before.glb_url,
      artist: 'Hilma af Klint',
      year: '1907',
      availability: 'sold',
      banner: { title: 'Dunes at dawn', price: '$90', link_url: 'https://shop.example/dunes', call_to_action: 'Buy' },
    });
    expect(label.body.rebuild_job_id).toBeUndefined();
    // The public page shows the edited banner at once (a sold work shows no price).
    const page = await (await fetch(created.body.url)).text();
    expect(page).toContain('Dunes at dawn');
    expect(page).not.toContain('$120');
    // The same again changes nothing; null clears a field.
    expect((await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, { artist: 'Hilma af Klint', price: '$90' })).status).toBe(200);
    const cleared = await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, { year: null });
    expect(cleared.body).toMatchObject({ year: null, artist: 'Hilma af Klint' });
    expect(await balance(api)).toBe(credits);

    // Size and frame: a rebuild. The worker is held, so the rebuild waits and the old files keep serving.
    await holdWorker();
    const resized = await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, {
      width_inches: 40,
      height_inches: 30,
      frame: { style: 'classic', color: 'oak' },
    });
    expect(resized.status).toBe(202);
    const rebuild1 = resized.body.rebuild_job_id;
    expect(rebuild1).toMatch(/^v2_/);
    expect(resized.body.item).toMatchObject({
      job_id: before.job_id,
      glb_url: before.glb_url,
      embed_url: before.embed_url,
      dimensions: { width_inches: 32, height_inches: 24 },
      rebuild_job_id: rebuild1,
      artist: 'Hilma af Klint',
    });
    expect((await fetch(before.glb_url)).status).toBe(200);
    expect((await api.req('GET', `/api/v2/jobs/${rebuild1}`)).body).toMatchObject({ status: 'queued', item_id: first, showcase_id: id });
    // A second edit needing a rebuild supersedes the first; it merges over it (the new size and frame stay).
    const matted = await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, { mat: { width_inches: 2 } });
    expect(matted.status).toBe(202);
    const rebuild2 = matted.body.rebuild_job_id;
    expect(rebuild2).not.toBe(rebuild1);
    expect((await api.req('GET', `/api/v2/showcases/${id}/items/${first}`)).body).toMatchObject({
      job_id: before.job_id,
      rebuild_job_id: rebuild2,
    });
    expect((await fetch(before.glb_url)).status).toBe(200);
    source.release();

    const after = await waitFor(
      async () => {
        const i = (await api.req('GET', `/api/v2/showcases/${id}/items/${first}`)).body;
        return i.job_id === rebuild2 && i.status === 'completed' && !i.rebuild_job_id && i;
      },
      120_000,
      'the item to switch to its rebuild',
    );
    expect(after).toMatchObject({
      embed_url: before.embed_url,
      dimensions: { width_inches: 40, height_inches: 30 },
      frame: { style: 'classic', color: 'oak' },
      mat: { width_inches: 2 },
      // Rebuilt from the 800 x 600 texture: the same pixels.
      texture: { width: 800, height: 600 },
      banner: { title: 'Dunes at dawn', price: '$90' },
      availability: 'sold',
    });
    expect(after.glb_url).not.toBe(before.glb_url);
    const [w, h] = await glbPictureInches(await bytes(after.glb_url));
    expect(Math.abs(w - 40)).toBeLessThan(0.01);
    expect(Math.abs(h - 30)).toBeLessThan(0.01);
    expect(await glbMaterials(await bytes(after.glb_url))).toEqual(expect.arrayContaining(['Picture', 'Frame']));
    // The embed page keeps its URL and shows the new model; the replaced files are gone (410), as is the superseded rebuild.
    const embed = await fetch(before.embed_url);
    expect(embed.status).toBe(200);
    expect(await embed.text()).toContain(`models/${rebuild2}/model.glb`);
    expect((await fetch(before.glb_url)).status).toBe(410);
    expect([404, 410]).toContain((await api.req('GET', `/api/v2/jobs/${rebuild1}`)).status);
    // No fetch of the source during the rebuilds, nothing charged.
    expect(source.hits['/photo.jpg']).toBe(1);
    expect(await balance(api)).toBe(credits);

    // A rebuild that fails (cancelled while queued) keeps the files and says why.
    await holdWorker();
    const matte = await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, { finish: 'matte' });
    expect(matte.status).toBe(202);
    const cancelled = await api.req('POST', `/api/v2/jobs/${matte.body.rebuild_job_id}/cancel`);
    expect(cancelled.status).toBe(200);
    source.release();
    const failed = await waitFor(
      async () => {
        const i = (await api.req('GET', `/api/v2/showcases/${id}/items/${first}`)).body;
        return i.rebuild_error && i;
      },
      30_000,
      'the failed rebuild to be reported',
    );
    expect(failed).toMatchObject({
      job_id: rebuild2,
      glb_url: after.glb_url,
      rebuild_error: { code: 'cancelled', job_id: matte.body.rebuild_job_id },
    });
    expect(failed.rebuild_job_id).toBeUndefined();
    expect((await fetch(after.glb_url)).status).toBe(200);

    // The order: the listed items get 0..n-1.
    const order = await api.req('PUT', `/api/v2/showcases/${id}/items/order`, { item_ids: [second, first] });
    expect(order.status).toBe(200);
    expect(order.body.items.map((i: { id: number; position: number }) => [i.id, i.position])).toEqual([
      [second, 0],
      [first, 1],
    ]);
    expect((await api.req('GET', `/api/v2/showcases/${id}`)).body.items.map((i: { id: number }) => i.id)).toEqual([second, first]);
    expect(await balance(api)).toBe(credits);
  }, 300_000);

  it('answers 400 naming the field, 404 for another account and 409 for a taken external_id', async () => {
    const api = await newUser(`edit-errors-${Date.now()}@example.com`, 100);
    const other = await newUser(`edit-other-${Date.now()}@example.com`, 100);
    source.release();
    const created = await api.req('POST', '/api/v2/showcases', {
      items: [
        { image_url: `${source.base}/photo-3.jpg`, external_id: 'B-1' },
        { image_url: `${source.base}/photo-3.jpg`, external_id: 'B-2' },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const [first, second] = created.body.queued_jobs.map((j: { item_id: number }) => j.item_id);
    const patch = (item: number, body: unknown, as = api) => as.req('PATCH', `/api/v2/showcases/${id}/items/${item}`, body);

    for (const [body, param, code] of [
      [{ colour: 'red' }, 'colour', 'parameter_unknown'],
      [{ image_url: `${source.base}/photo-3.jpg` }, 'image_url', 'parameter_unknown'],
      [{ frame: 'gold' }, 'frame.style', 'parameter_invalid'],
      [{ frame: { style: 'canvas', width_inches: 2 } }, 'frame.width_inches', 'parameter_invalid'],
      // A mat needs a frame: the item has none.
      [{ mat: { width_inches: 2 } }, 'mat', 'parameter_invalid'],
      [{ width_cm: 50 }, 'height_cm', 'parameter_missing'],
      [{ fit: 'crop' }, 'fit', 'parameter_missing'],
      [{ call_to_action: 'Buy' }, 'call_to_action', 'parameter_missing'],
      [{ availability: 'gone' }, 'availability', 'parameter_invalid'],
    ] as const) {
      const r = await patch(first, body);
      expect([r.status, r.body.error?.param, r.body.error?.code]).toEqual([400, param, code]);
    }
    expect((await api.req('PATCH', `/api/v2/showcases/${id}/items/${first}`, ['frame'])).status).toBe(400);

    const taken = await patch(second, { external_id: 'B-1' });
    expect([taken.status, taken.body.error?.code, taken.body.error?.param]).toEqual([409, 'external_id_taken', 'external_id']);

    expect((await patch(first, { artist: 'Nobody' }, other)).status).toBe(404);
    expect((await patch(999_999, { artist: 'Nobody' })).status).toBe(404);
    expect((await other.req('PUT', `/api/v2/showcases/${id}/items/order`, { item_ids: [first] })).status).toBe(404);

    const unknown = await api.req('PUT', `/api/v2/showcases/${id}/items/order`, { item_ids: [second, 999_999] });
    expect([unknown.status, unknown.body.error?.param]).toEqual([400, 'item_ids[1]']);
    const twice = await api.req('PUT', `/api/v2/showcases/${id}/items/order`, { item_ids: [first, second, first] });
    expect([twice.status, twice.body.error?.param]).toEqual([400, 'item_ids[2]']);
    const empty = await api.req('PUT', `/api/v2/showcases/${id}/items/order`, { item_ids: [] });
    expect([empty.status, empty.body.error?.param]).toEqual([400, 'item_ids']);
    // Nothing of it changed anything.
    const s = (await api.req('GET', `/api/v2/showcases/${id}`)).body;
    expect(s.items.map((i: { external_id: string; position: number | null }) => [i.external_id, i.position])).toEqual([
      ['B-1', null],
      ['B-2', null],
    ]);
  }, 120_000);
});
