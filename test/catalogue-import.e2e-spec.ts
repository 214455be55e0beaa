import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Api, freePort, sleep, spawnApp, tempDir, waitFor, waitHealthy } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { contractFor } from './support/openapi-contract';

/**
 * Catalogue imports (POST /api/v2/showcases/{id}/imports, GET /api/v2/imports/{id}) through the running
 * service, embedded (PGlite, in-process queue, the app in the test's process; scaled mode: test/scaled-smoke.e2e-spec.ts): a 1,000-row CSV with 5 % invalid
 * rows (dry run, then the import: counts, per-row errors, the CSV report), a re-import by external_id, credits
 * running out, a `;` CSV with decimal commas and a BOM, multipart files + CSV, JSON; and an import cut by a
 * restart of the process.
 */

const OWNER = 'owner-key-for-catalogue-import-e2e';

/** Tiny pictures (fast conversions) by URL; `?delay=ms` answers late, any other query is a distinct URL. */
async function pictureServer(): Promise<{ base: string; pictures: Buffer[]; stop: () => Promise<void> }> {
  const pictures = await Promise.all(
    ['#3a6ea5', '#a53a6e', '#6ea53a'].map((background) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background } })
        .jpeg()
        .toBuffer(),
    ),
  );
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const send = () => {
      if (url.pathname !== '/tiny.jpg') return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(pictures[0]);
    };
    const delay = Number(url.searchParams.get('delay') ?? 0);
    if (delay) setTimeout(send, delay);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pictures,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A request with any body (CSV, multipart), its JSON answer checked against the published document. */
async function send(api: Api, method: string, path: string, body?: string | Buffer | FormData, headers: Record<string, string> = {}) {
  const data = Buffer.isBuffer(body) ? new Uint8Array(body) : body;
  const r = await fetch(`${api.base}${path}`, { method, headers: { 'x-api-key': api.key, ...headers }, body: data });
  // Decoded as sent: fetch's text() would drop a byte-order mark.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await r.arrayBuffer());
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  (await contractFor(api.base)).check(method, path, r.status, r.headers.get('content-type'), parsed);
  return { status: r.status, body: parsed, text, headers: r.headers };
}

const importCsv = (api: Api, showcaseId: number, csv: string | Buffer, query = '') =>
  send(api, 'POST', `/api/v2/showcases/${showcaseId}/imports${query}`, csv, { 'content-type': 'text/csv' });

async function waitImport(api: Api, id: string, timeoutMs = 120_000): Promise<any> {
  return waitFor(
    async () => {
      const r = await api.req('GET', `/api/v2/imports/${id}`);
      return r.body.status === 'completed' && r.body;
    },
    timeoutMs,
    `import ${id} to complete`,
  );
}

const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;

