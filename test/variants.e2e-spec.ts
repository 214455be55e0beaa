import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { glbPicture, readGlb, usdzPictureInches, validateGlb } from '@app/testing';
import { Api, ROOT, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';

/**
 * Variants through the running service, embedded (PGlite, in-process queue, the app in the test's process; scaled mode: test/scaled-smoke.e2e-spec.ts): a
 * print-shop item sold in six sizes and frames is fetched, decoded and charged once, and each variant gets
 * its own GLB, USDZ and poster at its own size; editing one variant rebuilds only that one. (The USDZ files in
 * OpenUSD itself, and the pages: test/variants-files.browser.e2e-spec.ts, test/variants-pages.browser.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-variants-e2e';
const CM = 1 / 2.54;

/** The six variants of a print shop's picture: [request, picture inches, outer inches (w, h)]. */
const PRINT_SHOP = [
  [
    { sku: 'STREET-A3', name: 'A3 print', width_cm: 29.7, height_cm: 42, price: '€39', default: true },
    [29.7 * CM, 42 * CM],
    [29.7 * CM, 42 * CM],
  ],
  [{ sku: 'STREET-A2', width_cm: 42, height_cm: 59.4, price: '€59' }, [42 * CM, 59.4 * CM], [42 * CM, 59.4 * CM]],
  [
    {
      sku: 'STREET-50x70-OAK',
      name: '50 × 70 cm, oak',
      width_cm: 50,
      height_cm: 70,
      frame: { style: 'classic', color: 'oak' },
      price: '€149',
    },
    [50 * CM, 70 * CM],
    [50 * CM + 3, 70 * CM + 3],
  ],
  [
    {
      sku: 'STREET-50x70-BLK-MAT',
      width_cm: 50,
      height_cm: 70,
      frame: { style: 'thin', color: 'black' },
      mat: { width_inches: 2 },
      price: '€169',
    },
    [50 * CM, 70 * CM],
    [50 * CM + 5, 70 * CM + 5],
  ],
  [
    {
      sku: 'STREET-70x100-BLK',
      width_cm: 70,
      height_cm: 100,
      frame: { style: 'thin', color: 'black' },
      price: '€249',
      availability: 'sold',
    },
    [70 * CM, 100 * CM],
    [70 * CM + 1, 100 * CM + 1],
  ],
  [
    { sku: 'STREET-30-CANVAS', width_cm: 30, height_cm: 30, frame: 'canvas', depth_cm: 3.8, price: '€89' },
    [30 * CM, 30 * CM],
    [30 * CM, 30 * CM],
  ],
] as const;

/** The picture's origin: counts what is fetched. */
async function startSource(photo: Buffer) {
  const hits: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(photo);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    stop: () => new Promise((r) => server.close(r)),
  };
}

