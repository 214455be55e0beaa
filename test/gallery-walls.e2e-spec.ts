import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { glbWallPictures, noisyPhoto, validateGlb } from '@app/testing';
import { Api, tempDir, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * Saved gallery walls through the running service, embedded (PGlite, in-process queue, the app in the test's process; scaled mode:
 * test/scaled-smoke.e2e-spec.ts): the API's layout, its 400s before anything is charged, one credit per wall refunded when the build
 * fails, the built GLB with every picture at its place, rename and rearrange (free, same embed URL), delete,
 * and a showcase's deletion taking its walls. (2, 3, 6 and 12 pictures in every arrangement, in OpenUSD:
 * test/gallery-walls-files.browser.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-gallery-walls-e2e';

/** Item_<i> pictures of a wall GLB: centre and size (inches) and the node's translation. */
const glbPictures = async (glb: Buffer) => (await glbWallPictures(glb)).pictures;

/** The stored file of a key under DATA_DIR (local storage), found by its path's end. */
function storedFile(dir: string, key: string): string | undefined {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      const found = storedFile(p, key);
      if (found) return found;
    } else if (p.endsWith(key)) return p;
  }
  return undefined;
}

/** Stored visitors' wall models (`walls/visitor/…/model.glb`) under DATA_DIR. */
const visitorModels = (dir: string): string[] =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.includes('walls/visitor/') && f.endsWith('model.glb'));