/** The 1,000-row catalogue: every 20th row invalid, in five ways; a blank line in the middle (not numbered). */
function catalogue(media: string, rows = 1000) {
  const header = 'Image URL,Title,Artist,Year,Width CM,Height CM,frame,frame_color,availability,external_id,position';
  const lines = [header];
  const invalid: { row: number; field: string }[] = [];
  const FIRST_ID = '=HYPERLINK("https://evil.example")';
  for (let i = 1; i <= rows; i++) {
    const cells = {
      url: `${media}/tiny.jpg?n=${i}`,
      title: `Work ${i}`,
      artist: i % 2 ? 'Hilma af Klint' : '"Klint, Hilma af"',
      year: String(1900 + (i % 50)),
      width: '50',
      height: '40',
      frame: i % 3 ? 'classic' : '',
      color: i % 3 ? 'oak' : '',
      availability: i % 7 ? 'available' : 'sold',
      id: i === 1 ? `"${FIRST_ID.replace(/"/g, '""')}"` : `INV-${i}`,
      position: String(i),
    };
    if (i % 20 === 0) {
      const kind = (i / 20) % 5;
      const field = ['width_cm', 'image_url', 'frame', 'height_cm', 'external_id'][kind];
      if (kind === 0) cells.width = 'abc';
      if (kind === 1) cells.url = '';
      if (kind === 2) cells.frame = 'plaid';
      if (kind === 3) cells.height = '';
      // The same external_id as row 1: reported on this row, and its message starts with "=" (a formula in a spreadsheet).
      if (kind === 4) cells.id = `"${FIRST_ID.replace(/"/g, '""')}"`;
      invalid.push({ row: i, field });
    }
    lines.push(Object.values(cells).join(','));
    if (i === 500) lines.push(',,,,,,,,,,');
  }
  return { csv: `${lines.join('\r\n')}\r\n`, invalid };
}

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('catalogue imports', () => {
  let app: TestApp;
  let owner: Api;
  let media: Awaited<ReturnType<typeof pictureServer>>;
  let user: Api;
  let bigShowcase: number;

  beforeAll(async () => {
    media = await pictureServer();
    const env: Record<string, string> = {
      RATE_LIMIT_PER_KEY: '1000000',
      SHOWCASE_MAX_ITEMS: '1200',
      ACCOUNT_MAX_ACTIVE_JOBS: '2000',
      LOG_LEVEL: 'warn',
    };
    // Imports are the subject, not the embedded database: Postgres takes PGlite's CPU out of this process.
    app = await startServiceApp(OWNER, env, { database: 'postgres' });
    owner = new Api(app.base, OWNER);
    const u = await owner.req('POST', '/api/admin/users', {
      email: `imports@example.com`,
      credits: 2000,
      showcase_slots: 10,
    });
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    user = new Api(owner.base, k.body.key);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await media?.stop();
  });

  it('imports a 1,000-row CSV: the dry run charges nothing, the import creates, charges and reports each row', async () => {
    const { csv, invalid } = catalogue(media.base);
    const created = await user.req('POST', '/api/v2/showcases', { layout_choice: 'salon' });
    bigShowcase = created.body.id;
    const before = await balance(user);
    expect(before).toBe(1995);

    const dry = await importCsv(user, bigShowcase, csv, '?dry_run=true');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      object: 'import_preview',
      showcase_id: bigShowcase,
      counts: { rows: 1000, invalid: 50, created: 950, updated: 0, unchanged: 0, skipped: 0 },
      price: { credits: 1900, pictures: 950, per_picture: 2, balance: 1995 },
    });
    expect(dry.body.rows.map((r: { row: number; field: string }) => ({ row: r.row, field: r.field }))).toEqual(invalid);
    expect(await balance(user)).toBe(before);
    expect((await user.req('GET', `/api/v2/showcases/${bigShowcase}`)).body.items).toHaveLength(0);

    const started = await importCsv(user, bigShowcase, csv);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      id: expect.stringMatching(/^imp_/),
      object: 'import',
      status: 'running',
      showcase_id: bigShowcase,
    });
    expect(started.body.counts.rows).toBe(1000);
    const done = await waitImport(user, started.body.id);
    expect(done.counts).toMatchObject({ rows: 1000, invalid: 50, created: 950, updated: 0, unchanged: 0, skipped: 0, processed: 1000 });
    expect(done.counts.queued + done.counts.completed + done.counts.failed).toBe(950);
    expect(done.credits_charged).toBe(1900);
    expect(done.finished_at).toEqual(expect.any(String));
    expect(await balance(user)).toBe(95);
    expect(done.rows.map((r: { row: number; field: string }) => ({ row: r.row, field: r.field }))).toEqual(invalid);
    expect(done.rows.every((r: { status: string }) => r.status === 'invalid')).toBe(true);
    expect(done.rows.find((r: { row: number }) => r.row === 20)).toMatchObject({ field: 'image_url', message: 'required' });
    expect(done.rows.find((r: { row: number }) => r.row === 80)).toMatchObject({
      message: `=HYPERLINK("https://evil.example") is also row 1's`,
    });
    expect(done.rows.find((r: { row: number }) => r.row === 100)).toMatchObject({
      field: 'width_cm',
      message: expect.stringContaining('"abc"'),
    });

    const s = (await user.req('GET', `/api/v2/showcases/${bigShowcase}`)).body;
    expect(s.items).toHaveLength(950);
    // The gallery's order (position) and labels, as the rows gave them.
    expect(s.items[1]).toMatchObject({ external_id: 'INV-2', artist: 'Klint, Hilma af', year: '1902', position: 2 });
    expect(s.items.find((i: { external_id: string }) => i.external_id === 'INV-7')).toMatchObject({ availability: 'sold' });

    // Some convert while we look (each row's job), then the rest is cancelled to leave the CPU to the next tests.
    const all = (await user.req('GET', `/api/v2/imports/${done.id}?rows=all`)).body.rows as {
      row: number;
      status: string;
      job_id: string | null;
    }[];
    expect(all).toHaveLength(1000);
    const jobs = all.filter((r) => r.job_id).map((r) => r.job_id!);
    expect(jobs).toHaveLength(950);
    await waitFor(async () => (await user.req('GET', `/api/v2/imports/${done.id}`)).body.counts.completed >= 10, 120_000, 'ten pictures');
    for (const j of jobs) await user.req('POST', `/api/v2/jobs/${j}/cancel`);
    const settled = await waitFor(
      async () => {
        const c = (await user.req('GET', `/api/v2/imports/${done.id}`)).body.counts;
        return c.queued === 0 && c;
      },
      60_000,
      'the cancelled jobs',
    );
    expect(settled.completed + settled.failed).toBe(950);
    expect(settled.completed).toBeGreaterThanOrEqual(10);
    // Each cancelled picture is refunded its 2.0, once.
    await waitFor(async () => (await balance(user)) === 95 + 2 * settled.failed, 30_000, 'the refunds');

    // The report as CSV: a BOM, the header, the rows; a cell that would be a formula starts with '.
    const report = await send(user, 'GET', `/api/v2/imports/${done.id}?format=csv`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(report.headers.get('content-disposition')).toBe(`attachment; filename="${done.id}.csv"`);
    const lines = report.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(report.text.startsWith('\uFEFF')).toBe(true);
    expect(lines[0]).toBe('row,status,field,message,item_id,job_id');
    expect(lines.find((l) => l.startsWith('20,'))).toBe('20,invalid,image_url,required,,');
    expect(lines.find((l) => l.startsWith('80,'))).toBe(`80,invalid,external_id,"'=HYPERLINK(""https://evil.example"") is also row 1's",,`);
    expect(lines.find((l) => l.startsWith('100,'))).toBe('100,invalid,width_cm,"must be a number (with a decimal point), not ""abc""",,');
    // The failed (cancelled) conversions are in the report too, in row order with the invalid rows.
    expect(lines.filter((l) => /^\d+,failed,,conversion failed: .*cancelled/.test(l))).toHaveLength(settled.failed);
    expect(lines.length - 1).toBe(50 + settled.failed);
    const accept = await send(user, 'GET', `/api/v2/imports/${done.id}`, undefined, { accept: 'text/csv' });
    expect(accept.text).toBe(report.text);

    // Another account sees nothing.
    const o = await owner.req('POST', '/api/admin/users', { email: `other@example.com` });
    const k = await owner.req('POST', `/api/admin/users/${o.body.id}/keys`);
    expect((await new Api(owner.base, k.body.key).req('GET', `/api/v2/imports/${done.id}`)).status).toBe(404);
    expect((await user.req('GET', '/api/v2/imports/imp_nosuchimport')).status).toBe(404);
  }, 400_000);

  it('updates the items it finds by external_id: a changed label is updated, an identical row unchanged, a new one created', async () => {
    const header = 'Image URL,Title,Artist,Year,Width CM,Height CM,frame,frame_color,availability,external_id,position\r\n';
    const row = (i: number, artist: string) =>
      `${media.base}/tiny.jpg?n=${i},Work ${i},${artist},${1900 + (i % 50)},50,40,classic,oak,available,INV-${i},${i}\r\n`;
    const csv = header + row(11, 'Gabriele Münter') + row(13, 'Hilma af Klint') + row(5000, 'New');
    const before = await balance(user);
    const dry = await importCsv(user, bigShowcase, csv, '?dry_run=true');
    expect(dry.body.counts).toEqual({ rows: 3, invalid: 0, created: 1, updated: 1, unchanged: 1, skipped: 0 });
    expect(dry.body.price).toMatchObject({ credits: 2, pictures: 1 });
    const done = await waitImport(user, (await importCsv(user, bigShowcase, csv)).body.id);
    expect(done.counts).toMatchObject({ rows: 3, created: 1, updated: 1, unchanged: 1, invalid: 0, skipped: 0 });
    const rows = (await user.req('GET', `/api/v2/imports/${done.id}?rows=all`)).body.rows;
    expect(rows.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
      [1, 'updated'],
      [2, 'unchanged'],
      [3, expect.stringMatching(/created|failed/)],
    ]);
    const item = (await user.req('GET', `/api/v2/showcases/${bigShowcase}/items/${rows[0].item_id}`)).body;
    expect(item).toMatchObject({ external_id: 'INV-11', artist: 'Gabriele Münter' });
    expect((await user.req('GET', `/api/v2/showcases/${bigShowcase}`)).body.items).toHaveLength(951);
    expect(await balance(user)).toBe(before - 2);
  }, 120_000);

  it('skips the new rows it cannot pay for (insufficient_credits) and charges exactly the rows it created', async () => {
    const u = await owner.req('POST', '/api/admin/users', { email: `credits@example.com`, credits: 94, showcase_slots: 1 });
    const payer = new Api(owner.base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
    const s = (await payer.req('POST', '/api/v2/showcases', {})).body.id;
    expect(await balance(payer)).toBe(89);
    // 50 rows at 2.0: 44 are paid for (88 credits), the other 6 skipped, in charges of at most 20; 1.0 is left.
    const lines = [
      'image_url,title,external_id',
      ...Array.from({ length: 50 }, (_, i) => `${media.base}/tiny.jpg?c=${i},Card ${i + 1},C-${i + 1}`),
    ];
    const dry = await importCsv(payer, s, lines.join('\n'), '?dry_run=true');
    expect(dry.body.counts).toMatchObject({ rows: 50, created: 44, skipped: 6 });
    expect(dry.body.price).toMatchObject({ credits: 88, balance: 89 });
    const done = await waitImport(payer, (await importCsv(payer, s, lines.join('\n'))).body.id);
    expect(done.counts).toMatchObject({ rows: 50, created: 44, skipped: 6, invalid: 0 });
    expect(done.credits_charged).toBe(88);
    expect(done.rows.filter((r: { status: string }) => r.status === 'skipped')).toEqual(
      [45, 46, 47, 48, 49, 50].map((row) => ({
        row,
        status: 'skipped',
        field: null,
        message: 'insufficient_credits',
        item_id: null,
        job_id: null,
      })),
    );
    expect(await balance(payer)).toBe(1);
    expect((await payer.req('GET', `/api/v2/showcases/${s}`)).body.items).toHaveLength(44);
  }, 120_000);

  it('reads a ";" CSV with decimal commas and a byte-order mark', async () => {
    const s = (await user.req('POST', '/api/v2/showcases', {})).body.id;
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        'Image URL;Titel;Width CM;Height CM;Depth CM;mat_width_inches;frame\r\n' +
          `${media.base}/tiny.jpg?s=1;"Sonne; Mond";30,5;40,25;;1,5;thin\r\n` +
          `${media.base}/tiny.jpg?s=2;Zwei;1.234;40;;;\r\n` +
          `${media.base}/tiny.jpg?s=3;Drei;20;10;2,54;;canvas\r\n`,
      ),
    ]);
    const bad = await importCsv(user, s, csv);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_unknown', param: 'titel' });
    const ok = Buffer.from(csv.toString().replace('Titel', 'Title'));
    const done = await waitImport(user, (await importCsv(user, s, ok)).body.id);
    expect(done.counts).toMatchObject({ rows: 3, created: 2, invalid: 1 });
    // "1.234" could be 1234 or 1.234: not read.
    expect(done.rows).toEqual([expect.objectContaining({ row: 2, status: 'invalid', field: 'width_cm' })]);
    const items = await waitFor(
      async () => {
        const it = (await user.req('GET', `/api/v2/showcases/${s}`)).body.items;
        return it.every((i: { status: string }) => i.status === 'completed') && it;
      },
      120_000,
      'the pictures',
    );
    expect(items[0]).toMatchObject({ banner: { title: 'Sonne; Mond' }, dimensions_cm: { width_cm: 30.5, height_cm: 40.25 } });
    expect(items[0].mat).toMatchObject({ width_inches: 1.5 });
    expect(items[1]).toMatchObject({ dimensions_cm: { width_cm: 20, height_cm: 10 } });
    expect(items[1].frame).toMatchObject({ style: 'canvas', depth_inches: 1 });
  }, 180_000);

  it('imports picture files with a CSV naming them (multipart), and JSON items', async () => {
    const s = (await user.req('POST', '/api/v2/showcases', {})).body.id;
    const form = new FormData();
    form.append(
      'csv',
      new Blob(
        [
          'file,title,external_id,width_inches,height_inches\nred.jpg,Red,F-1,8,6\nblue.jpg,Blue,F-2,,\ngreen.jpg,Green,F-3,4,3\nnone.jpg,None,F-4,,\n',
        ],
        {
          type: 'text/csv',
        },
      ),
      'catalogue.csv',
    );
    for (const [i, name] of ['blue.jpg', 'red.jpg', 'green.jpg'].entries())
      form.append('files', new Blob([new Uint8Array(media.pictures[i])], { type: 'image/jpeg' }), name);
    const started = await send(user, 'POST', `/api/v2/showcases/${s}/imports`, form);
    expect(started.status).toBe(202);
    const done = await waitImport(user, started.body.id);
    expect(done.counts).toMatchObject({ rows: 4, created: 3, invalid: 1 });
    expect(done.rows).toEqual([
      {
        row: 4,
        status: 'invalid',
        field: 'file',
        message: 'no file part named "none.jpg" (the filename of a part named "files")',
        item_id: null,
        job_id: null,
      },
    ]);
    const items = await waitFor(
      async () => {
        const it = (await user.req('GET', `/api/v2/showcases/${s}`)).body.items;
        return it.length === 3 && it.every((i: { status: string }) => i.status === 'completed') && it;
      },
      120_000,
      'the uploaded pictures',
    );
    expect(items.map((i: { source: string; filename: string; external_id: string }) => [i.source, i.filename, i.external_id])).toEqual([
      ['upload', 'red.jpg', 'F-1'],
      ['upload', 'blue.jpg', 'F-2'],
      ['upload', 'green.jpg', 'F-3'],
    ]);
    expect(items[0].dimensions).toEqual({ width_inches: 8, height_inches: 6 });

    const json = await user.req('POST', `/api/v2/showcases/${s}/imports`, {
      items: [
        { image_url: `${media.base}/tiny.jpg?j=1`, title: 'J', external_id: 'F-1', artist: 'Now labelled' },
        { image_url: `${media.base}/tiny.jpg?j=2`, frame: { style: 'classic', color: 'plaid' } },
      ],
    });
    expect(json.status).toBe(202);
    const jdone = await waitImport(user, json.body.id);
    expect(jdone.counts).toMatchObject({ rows: 2, updated: 1, invalid: 1 });
    expect(jdone.rows).toEqual([expect.objectContaining({ row: 2, field: 'frame.color' })]);
  }, 180_000);

  it('refuses a body that is not an import as a whole, storing nothing', async () => {
    const s = bigShowcase;
    expect((await user.req('POST', `/api/v2/showcases/${s}/imports`, { items: [] })).body.error).toMatchObject({ param: 'items' });
    expect((await importCsv(user, s, 'image_url,title\n')).body.error).toMatchObject({ code: 'parameter_missing' });
    expect((await importCsv(user, s, 'image_url,title\n"x,y\n')).body.error).toMatchObject({ code: 'invalid_csv' });
    expect((await importCsv(user, 999999, 'image_url\nhttps://x.example/a.jpg\n')).status).toBe(404);
    // Other routes still refuse CSV bodies.
    expect((await send(user, 'POST', `/api/v2/showcases/${s}/items`, 'a,b\n', { 'content-type': 'text/csv' })).status).toBe(415);
  });
});