const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const close = (v: number) => expect.closeTo(v, 2);

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('item variants', () => {
  let app: TestApp;
  let owner: Api;
  let source: Awaited<ReturnType<typeof startSource>>;

  beforeAll(async () => {
    source = await startSource(readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')));
    // The variants are the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    app = await startServiceApp(OWNER, {}, { database: 'postgres' });
    owner = new Api(app.base, OWNER);
  }, 90_000);

  afterAll(async () => {
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

  /** The item once it and every variant are settled (no variant building). */
  async function settled(api: Api, showcaseId: number, itemId: number) {
    return waitFor(
      async () => {
        const i = (await api.req('GET', `/api/v2/showcases/${showcaseId}/items/${itemId}`)).body;
        const busy =
          i.status !== 'completed' ||
          i.variants?.some((v: { status: string; build_job_id?: string }) => v.status === 'building' || v.build_job_id);
        return !busy && i;
      },
      120_000,
      `item ${itemId} and its variants to be built`,
    );
  }

  let api: Api;
  let showcaseId: number;
  let itemId: number;
  let built: Record<string, any>;

  it('converts and charges the picture once and builds each variant at its own size', async () => {
    api = await newUser(`variants@example.com`, 20);
    const s = await api.req('POST', '/api/v2/showcases', { layout_choice: 'grid', units: 'cm' });
    expect(s.status).toBe(201);
    showcaseId = s.body.id;
    const before = await balance(api);
    const add = await api.req('POST', `/api/v2/showcases/${showcaseId}/items`, {
      items: [
        {
          image_url: `${source.base}/street.jpg`,
          title: 'Street',
          artist: 'A. Photographer',
          link_url: 'https://shop.example.com/street',
          call_to_action: 'Buy',
          variants: PRINT_SHOP.map(([v]) => v),
        },
      ],
    });
    expect(add.status).toBe(202);
    // One picture: one charge, whatever the number of variants.
    expect(add.body.queued_jobs).toHaveLength(1);
    itemId = add.body.queued_jobs[0].item_id;
    expect(before - (await balance(api))).toBeCloseTo(add.body.credits_charged, 6);
    const pictureOnly = await api.req('POST', `/api/v2/showcases/${showcaseId}/items`, { image_urls: [`${source.base}/plain.jpg`] });
    expect(pictureOnly.body.credits_charged).toBe(add.body.credits_charged);

    const item = await settled(api, showcaseId, itemId);
    // Fetched once: every variant was built from the one stored texture.
    expect(source.hits['/street.jpg']).toBe(1);
    expect(item.variants.map((v: { sku: string }) => v.sku)).toEqual(PRINT_SHOP.map(([v]) => v.sku));
    expect(item.variants.filter((v: { default: boolean }) => v.default).map((v: { sku: string }) => v.sku)).toEqual(['STREET-A3']);
    // The item shows its default variant: its files, size and price.
    const def = item.variants[0];
    expect(item.glb_url).toBe(def.glb_url);
    expect(item.banner.price).toBe('€39');
    expect(item.dimensions).toEqual(def.dimensions);

    const glbs = new Set<string>();
    for (const [k, [req, picture, outer]] of PRINT_SHOP.entries()) {
      const v = item.variants[k];
      expect(v).toMatchObject({
        sku: req.sku,
        status: 'ready',
        price: req.price,
        availability: 'availability' in req ? req.availability : 'available',
      });
      expect(v.name).toBe('name' in req ? req.name : null);
      expect(v.width_cm).toBe(req.width_cm);
      expect([v.dimensions.width_inches, v.dimensions.height_inches]).toEqual(picture.map(close));
      expect([v.dimensions_cm.width_cm, v.dimensions_cm.height_cm]).toEqual([req.width_cm, req.height_cm].map(close));
      expect([v.outer_dimensions.width_inches, v.outer_dimensions.height_inches]).toEqual(outer.map(close));
      expect(v.embed_url).toBe(`${item.embed_url}?variant=${encodeURIComponent(req.sku)}`);
      glbs.add(v.glb_url);

      // The GLB: the picture at its size to 0.01 in, valid, within the viewers' budgets.
      const glb = await bytes(v.glb_url);
      expect((await validateGlb(glb)).numErrors).toBe(0);
      const { inches } = await glbPicture(glb);
      expect(Math.abs(inches[0] - picture[0])).toBeLessThan(0.01);
      expect(Math.abs(inches[1] - picture[1])).toBeLessThan(0.01);
      const doc = await readGlb(glb);
      expect(doc.getRoot().listMaterials().length).toBeLessThanOrEqual(10);
      expect(glb.length).toBeLessThan(15 * 1024 * 1024);
      // The same texture in every variant: one picture, never re-encoded per size.
      const texture = doc
        .getRoot()
        .listTextures()
        .find((t) => t.getName() === 'picture' || t.getURI().includes('picture'));
      expect(texture?.getImage()?.length ?? 0).toBeGreaterThan(0);

      const usdz = await bytes(v.usdz_url);
      const [uw, uh] = await usdzPictureInches(usdz);
      expect(Math.abs(uw - picture[0])).toBeLessThan(0.01);
      expect(Math.abs(uh - picture[1])).toBeLessThan(0.01);
      const poster = await fetch(v.preview_url);
      expect(poster.status).toBe(200);
    }
    expect(glbs.size).toBe(6);
    built = item;
  }, 240_000);

  it('rebuilds only the variant whose frame changed, and none for a new price', async () => {
    const price = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/items/${itemId}`, {
      variant_updates: [{ sku: 'STREET-A2', price: '€64' }],
    });
    expect(price.status).toBe(200);
    expect(price.body.variants[1].price).toBe('€64');
    expect(price.body.variants[1].glb_url).toBe(built.variants[1].glb_url);

    const edit = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/items/${itemId}`, {
      variant_updates: [{ sku: 'STREET-50x70-OAK', frame: { style: 'classic', color: 'walnut' } }],
    });
    expect(edit.status).toBe(202);
    expect(edit.body.rebuild_job_id).toMatch(/^v2_/);
    expect(edit.body.item.variants[2].build_job_id).toBe(edit.body.rebuild_job_id);
    // Its old files serve until the new ones are built.
    expect(edit.body.item.variants[2].glb_url).toBe(built.variants[2].glb_url);
    const after = await settled(api, showcaseId, itemId);
    const changed = after.variants.map((v: { glb_url: string }, k: number) => v.glb_url !== built.variants[k].glb_url);
    expect(changed).toEqual([false, false, true, false, false, false]);
    expect(after.variants[2].frame.color).toBe('walnut');
    // The build job shows what it made, for that variant only.
    const job = await api.req('GET', `/api/v2/jobs/${edit.body.rebuild_job_id}`);
    expect(job.body).toMatchObject({ status: 'completed', showcase_id: showcaseId, item_id: itemId });
    expect(job.body.variants).toEqual([expect.objectContaining({ variant_id: after.variants[2].id, glb_url: after.variants[2].glb_url })]);
    expect(after.variants[2].build_job_id).toBeUndefined();
    const glb = await bytes(after.variants[2].glb_url);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const { inches } = await glbPicture(glb);
    expect(Math.abs(inches[0] - 50 * CM)).toBeLessThan(0.01);
    // The replaced files are gone once the new ones serve; the job that built them was the item's own, so
    // its other files stay.
    expect((await fetch(after.variants[0].glb_url)).status).toBe(200);
    // Still one fetch of the source.
    expect(source.hits['/street.jpg']).toBe(1);
    built = after;
  }, 180_000);

  it('replaces the list by SKU: kept variants keep their files, a new one is built, a left-out one goes', async () => {
    const list = built.variants
      .filter((v: { sku: string }) => v.sku !== 'STREET-A2')
      .map((v: { sku: string }) => ({ sku: v.sku }))
      .concat([
        { sku: 'STREET-40x40-WHITE', width_cm: 40, height_cm: 40, frame: { style: 'thin', color: 'white' }, price: '€99', default: true },
      ]);
    const r = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/items/${itemId}`, { variants: list });
    expect(r.status).toBe(202);
    const after = await settled(api, showcaseId, itemId);
    expect(after.variants.map((v: { sku: string }) => v.sku)).toEqual(list.map((v: { sku: string }) => v.sku));
    for (const v of after.variants.slice(0, 5)) {
      expect(v.glb_url).toBe(built.variants.find((b: { sku: string }) => b.sku === v.sku).glb_url);
    }
    const added = after.variants[5];
    expect(added).toMatchObject({ status: 'ready', default: true, price: '€99' });
    expect([added.dimensions_cm.width_cm, added.dimensions_cm.height_cm]).toEqual([close(40), close(40)]);
    // The new default is what the item shows now.
    expect(after.glb_url).toBe(added.glb_url);
    expect(after.banner.price).toBe('€99');
  }, 180_000);

  it('refuses bad variants with 400s naming the field, and item-level sizes on an item with variants', async () => {
    const url = `${source.base}/bad.jpg`;
    const cases: [unknown, string][] = [
      [[{ sku: 'A' }, { sku: 'A' }], 'items[0].variants[1].sku'],
      [
        [
          { sku: 'A', default: true },
          { sku: 'B', default: true },
        ],
        'items[0].variants[1].default',
      ],
      [Array.from({ length: 25 }, (_, i) => ({ sku: `S${i}` })), 'items[0].variants'],
      [[{ sku: 'has space' }], 'items[0].variants[0].sku'],
      [[{ name: 'no sku' }], 'items[0].variants[0].sku'],
      [[{ sku: 'A', width_cm: 20 }], 'items[0].variants[0].height_cm'],
      [[{ sku: 'A', frame: 'canvas', mat: { width_inches: 2 } }], 'items[0].variants[0].mat'],
      [[{ sku: 'A', call_to_action: 'Buy' }], 'items[0].variants[0].call_to_action'],
      [[{ sku: 'A', colour: 'red' }], 'items[0].variants[0].colour'],
    ];
    for (const [variants, param] of cases) {
      const r = await api.req('POST', `/api/v2/showcases/${showcaseId}/items`, { items: [{ image_url: url, variants }] });
      expect([r.status, r.body.error?.param]).toEqual([400, param]);
    }
    const itemLevel = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/items/${itemId}`, { frame: 'thin' });
    expect(itemLevel.status).toBe(400);
    expect(itemLevel.body.error).toMatchObject({ code: 'item_has_variants', param: 'frame' });
    const unknown = await api.req('PATCH', `/api/v2/showcases/${showcaseId}/items/${itemId}`, {
      variant_updates: [{ sku: 'NOPE', price: '€1' }],
    });
    expect([unknown.status, unknown.body.error?.param]).toEqual([400, 'variant_updates[0].sku']);
    // Nothing was fetched or charged for the refused requests.
    expect(source.hits['/bad.jpg']).toBeUndefined();
  }, 60_000);

  it('deletes an item with every variant build and its files', async () => {
    const item = (await api.req('GET', `/api/v2/showcases/${showcaseId}/items/${itemId}`)).body;
    const urls = item.variants.map((v: { glb_url: string }) => v.glb_url);
    const del = await api.req('DELETE', `/api/v2/showcases/${showcaseId}/items/${itemId}`);
    expect(del.status).toBe(204);
    for (const u of urls) expect([404, 410]).toContain((await fetch(u)).status);
    for (const v of item.variants)
      if (v.build_job_id) expect((await api.req('GET', `/api/v2/jobs/${v.build_job_id}`)).status).not.toBe(200);
  }, 60_000);

  it('takes variants with uploads (multipart items field)', async () => {
    const form = new FormData();
    form.append(
      'items',
      JSON.stringify([
        {
          title: 'Upload',
          variants: [
            { sku: 'U-S', width_cm: 20, height_cm: 30 },
            { sku: 'U-L', width_cm: 40, height_cm: 60, frame: 'classic' },
          ],
        },
      ]),
    );
    form.append(
      'files',
      new Blob([readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg'))], { type: 'image/jpeg' }),
      'street.jpg',
    );
    const r = await fetch(`${api.base}/api/v2/showcases/${showcaseId}/items`, {
      method: 'POST',
      headers: { 'x-api-key': api.key },
      body: form,
    });
    expect(r.status).toBe(202);
    const body = (await r.json()) as { queued_jobs: { item_id: number }[] };
    const item = await settled(api, showcaseId, body.queued_jobs[0].item_id);
    expect(item.variants.map((v: { sku: string; status: string }) => [v.sku, v.status])).toEqual([
      ['U-S', 'ready'],
      ['U-L', 'ready'],
    ]);
    expect(item.variants[1].outer_dimensions.width_inches).toBeCloseTo(40 * CM + 3, 2);
  }, 120_000);
});