const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('gallery walls', () => {
  let app: TestApp;
  let owner: Api;
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  let dataDir: string;

  beforeAll(async () => {
    media = await startMediaServer({
      '/a.jpg': await noisyPhoto(1600, 1200, 1),
      '/b.jpg': await noisyPhoto(1000, 1400, 2),
      '/c.jpg': await noisyPhoto(1200, 1200, 3),
      '/d.jpg': await noisyPhoto(1400, 1000, 4),
    });
    dataDir = tempDir();
    app = await startServiceApp(OWNER, { DATA_DIR: dataDir });
    owner = new Api(app.base, OWNER);
  }, 90_000);

  // Closing this app once took ~70 s in 3 runs of 4: the test's fetch (undici's pool) had opened a connection it never
  // used, which Node's server.close() waits for; the app's close now ends such connections (apps/api/src/http/unused-connections.ts).
  afterAll(async () => {
    await app?.close();
    await media?.stop();
  });

  const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;
  const settledWall = (api: Api, showcaseId: number, wallId: string) =>
    waitFor(
      async () => {
        const w = (await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${wallId}`)).body;
        return (w.status === 'completed' || w.status === 'failed') && w;
      },
      120_000,
      `wall ${wallId} to be built`,
    );

  let api: Api;
  let showcaseId: number;
  let items: { id: number; outer: { width_inches: number; height_inches: number } }[];

  it('lays out, charges one credit and builds one GLB with every picture at its place, its own size and frame', async () => {
    const u = await owner.req('POST', '/api/admin/users', { email: `walls@example.com`, credits: 20, showcase_slots: 2 });
    api = new Api(owner.base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
    const s = await api.req('POST', '/api/v2/showcases', {
      items: [
        {
          image_url: `${media.base}/a.jpg`,
          title: 'Dunes',
          width_inches: 24,
          height_inches: 18,
          frame: { style: 'classic', color: 'oak' },
          mat: { width_inches: 2 },
        },
        { image_url: `${media.base}/b.jpg`, title: 'Heron', width_inches: 16, height_inches: 22.4, frame: 'thin' },
        { image_url: `${media.base}/c.jpg`, title: 'Field', width_inches: 20, height_inches: 20, frame: 'canvas' },
        { image_url: `${media.base}/d.jpg`, title: 'Harbour', width_inches: 28, height_inches: 20 },
      ],
    });
    expect(s.status).toBe(201);
    showcaseId = s.body.id;
    const done = await waitFor(
      async () => {
        const b = (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body;
        return b.items.every((i: { status: string }) => i.status === 'completed') && b;
      },
      120_000,
      'the pictures',
    );
    items = done.items.map((i: { id: number; outer_dimensions: { width_inches: number; height_inches: number } }) => ({
      id: i.id,
      outer: i.outer_dimensions,
    }));

    // The layout alone: free, nothing stored.
    const before = await balance(api);
    const body = { name: 'Over the sofa', items: items.slice(0, 3).map((i) => ({ item_id: i.id })), arrangement: 'row', gap_inches: 4 };
    const layout = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls/layout`, body);
    expect(layout.status).toBe(200);
    expect(await balance(api)).toBe(before);
    const outers = items.slice(0, 3).map((i) => i.outer);
    layout.body.items.forEach((p: Record<string, number>, k: number) => {
      expect(p.width_inches).toBeCloseTo(outers[k].width_inches, 2);
      expect(p.height_inches).toBeCloseTo(outers[k].height_inches, 2);
      expect(p.y_inches).toBeCloseTo(0, 6);
    });
    // One line, 4 in apart, centred on the wall.
    const width = outers.reduce((n, o) => n + o.width_inches, 0) + 2 * 4;
    expect(layout.body.outer_dimensions.width_inches).toBeCloseTo(width, 1);
    expect(layout.body.items[0].x_inches).toBeCloseTo(-width / 2 + outers[0].width_inches / 2, 1);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls`)).body.data).toEqual([]);

    const created = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, body);
    expect(created.status).toBe(202);
    expect(created.body.id).toMatch(/^wall_[a-z2-7]{24}$/);
    expect(created.body.job_id).toMatch(/^v2_/);
    expect(created.body.credits_charged).toBe(1);
    expect(before - (await balance(api))).toBeCloseTo(1, 6);
    expect(created.body.wall.items).toEqual(layout.body.items);

    const wall = await settledWall(api, showcaseId, created.body.id);
    expect(wall.status).toBe('completed');
    expect(wall.name).toBe('Over the sofa');
    expect(wall.page_url).toBe(`${owner.base}/showcase/${s.body.url.split('/').pop()}/walls/${wall.id}`);
    expect(wall.textures).toMatchObject({ atlas: false, reencoded: false, count: 3 });
    // The job view has a still image's shape: files, dimensions (the whole wall's outer size), embed page.
    const job = (await api.req('GET', `/api/v2/jobs/${wall.job_id}`)).body;
    expect(job.status).toBe('completed');
    expect(job.result.glb_url).toBe(wall.glb_url);
    expect(job.showcase_id).toBe(showcaseId);
    expect(job.result.dimensions).toEqual({
      width_inches: wall.outer_dimensions.width_inches,
      height_inches: wall.outer_dimensions.height_inches,
    });
    expect(job.result.wall.pictures.map((p: Record<string, number>) => [p.item_id, p.x_inches])).toEqual(
      wall.items.map((p: Record<string, number>) => [p.item_id, p.x_inches]),
    );
    expect(job.result.wall.textures).toEqual(wall.textures);
    expect((await fetch(wall.embed_url)).status).toBe(200);

    const glb = await bytes(wall.glb_url);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const pics = await glbPictures(glb);
    expect(pics.size).toBe(3);
    const sizes = [
      [24, 18],
      [16, 22.4],
      [20, 20],
    ];
    wall.items.forEach((p: Record<string, number>, k: number) => {
      const g = pics.get(k)!;
      expect(Math.abs(g.centre[0] - p.x_inches)).toBeLessThan(0.01);
      expect(Math.abs(g.centre[1] - p.y_inches)).toBeLessThan(0.01);
      expect(Math.abs(g.size[0] - sizes[k][0])).toBeLessThan(0.01);
      expect(Math.abs(g.size[1] - sizes[k][1])).toBeLessThan(0.01);
      expect(g.translation[2]).toBe(0);
    });
    const usdz = await fetch(wall.usdz_url);
    expect(usdz.headers.get('content-type')).toBe('model/vnd.usdz+zip');
    const poster = await sharp(await bytes(wall.preview_url)).metadata();
    expect(poster.format).toBe('jpeg');
    // Wider than high: the three pictures in a row.
    expect(poster.width!).toBeGreaterThan(poster.height! * 1.5);
  }, 240_000);

  it('refuses what cannot hang, before anything is charged', async () => {
    const before = await balance(api);
    const post = (body: unknown) => api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, body);
    const cases: [unknown, string][] = [
      [{ items: [{ item_id: items[0].id }] }, 'items'],
      [{ items: Array.from({ length: 13 }, () => ({ item_id: items[0].id })) }, 'items'],
      [{ items: [{ item_id: items[0].id }, { item_id: 999999 }] }, 'items[1].item_id'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[0].id }] }, 'items[1]'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id, variant_sku: 'NOPE' }] }, 'items[1].variant_sku'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id }], arrangement: 'spiral' }, 'arrangement'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id }], gap_inches: 49 }, 'gap_inches'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id }], align: 'middle' }, 'align'],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id }], arrangement: 'custom' }, 'items[0].x_inches'],
      [
        {
          items: [
            { item_id: items[0].id, x_inches: 0, y_inches: 0 },
            { item_id: items[1].id, x_inches: 10, y_inches: 0 },
          ],
          arrangement: 'custom',
        },
        'items[1]',
      ],
      [
        {
          items: [
            { item_id: items[0].id, x_inches: -230, y_inches: 0 },
            { item_id: items[1].id, x_inches: 230, y_inches: 0 },
          ],
          arrangement: 'custom',
        },
        'items',
      ],
      [{ items: [{ item_id: items[0].id }, { item_id: items[1].id }], colour: 'red' }, 'colour'],
    ];
    for (const [body, param] of cases) {
      const r = await post(body);
      expect([r.status, r.body.error?.param]).toEqual([400, param]);
      expect(r.body.error.message).toBeTruthy();
    }
    const overlap = await post(cases[9][0]);
    expect(overlap.body.error.message).toMatch(/overlaps items\[0\]/);
    const wide = await post(cases[10][0]);
    expect(wide.body.error.message).toMatch(/at most 480 in \(40 ft\)/);
    // Another account's showcase: 404.
    expect((await owner.req('GET', `/api/v2/showcases/${showcaseId}/walls/wall_aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
    expect(await balance(api)).toBe(before);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls`)).body.data).toHaveLength(1);
  });

  it('renames for free, rearranges with a free rebuild keeping the embed URL, and deletes', async () => {
    const [first] = (await api.req('GET', `/api/v2/showcases/${showcaseId}/walls`)).body.data;
    const before = await balance(api);
    const renamed = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/walls/${first.id}`, { name: 'Hall' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Hall', job_id: first.job_id });

    const custom = [
      { item_id: items[0].id, x_inches: -20, y_inches: 6 },
      { item_id: items[1].id, x_inches: 4, y_inches: -3 },
      { item_id: items[3].id, x_inches: 30, y_inches: 10.5 },
    ];
    const moved = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/walls/${first.id}`, { items: custom, arrangement: 'custom' });
    expect(moved.status).toBe(202);
    expect(moved.body.job_id).not.toBe(first.job_id);
    expect(moved.body.wall.items.map((p: Record<string, number>) => [p.item_id, p.x_inches, p.y_inches])).toEqual(
      custom.map((c) => [c.item_id, c.x_inches, c.y_inches]),
    );
    const rebuilt = await settledWall(api, showcaseId, first.id);
    expect(rebuilt.status).toBe('completed');
    expect(rebuilt.embed_url).toBe(first.embed_url);
    expect(rebuilt.glb_url).not.toBe(first.glb_url);
    const pics = await glbPictures(await bytes(rebuilt.glb_url));
    custom.forEach((c, k) => {
      expect(Math.abs(pics.get(k)!.centre[0] - c.x_inches)).toBeLessThan(0.01);
      expect(Math.abs(pics.get(k)!.centre[1] - c.y_inches)).toBeLessThan(0.01);
    });
    // The replaced files are gone; the wall's own are served.
    expect((await fetch(first.glb_url)).status).toBe(410);
    expect((await fetch(rebuilt.glb_url)).status).toBe(200);
    expect(await balance(api)).toBe(before);

    // Made custom with no new places: each picture stays where it hangs (nothing moves; a rebuild all the same).
    const stay = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/walls/${first.id}`, { arrangement: 'grid', columns: 3 });
    expect(stay.status).toBe(202);
    const grid = await settledWall(api, showcaseId, first.id);
    const custom2 = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/walls/${first.id}`, { arrangement: 'custom' });
    expect(custom2.status).toBe(202);
    expect(custom2.body.wall.arrangement).toBe('custom');
    expect(custom2.body.wall.items.map((p: Record<string, number>) => [p.x_inches, p.y_inches])).toEqual(
      grid.items.map((p: Record<string, number>) => [p.x_inches, p.y_inches]),
    );
    await settledWall(api, showcaseId, first.id);
    expect((await api.req('DELETE', `/api/v2/showcases/${showcaseId}/walls/${first.id}`)).status).toBe(204);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${first.id}`)).status).toBe(404);
    expect((await fetch(rebuilt.glb_url)).status).toBe(410);
  }, 240_000);

  it("builds a visitor's wall on request, free and cached; deleting a picture deletes the visitors' walls showing it", async () => {
    const sc = (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body;
    const site = new URL(sc.url).pathname.split('/').pop();
    const before = await balance(api);
    const url = (ids: number[]) => `${owner.base}/showcase/${site}/together/model.glb?items=${ids.join(',')}`;
    const first = await fetch(url([items[0].id, items[3].id]));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('model/gltf-binary');
    const glb = Buffer.from(await first.arrayBuffer());
    expect((await validateGlb(glb)).numErrors).toBe(0);
    expect((await glbPictures(glb)).size).toBe(2);
    const again = await fetch(url([items[0].id, items[3].id]));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    await again.arrayBuffer();
    // A set, not a sequence: the same pictures in the other order are the same wall (served, not built again).
    const reversed = await fetch(url([items[3].id, items[0].id]));
    expect(reversed.headers.get('etag')).toBe(first.headers.get('etag'));
    await reversed.arrayBuffer();
    // A `%` left once the query is decoded is a 400 naming the entry, not a 500 from decoding it again.
    const odd = await fetch(`${owner.base}/showcase/${site}/together/model.glb?items=${items[0].id},%25zz`);
    expect(odd.status).toBe(400);
    expect((await odd.json()).error.param).toBe('items[1]');
    expect((await fetch(`${owner.base}/showcase/${site}/together?items=${items[0].id},%25zz`)).status).toBe(400);
    expect((await fetch(url([items[1].id, items[3].id]))).status).toBe(200);
    expect(await balance(api)).toBe(before);
    const visitorFiles = () => visitorModels(dataDir).length;
    expect(visitorFiles()).toBe(2);
    // A new item (the one to delete) hung with another: two walls show item 3, one item 0.
    const extra = await api.req('POST', `/api/v2/showcases/${showcaseId}/items`, { image_urls: [`${media.base}/a.jpg`] });
    const extraId = extra.body.queued_jobs[0].item_id;
    await waitFor(
      async () => (await api.req('GET', `/api/v2/showcases/${showcaseId}/items/${extraId}`)).body.status === 'completed',
      60_000,
    );
    expect((await fetch(url([extraId, items[0].id]))).status).toBe(200);
    expect(visitorFiles()).toBe(3);
    expect((await api.req('DELETE', `/api/v2/showcases/${showcaseId}/items/${extraId}`)).status).toBe(204);
    expect(visitorFiles()).toBe(2);
  }, 120_000);

  it('refunds the credit when the build fails, and a showcase deletion takes its walls', async () => {
    // Take a picture's model away under the service: the wall's build cannot read its texture.
    const item = (await api.req('GET', `/api/v2/showcases/${showcaseId}/items/${items[2].id}`)).body;
    const key = new URL(item.glb_url).pathname.replace(/^\/files\//, '');
    const file = storedFile(dataDir, key);
    expect(file).toBeDefined();
    rmSync(file!);
    const before = await balance(api);
    const created = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, {
      items: [{ item_id: items[0].id }, { item_id: items[2].id }],
    });
    expect(created.status).toBe(202);
    const failed = await settledWall(api, showcaseId, created.body.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'item_missing' });
    expect(failed.error.message).toMatch(/items\[1\]/);
    await waitFor(async () => (await balance(api)) === before, 10_000, 'the refund');

    const ok = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, {
      items: [{ item_id: items[0].id }, { item_id: items[1].id }],
      arrangement: 'grid',
      columns: 1,
    });
    const wall = await settledWall(api, showcaseId, ok.body.id);
    expect(wall.status).toBe('completed');
    expect(wall.columns).toBe(1);
    // One column: one above the other.
    expect(wall.items[0].x_inches).toBeCloseTo(0, 6);
    expect(wall.items[0].y_inches).toBeGreaterThan(wall.items[1].y_inches);
    expect((await api.req('DELETE', `/api/v2/showcases/${showcaseId}`)).status).toBe(204);
    expect((await fetch(wall.glb_url)).status).toBe(410);
    // The visitors' walls went with it.
    expect(visitorModels(dataDir)).toEqual([]);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}/walls`)).status).toBe(404);
  }, 180_000);
});