describe('an import cut by a restart (embedded)', () => {
  it('waits at the active-job cap, and a restart completes it with the rows not reached reported "interrupted"', async () => {
    const media = await pictureServer();
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: tempDir(),
      OWNER_API_KEY: OWNER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      ACCOUNT_MAX_ACTIVE_JOBS: '3',
      LOG_LEVEL: 'warn',
    };
    let app = spawnApp('api', env);
    try {
      await waitHealthy(`http://127.0.0.1:${port}`, app, 60_000);
      const owner = new Api(`http://127.0.0.1:${port}`, OWNER);
      const u = await owner.req('POST', '/api/admin/users', { email: 'restart@example.com', credits: 100, showcase_slots: 1 });
      const user = new Api(owner.base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
      const s = (await user.req('POST', '/api/v2/showcases', {})).body.id;
      // Slow pictures: with at most 3 jobs at once the import goes at their pace.
      const csv = [
        'image_url,external_id',
        ...Array.from({ length: 30 }, (_, i) => `${media.base}/tiny.jpg?delay=3000&r=${i},R-${i + 1}`),
      ].join('\n');
      const started = await importCsv(user, s, csv);
      expect(started.status).toBe(202);
      const partway = await waitFor(
        async () => {
          const b = (await user.req('GET', `/api/v2/imports/${started.body.id}`)).body;
          return b.counts.created >= 3 && b;
        },
        30_000,
        'the first pictures',
      );
      expect(partway.status).toBe('running');
      await sleep(500);
      // Never past the cap: the import waits for the account's jobs.
      expect((await user.req('GET', `/api/v2/imports/${started.body.id}`)).body.counts.created).toBeLessThanOrEqual(6);
      await app.kill('SIGKILL');

      app = spawnApp('api', env);
      await waitHealthy(`http://127.0.0.1:${port}`, app, 60_000);
      const after = (await user.req('GET', `/api/v2/imports/${started.body.id}`)).body;
      expect(after.status).toBe('completed');
      expect(after.counts.rows).toBe(30);
      expect(after.counts.processed).toBe(30);
      expect(after.counts.created + after.counts.skipped).toBe(30);
      const interrupted = after.rows.filter((r: { message: string }) => r.message === 'interrupted');
      expect(interrupted).toHaveLength(after.counts.skipped);
      expect(interrupted[0]).toMatchObject({ status: 'skipped', field: null, row: after.counts.created + 1 });
      // Charged for exactly the pictures created.
      expect((await user.req('GET', '/api/v2/me')).body.credits).toBe(95 - 2 * after.counts.created);
      expect((await user.req('GET', `/api/v2/showcases/${s}`)).body.items).toHaveLength(after.counts.created);
    } finally {
      await app.kill('SIGKILL');
      await media.stop();
    }
  }, 180_000);
});
