import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { contractFor } from './support/openapi-contract';

/**
 * Catalogue imports with variants (one row per variant, grouped by external_id) through the running service,
 * embedded (PGlite, in-process queue, the app in the test's process; scaled mode: test/scaled-smoke.e2e-spec.ts): a CSV of two items × three variants and a plain
 * row makes three items and three charges, each variant at its size and price; a re-import that changes one
 * variant's frame rebuilds that variant only (the others keep their files) and says so per row, its dry run too;
 * a group whose rows disagree on the item is refused whole; JSON (flat rows and variants lists) and multipart.
 */

const OWNER = 'owner-key-for-catalogue-import-variants-e2e';

/** Tiny pictures (fast conversions) by URL: any path ending in .jpg, any query. */
async function pictureServer(): Promise<{ base: string; picture: Buffer; stop: () => Promise<void> }> {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6ea5' } })
    .jpeg()
    .toBuffer();
  const server: Server = createServer((req, res) => {
    if (!new URL(req.url!, 'http://x').pathname.endsWith('.jpg')) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    picture,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A request with any body (CSV, multipart), its JSON answer checked against the published document. */
async function send(api: Api, method: string, path: string, body?: string | FormData, headers: Record<string, string> = {}) {
  const r = await fetch(`${api.base}${path}`, { method, headers: { 'x-api-key': api.key, ...headers }, body });
  const text = await r.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  (await contractFor(api.base)).check(method, path, r.status, r.headers.get('content-type'), parsed);
  return { status: r.status, body: parsed, text };
}

const importCsv = (api: Api, showcaseId: number, csv: string, query = '') =>
  send(api, 'POST', `/api/v2/showcases/${showcaseId}/imports${query}`, csv, { 'content-type': 'text/csv' });

async function waitImport(api: Api, id: string): Promise<any> {
  return waitFor(
    async () => {
      const r = await api.req('GET', `/api/v2/imports/${id}?rows=all`);
      return r.body.status === 'completed' && r.body;
    },
    120_000,
    `import ${id} to complete`,
  );
}

type Row = { row: number; status: string; field: string | null; message: string; item_id: number | null; job_id: string | null };
const CM = 1 / 2.54;
const close = (v: number) => expect.closeTo(v, 2);

const HEADER = 'external_id,image_url,title,artist,sku,variant_name,variant_default,price,width_cm,height_cm,frame,frame_color';

/** Two items × three variants and a plain row; `oak`: the frame colour of DUNES-50x70. */
function catalogue(media: string, opts: { oak?: string; harbourTitle?: string } = {}) {
  return [
    HEADER,
    `DUNES,${media}/dunes.jpg,Dunes,Ada Lovelace,DUNES-A3,A3 print,,€39,29.7,42,,`,
    `DUNES,,,,DUNES-50x70,"50 × 70 cm, oak",yes,€149,50,70,classic,${opts.oak ?? 'oak'}`,
    `DUNES,${media}/dunes.jpg,Dunes,,DUNES-70x100,,,€249,70,100,thin,black`,
    `PLAIN,${media}/plain.jpg,Plain,,,,,€10,20,30,,`,
    `HARBOUR,${media}/harbour.jpg,${opts.harbourTitle ?? 'Harbour'},,HARB-S,Small,,€20,20,30,,`,
    `HARBOUR,,,,HARB-M,Medium,,€30,30,45,,`,
    `HARBOUR,,,,HARB-L,Large,,€40,40,60,canvas,`,
  ].join('\r\n');
}

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('catalogue imports with variants', () => {
  let app: TestApp;
  let owner: Api;
  let media: Awaited<ReturnType<typeof pictureServer>>;
  let user: Api;
  let showcase: number;

  beforeAll(async () => {
    media = await pictureServer();
    const env: Record<string, string> = {
      RATE_LIMIT_PER_KEY: '1000000',
      LOG_LEVEL: 'warn',
    };
    // Imports are the subject, not the embedded database: Postgres takes PGlite's CPU out of this process.
    app = await startServiceApp(OWNER, env, { database: 'postgres' });
    owner = new Api(app.base, OWNER);
    const u = await owner.req('POST', '/api/admin/users', {
      email: `variants-import@example.com`,
      credits: 100,
      showcase_slots: 5,
    });
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    user = new Api(owner.base, k.body.key);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await media?.stop();
  });

  const balance = async () => (await user.req('GET', '/api/v2/me')).body.credits as number;

  /** The showcase's items once every picture and variant is built (none building). */
  async function settledItems(s: number, n: number): Promise<any[]> {
    return waitFor(
      async () => {
        const items = (await user.req('GET', `/api/v2/showcases/${s}`)).body.items as any[];
        const busy = items.some(
          (i) =>
            i.status !== 'completed' ||
            i.variants?.some((v: { status: string; build_job_id?: string }) => v.status !== 'ready' || v.build_job_id),
        );
        return items.length === n && !busy && items;
      },
      180_000,
      'the pictures and their variants',
    );
  }

  let before: any[];

  it('makes one item per group of variant rows: three items, three charges, each variant at its size and price', async () => {
    showcase = (await user.req('POST', '/api/v2/showcases', { units: 'cm' })).body.id;
    const credits = await balance();
    const csv = catalogue(media.base);

    const dry = await importCsv(user, showcase, csv, '?dry_run=true');
    expect(dry.status).toBe(200);
    expect(dry.body.counts).toEqual({ rows: 7, invalid: 0, created: 7, updated: 0, unchanged: 0, skipped: 0 });
    expect(dry.body.price).toMatchObject({ pictures: 3, credits: 6, per_picture: 2 });

    const started = await importCsv(user, showcase, csv);
    expect(started.status).toBe(202);
    const done = await waitImport(user, started.body.id);
    expect(done.counts).toMatchObject({ rows: 7, invalid: 0, created: 7, updated: 0, unchanged: 0, skipped: 0, processed: 7 });
    // One charge per picture: a group of variant rows is one picture.
    expect(done.credits_charged).toBe(6);
    expect(await balance()).toBe(credits - 6);
    const rows = done.rows as Row[];
    expect(rows.map((r) => [r.row, r.status])).toEqual([1, 2, 3, 4, 5, 6, 7].map((row) => [row, 'created']));
    // Each row reports its item (and the item's job): rows 1-3 one item, row 4 another, rows 5-7 a third.
    expect(new Set(rows.slice(0, 3).map((r) => `${r.item_id} ${r.job_id}`)).size).toBe(1);
    expect(new Set(rows.slice(4).map((r) => `${r.item_id} ${r.job_id}`)).size).toBe(1);
    expect(new Set(rows.map((r) => r.item_id)).size).toBe(3);

    const items = await settledItems(showcase, 3);
    const [dunes, plain, harbour] = ['DUNES', 'PLAIN', 'HARBOUR'].map((e) => items.find((i) => i.external_id === e));
    expect(dunes).toMatchObject({ id: rows[0].item_id, artist: 'Ada Lovelace', banner: { title: 'Dunes', price: '€149' } });
    expect(
      dunes.variants.map((v: any) => [v.sku, v.name, v.default, v.price, v.width_cm, v.height_cm, v.frame.style, v.frame.color]),
    ).toEqual([
      ['DUNES-A3', 'A3 print', false, '€39', 29.7, 42, 'none', 'white'],
      ['DUNES-50x70', '50 × 70 cm, oak', true, '€149', 50, 70, 'classic', 'oak'],
      ['DUNES-70x100', null, false, '€249', 70, 100, 'thin', 'black'],
    ]);
    for (const [k, [w, h]] of [
      [29.7, 42],
      [50, 70],
      [70, 100],
    ].entries())
      expect([dunes.variants[k].dimensions.width_inches, dunes.variants[k].dimensions.height_inches]).toEqual([
        close(w * CM),
        close(h * CM),
      ]);
    // The item shows its default variant.
    expect(dunes.glb_url).toBe(dunes.variants[1].glb_url);
    expect(new Set(dunes.variants.map((v: { glb_url: string }) => v.glb_url)).size).toBe(3);
    expect(plain.variants).toBeNull();
    expect(plain).toMatchObject({ banner: { price: '€10' }, dimensions_cm: { width_cm: 20, height_cm: 30 } });
    expect(harbour.variants.map((v: any) => [v.sku, v.default, v.price, v.dimensions_cm.width_cm])).toEqual([
      ['HARB-S', true, '€20', close(20)],
      ['HARB-M', false, '€30', close(30)],
      ['HARB-L', false, '€40', close(40)],
    ]);
    expect(harbour.variants[2].frame).toMatchObject({ style: 'canvas' });
    before = items;
  }, 240_000);

  it("re-imports: one variant's changed frame rebuilds that variant only, the report says which rows changed (dry run too)", async () => {
    const credits = await balance();
    const csv = catalogue(media.base, { oak: 'walnut', harbourTitle: 'Harbour at dusk' });

    const dry = await importCsv(user, showcase, csv, '?dry_run=true');
    expect(dry.status).toBe(200);
    expect(dry.body.counts).toEqual({ rows: 7, invalid: 0, created: 0, updated: 2, unchanged: 5, skipped: 0 });
    expect(dry.body.price).toMatchObject({ pictures: 0, credits: 0 });
    expect(dry.body.rows).toEqual([]);

    const done = await waitImport(user, (await importCsv(user, showcase, csv)).body.id);
    expect(done.counts).toMatchObject({ rows: 7, invalid: 0, created: 0, updated: 2, unchanged: 5, skipped: 0 });
    expect(done.credits_charged).toBe(0);
    const rows = done.rows as Row[];
    // Row 2 (DUNES-50x70) is rebuilt: its row names the build job; row 5 (HARBOUR's title, the item's first row) changes at once.
    expect(rows.map((r) => [r.row, r.status, r.message, r.job_id === null ? null : 'job'])).toEqual([
      [1, 'unchanged', 'unchanged', null],
      [2, 'updated', 'updated', 'job'],
      [3, 'unchanged', 'unchanged', null],
      [4, 'unchanged', 'unchanged', null],
      [5, 'updated', 'updated', null],
      [6, 'unchanged', 'unchanged', null],
      [7, 'unchanged', 'unchanged', null],
    ]);
    expect(rows[1].job_id).toMatch(/^v2_/);

    const items = await settledItems(showcase, 3);
    const dunes = items.find((i) => i.external_id === 'DUNES');
    const was = before.find((i) => i.external_id === 'DUNES');
    expect(dunes.variants.map((v: { glb_url: string }, k: number) => v.glb_url !== was.variants[k].glb_url)).toEqual([false, true, false]);
    expect(dunes.variants[1].frame).toMatchObject({ style: 'classic', color: 'walnut' });
    expect(dunes.variants.map((v: { id: string }) => v.id)).toEqual(was.variants.map((v: { id: string }) => v.id));
    const harbour = items.find((i) => i.external_id === 'HARBOUR');
    expect(harbour.banner.title).toBe('Harbour at dusk');
    expect(harbour.variants.map((v: { glb_url: string }) => v.glb_url)).toEqual(
      before.find((i) => i.external_id === 'HARBOUR').variants.map((v: { glb_url: string }) => v.glb_url),
    );
    // The build job made that variant only.
    const job = await user.req('GET', `/api/v2/jobs/${rows[1].job_id}`);
    expect(job.body).toMatchObject({ status: 'completed', item_id: dunes.id });
    expect(job.body.variants).toEqual([expect.objectContaining({ variant_id: dunes.variants[1].id })]);
    expect(await balance()).toBe(credits);

    // The same file again: nothing changes.
    const again = await waitImport(user, (await importCsv(user, showcase, csv)).body.id);
    expect(again.counts).toMatchObject({ rows: 7, updated: 0, unchanged: 7 });
  }, 240_000);

  it('refuses a group whose rows disagree on the item (each row reported, nothing created), and too many rows', async () => {
    const s = (await user.req('POST', '/api/v2/showcases', {})).body.id;
    const credits = await balance();
    const csv = [
      HEADER,
      `MIXED,${media.base}/m.jpg,Mixed,,MIX-1,,,€1,20,30,,`,
      `MIXED,${media.base}/other.jpg,,,MIX-2,,,€2,30,45,,`,
      `MIXED,,Not mixed,,MIX-3,,,€3,40,60,,`,
      `OK,${media.base}/ok.jpg,OK,,OK-1,,,€1,20,30,,`,
      `OK,,,,OK-2,,,€2,30,45,classic,plaid`,
      `FINE,${media.base}/fine.jpg,Fine,,FINE-1,,,€1,20,30,,`,
      ...Array.from({ length: 25 }, (_, i) => `BIG,${media.base}/big.jpg,,,BIG-${i + 1},,,,,,,`),
    ].join('\n');
    const expected = [
      { row: 1, status: 'invalid', field: null, message: 'not imported: row 2 of the same item (external_id MIXED) is invalid' },
      { row: 2, status: 'invalid', field: 'image_url', message: expect.stringContaining("not row 1's picture") },
      { row: 3, status: 'invalid', field: 'title', message: expect.stringContaining("differs from row 1's") },
      { row: 4, status: 'invalid', field: null, message: 'not imported: row 5 of the same item (external_id OK) is invalid' },
      { row: 5, status: 'invalid', field: 'frame_color', message: expect.any(String) },
    ];
    const dry = await importCsv(user, s, csv, '?dry_run=true');
    expect(dry.body.counts).toEqual({ rows: 31, invalid: 30, created: 1, updated: 0, unchanged: 0, skipped: 0 });
    expect(dry.body.rows.slice(0, 5)).toEqual(expected.map(({ status: _s, item_id: _i, job_id: _j, ...r }: any) => r));
    const done = await waitImport(user, (await importCsv(user, s, csv)).body.id);
    expect(done.counts).toMatchObject({ rows: 31, invalid: 30, created: 1 });
    const rows = done.rows as Row[];
    expect(rows.slice(0, 5)).toEqual(expected.map((r) => ({ item_id: null, job_id: null, ...r })));
    expect(rows[5]).toMatchObject({ row: 6, status: 'created' });
    expect(rows[30]).toMatchObject({
      row: 31,
      field: 'sku',
      message: 'an item has at most 24 variants: external_id BIG has 25 variant rows',
    });
    expect(rows.slice(6, 30).every((r) => r.message === 'not imported: row 31 of the same item (external_id BIG) is invalid')).toBe(true);
    // Only FINE was created and charged.
    expect(done.credits_charged).toBe(2);
    expect(await balance()).toBe(credits - 2);
    const items = (await user.req('GET', `/api/v2/showcases/${s}`)).body.items;
    expect(items.map((i: { external_id: string }) => i.external_id)).toEqual(['FINE']);
    // The report as CSV: one line per row.
    const report = await send(user, 'GET', `/api/v2/imports/${done.id}?format=csv&rows=all`);
    const lines = report.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(32);
    expect(lines[1]).toBe('1,invalid,,not imported: row 2 of the same item (external_id MIXED) is invalid,,');
  }, 120_000);

  it('takes JSON items as flat variant rows or with a variants list, and multipart files with variant rows', async () => {
    const s = (await user.req('POST', '/api/v2/showcases', {})).body.id;
    const credits = await balance();
    const json = await user.req('POST', `/api/v2/showcases/${s}/imports`, {
      items: [
        {
          external_id: 'FLAT',
          image_url: `${media.base}/flat.jpg`,
          title: 'Flat',
          sku: 'FLAT-S',
          price: '$5',
          width_inches: 8,
          height_inches: 10,
        },
        {
          external_id: 'FLAT',
          sku: 'FLAT-L',
          variant_default: true,
          price: '$9',
          width_inches: 16,
          height_inches: 20,
          frame: { style: 'thin', color: 'black' },
        },
        {
          external_id: 'NESTED',
          image_url: `${media.base}/nested.jpg`,
          variants: [
            { sku: 'N-1', width_cm: 20, height_cm: 30 },
            { sku: 'N-2', width_cm: 40, height_cm: 60, default: true },
          ],
        },
      ],
    });
    expect(json.status).toBe(202);
    const jdone = await waitImport(user, json.body.id);
    expect(jdone.counts).toMatchObject({ rows: 3, created: 3, invalid: 0 });
    expect(jdone.credits_charged).toBe(4);

    const form = new FormData();
    form.append(
      'csv',
      new Blob(['external_id,file,sku,width_inches,height_inches\nUP,up.jpg,UP-S,8,10\nUP,up.jpg,UP-M,12,15\nUP,,UP-L,16,20\n']),
      'c.csv',
    );
    form.append('files', new Blob([new Uint8Array(media.picture)], { type: 'image/jpeg' }), 'up.jpg');
    const multi = await send(user, 'POST', `/api/v2/showcases/${s}/imports`, form);
    expect(multi.status).toBe(202);
    const mdone = await waitImport(user, multi.body.id);
    expect(mdone.counts).toMatchObject({ rows: 3, created: 3, invalid: 0 });
    expect(mdone.credits_charged).toBe(2);
    expect(await balance()).toBe(credits - 6);

    const items = await settledItems(s, 3);
    const by = (e: string) => items.find((i) => i.external_id === e);
    expect(by('FLAT').variants.map((v: any) => [v.sku, v.default, v.price, v.dimensions.width_inches])).toEqual([
      ['FLAT-S', false, '$5', close(8)],
      ['FLAT-L', true, '$9', close(16)],
    ]);
    expect(by('NESTED').variants.map((v: any) => [v.sku, v.default])).toEqual([
      ['N-1', false],
      ['N-2', true],
    ]);
    expect(by('UP')).toMatchObject({ source: 'upload', filename: 'up.jpg' });
    expect(by('UP').variants.map((v: any) => v.dimensions.width_inches)).toEqual([close(8), close(12), close(16)]);
  }, 240_000);
});
