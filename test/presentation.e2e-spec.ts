import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
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
import { startMediaServer } from './support/media-server';
import { quadrantPicture } from '@app/testing';
import { testCertificate } from './support/tls';

/**
 * Wall-ready AR: the presentation fields (placement, allow_scaling, finish, frame, mat, banner) of
 * POST /api/v1/convert, /api/v2/showcases (defaults + items), /api/v2/showcases/{id}/items (JSON and
 * multipart) and /api/v2/animated-ar. One process on Postgres + Redis, so the tests read the stored job
 * inputs straight from the database.
 *
 * Tests named "[result echo]" check what the pipeline writes back into the result (frame, mat,
 * outer_dimensions, banner...): they depend on the scene / writer stages, not on the request side.
 */

const OWNER = 'owner-key-for-presentation-e2e-tests';
// A spawned process, not the in-process test app: the service must trust the test's https certificate, and Node
// reads NODE_EXTRA_CA_CERTS only when a process starts.
let app: AppProcess;
let owner: Api;
let db: { url: string; drop: () => Promise<void> };
let pg: Client;
let dataDir: string;
let media: Awaited<ReturnType<typeof startMediaServer>>;

/** A picture 300 x 200: 36 x 24 inches by default. */
let wide: Buffer;

async function animatedGif(): Promise<Buffer> {
  const w = 40,
    h = 40,
    n = 4;
  const strip = Buffer.alloc(w * h * n * 4);
  for (let f = 0; f < n; f++) for (let i = 0; i < w * h; i++) strip.set([f * 60, 120, 200 - f * 40, 255], (f * w * h + i) * 4);
  return sharp(strip, { raw: { width: w, height: h * n, channels: 4, pageHeight: h } })
    .gif({ delay: Array(n).fill(100), loop: 0 })
    .toBuffer();
}

beforeAll(async () => {
  const tls = testCertificate();
  wide = (await quadrantPicture(300, 200)).png;
  media = await startMediaServer({ '/wide.png': wide, '/anim.gif': await animatedGif() }, { tls });
  db = await createTestDatabase({ migrated: true });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  const port = await freePort();
  dataDir = tempDir();
  app = spawnApp('api', {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    OWNER_API_KEY: OWNER,
    DATABASE_URL: db.url,
    REDIS_URL,
    QUEUE_NAME: `presentation-${Date.now()}-${Math.random()}`,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_RETRY_BASE_MS: '100',
    NODE_EXTRA_CA_CERTS: tls.certPath,
    UPLOAD_MAX_FILES: '4',
    MOTION_LOOP_S: '1',
    MOTION_FPS: '4',
    ANIMATION_MAX_FRAME_PX: '128',
  });
  await waitHealthy(`http://127.0.0.1:${port}`, app, 60_000);
  owner = new Api(`http://127.0.0.1:${port}`, OWNER);
}, 90_000);
afterAll(async () => {
  await app?.kill('SIGKILL');
  await pg?.end();
  await db?.drop();
  await media?.stop();
});

async function newUser(email: string, credits: number, slots = 3) {
  const u = await owner.req('POST', '/api/admin/users', { email, credits, showcase_slots: slots });
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  return { id: u.body.id as string, api: new Api(owner.base, k.body.key) };
}
const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;
const charges = async (api: Api) =>
  (await api.req('GET', '/api/v2/usage?limit=100')).body.data.filter((e: any) => e.kind === 'charge').length as number;

/** The stored job input: what the pipeline stages read the presentation fields from. */
async function jobInput(jobId: string): Promise<Record<string, unknown>> {
  const r = await pg.query('SELECT "input" FROM "jobs" WHERE "id" = $1', [jobId]);
  expect(r.rows).toHaveLength(1);
  const input = r.rows[0].input;
  return typeof input === 'string' ? JSON.parse(input) : input;
}
const jobCount = async (ownerId?: string) =>
  Number(
    (await pg.query(`SELECT count(*) AS n FROM "jobs"${ownerId ? ' WHERE "owner_id" = $1' : ''}`, ownerId ? [ownerId] : [])).rows[0].n,
  );

/** The presentation fields of an input (the rest: image_url, showcase_id, ...). */
const PRESENTATION = ['placement', 'allow_scaling', 'finish', 'frame', 'mat', 'title', 'subtitle', 'link_url', 'call_to_action', 'price'];
const presentationOf = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([k]) => PRESENTATION.includes(k)));

const uploadsStored = () => {
  const dir = join(dataDir, 'storage/uploads');
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && !d.name.endsWith('.meta')).length
    : 0;
};

function multipart(fields: [string, string][], files: number): FormData {
  const f = new FormData();
  for (const [k, v] of fields) f.append(k, v);
  for (let i = 0; i < files; i++) f.append('files', new Blob([new Uint8Array(wide)], { type: 'image/png' }), `p${i}.png`);
  return f;
}
async function upload(api: Api, id: number, body: FormData, headers: Record<string, string> = {}) {
  const r = await fetch(`${api.base}/api/v2/showcases/${id}/items`, {
    method: 'POST',
    headers: { 'x-api-key': api.key, ...headers },
    body,
  });
  return { status: r.status, body: await r.json(), headers: r.headers };
}

const FULL = {
  placement: 'wall',
  allow_scaling: true,
  finish: 'matte',
  frame: { style: 'classic', color: 'oak', width_inches: 1.5 },
  mat: { width_inches: 2, color: '#fafafa' },
  title: 'Dunes at Dawn',
  subtitle: 'Giclée print, signed',
  link_url: 'https://shop.example.com/dunes',
  call_to_action: 'Buy now',
  price: '$120',
};

describe('POST /api/v1/convert', () => {
  it.each([
    [{ placement: 'ceiling' }, 'placement'],
    [{ frame: { style: 'wavy' } }, 'frame.style'],
    [{ frame: 'wavy' }, 'frame.style'],
    [{ frame: 'canvas', mat: { width_inches: 2 } }, 'mat'],
    [{ link_url: 'http://shop.example.com/dunes' }, 'link_url'],
    [{ title: 'x'.repeat(61) }, 'title'],
    [{ subtitle: 'x'.repeat(121) }, 'subtitle'],
    [{ call_to_action: 'Buy' }, 'call_to_action'],
    [{ price: 'x'.repeat(31) }, 'price'],
    [{ finish: 'shiny' }, 'finish'],
    [{ allow_scaling: 'yes' }, 'allow_scaling'],
    [{ frame: { style: 'classic', color: 'mauve' } }, 'frame.color'],
    [{ mat: { color: 'white' }, frame: 'thin' }, 'mat.width_inches'],
  ])('%j -> 400 naming %s, no job stored', async (fields, param) => {
    const before = await jobCount();
    const r = await owner.req('POST', '/api/v1/convert', { image_url: `${media.base}/wide.png`, ...fields });
    expect([r.status, r.body.error?.type, r.body.error?.param]).toEqual([400, 'invalid_request_error', param]);
    expect(r.body.error.message).toContain(param);
    expect(await jobCount()).toBe(before);
  });

  it('stores the accepted fields in the job input as sent (null ones left out)', async () => {
    const r = await owner.req('POST', '/api/v1/convert', { image_url: `${media.base}/wide.png`, ...FULL, aspect_ratio: null });
    expect(r.status).toBe(202);
    expect(await jobInput(r.body.job_id)).toEqual({ image_url: `${media.base}/wide.png`, ...FULL });
    const plain = await owner.req('POST', '/api/v1/convert', { image_url: `${media.base}/wide.png`, frame: 'float', finish: null });
    expect(await jobInput(plain.body.job_id)).toEqual({ image_url: `${media.base}/wide.png`, frame: 'float' });
  });

  it('[result echo] GET /api/v1/result shows the resolved presentation next to every existing field', async () => {
    const r = await owner.req('POST', '/api/v1/convert', { image_url: `${media.base}/wide.png`, ...FULL });
    const done = await owner.waitStatus(r.body.job_id, ['completed', 'failed'], 60_000);
    expect(done).toMatchObject({ status: 'completed' });
    const result = (await owner.req('GET', `/api/v1/result/${r.body.job_id}`)).body;
    expect(result).toMatchObject({
      job_id: r.body.job_id,
      status: 'completed',
      embed_url: expect.any(String),
      embed_url_static: expect.any(String),
      widget_script_url: expect.any(String),
      models: { usdz: { url: expect.any(String) }, glb: { url: expect.any(String) } },
      poster_url: expect.any(String),
      dimensions: { width_inches: 36, height_inches: 24 },
    });
    expect(result).toMatchObject({
      placement: 'wall',
      allow_scaling: true,
      finish: 'matte',
      frame: { style: 'classic', color: 'oak', width_inches: 1.5, depth_inches: 1.25 },
      mat: { width_inches: 2, color: '#fafafa' },
      // 36 x 24 plus 2 x (1.5 + 2) each way.
      outer_dimensions: { width_inches: 43, height_inches: 31, depth_inches: 1.25 },
      banner: {
        title: 'Dunes at Dawn',
        subtitle: 'Giclée print, signed',
        link_url: 'https://shop.example.com/dunes',
        call_to_action: 'Buy now',
        price: '$120',
      },
    });
  });
});

describe('POST /api/v2/showcases: presentation defaults and items', () => {
  it('refuses bad defaults and items with 400 naming the parameter: nothing stored, charged or slot used', async () => {
    const u = await newUser('shop-invalid@example.com', 50, 1);
    const a = (n: string) => `${media.base}/wide.png?${n}`;
    const bad = async (body: unknown, param: string) => {
      const r = await u.api.req('POST', '/api/v2/showcases', body);
      expect([r.status, r.body.error?.param]).toEqual([400, param]);
    };
    await bad({ placement: 'ceiling' }, 'placement');
    await bad({ frame: { style: 'wavy' } }, 'frame.style');
    await bad({ frame: 'canvas', mat: { width_inches: 2 } }, 'mat');
    await bad({ title: 'Shop-wide title' }, 'title');
    await bad(
      {
        items: [
          { image_url: a('0'), title: 'ok' },
          { image_url: a('1'), frame: { style: 'thin', color: 'mauve' } },
        ],
      },
      'items[1].frame.color',
    );
    await bad({ items: [{ image_url: a('0'), link_url: 'http://shop.example.com/x' }] }, 'items[0].link_url');
    await bad({ items: [{ image_url: a('0'), title: 'x'.repeat(61) }] }, 'items[0].title');
    await bad({ items: [{ title: 'no url' }] }, 'items[0].image_url');
    await bad({ items: [{ image_url: a('0'), colour: 'red' }] }, 'items[0].colour');
    await bad({ items: { image_url: a('0') } }, 'items');
    // The item's canvas frame and the showcase's default mat: named on the item, with the way out.
    const conflict = await u.api.req('POST', '/api/v2/showcases', {
      frame: 'classic',
      mat: { width_inches: 2 },
      items: [{ image_url: a('0'), frame: 'canvas' }],
    });
    expect([conflict.status, conflict.body.error.param]).toEqual([400, 'items[0].mat']);
    expect(conflict.body.error.message).toContain('items[0].mat: null');
    await bad(
      {
        image_urls: Array.from({ length: 15 }, (_, i) => a(`u${i}`)),
        items: Array.from({ length: 6 }, (_, i) => ({ image_url: a(`i${i}`) })),
      },
      'items',
    );
    expect(await balance(u.api)).toBe(50);
    expect((await u.api.req('GET', '/api/v2/me')).body.showcase_slots.used).toBe(0);
    expect(await jobCount(u.id)).toBe(0);
    expect((await u.api.req('GET', '/api/v2/usage')).body.data.filter((e: any) => e.kind !== 'grant')).toEqual([]);
  });

  it('merges every item over the showcase defaults (the item wins per field, a frame replaces the default frame whole, null drops a default)', async () => {
    const u = await newUser('shop-merge@example.com', 100, 1);
    const defaults = { placement: 'floor', finish: 'matte', frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } };
    const url = (n: string) => `${media.base}/wide.png?${n}`;
    const r = await u.api.req('POST', '/api/v2/showcases', {
      ...defaults,
      image_urls: [url('plain')],
      items: [
        { image_url: url('banner'), title: 'Dunes', link_url: 'https://shop.example.com/dunes', call_to_action: 'Buy', price: '$120' },
        { image_url: url('canvas'), frame: 'canvas', mat: null, finish: 'gloss' },
        { image_url: url('thin'), frame: { style: 'thin' }, allow_scaling: true },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body.credits_charged).toBe(5 + 4 * 2);
    const jobs = r.body.queued_jobs.map((j: any) => j.job_id);
    expect(jobs).toHaveLength(4);
    const inputs = await Promise.all(jobs.map(jobInput));
    expect(inputs.map((i) => i.image_url)).toEqual([url('plain'), url('banner'), url('canvas'), url('thin')]);
    expect(inputs.map(presentationOf)).toEqual([
      defaults,
      { ...defaults, title: 'Dunes', link_url: 'https://shop.example.com/dunes', call_to_action: 'Buy', price: '$120' },
      { placement: 'floor', finish: 'gloss', frame: 'canvas' },
      { placement: 'floor', finish: 'matte', frame: { style: 'thin' }, mat: { width_inches: 2 }, allow_scaling: true },
    ]);
    const shown = (await u.api.req('GET', `/api/v2/showcases/${r.body.id}`)).body;
    expect(shown.presentation_defaults).toEqual(defaults);

    // POST /items (JSON) merges over the stored defaults; image_urls get them as they are.
    const add = await u.api.req(
      'POST',
      `/api/v2/showcases/${r.body.id}/items`,
      { image_urls: [url('later')], items: [{ image_url: url('later-item'), placement: 'wall', subtitle: 'Limited' }] },
      { 'idempotency-key': 'add-merge' },
    );
    expect(add.status).toBe(202);
    const [later, laterItem] = await Promise.all(add.body.queued_jobs.map((j: any) => jobInput(j.job_id)));
    expect(presentationOf(later)).toEqual(defaults);
    expect(presentationOf(laterItem)).toEqual({ ...defaults, placement: 'wall', subtitle: 'Limited' });
    // The Idempotency-Key fingerprint covers the item fields: the same key with another subtitle is a different request.
    const replay = await u.api.req(
      'POST',
      `/api/v2/showcases/${r.body.id}/items`,
      { image_urls: [url('later')], items: [{ image_url: url('later-item'), placement: 'wall', subtitle: 'Limited' }] },
      { 'idempotency-key': 'add-merge' },
    );
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([202, 'true', add.body]);
    const changed = await u.api.req(
      'POST',
      `/api/v2/showcases/${r.body.id}/items`,
      { image_urls: [url('later')], items: [{ image_url: url('later-item'), placement: 'wall', subtitle: 'Sold out' }] },
      { 'idempotency-key': 'add-merge' },
    );
    expect([changed.status, changed.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    const bad = await u.api.req('POST', `/api/v2/showcases/${r.body.id}/items`, { items: [{ image_url: url('x'), frame: 'none' }] });
    // frame "none" from the item, the mat from the defaults.
    expect([bad.status, bad.body.error.param]).toEqual([400, 'items[0].mat']);
    // Charged once each: the showcase, its 4 pictures and the 2 added (not the replay, not the refusals).
    expect(await charges(u.api)).toBe(1 + 4 + 2);
  });

  it("[result echo] shows each item's resolved presentation in the item view and GET /api/v2/jobs/{id}", async () => {
    const s = await owner.req('POST', '/api/v2/showcases', {
      frame: { style: 'thin', color: 'black' },
      mat: { width_inches: 1 },
      items: [
        { image_url: `${media.base}/wide.png?echo-a`, title: 'Framed' },
        { image_url: `${media.base}/wide.png?echo-b`, frame: 'canvas', mat: null },
      ],
    });
    expect(s.status).toBe(201);
    const done = await waitFor(
      async () => {
        const r = await owner.req('GET', `/api/v2/showcases/${s.body.id}`);
        return r.body.items.every((i: any) => i.status === 'completed' || i.status === 'failed') ? r.body : undefined;
      },
      90_000,
      'items to finish',
    );
    expect(done.items.map((i: any) => i.status)).toEqual(['completed', 'completed']);
    const [framed, canvas] = done.items;
    expect(framed).toMatchObject({
      dimensions: { width_inches: 36, height_inches: 24 },
      texture: { width: 300, height: 200 },
      glb_url: expect.any(String),
      usdz_url: expect.any(String),
      placement: 'wall',
      allow_scaling: false,
      finish: 'unlit',
      frame: { style: 'thin', color: 'black', width_inches: 0.5 },
      mat: { width_inches: 1, color: 'white' },
      outer_dimensions: { width_inches: 39, height_inches: 27 },
      banner: { title: 'Framed' },
    });
    expect(canvas).toMatchObject({
      frame: { style: 'canvas', width_inches: 0 },
      mat: null,
      outer_dimensions: { width_inches: 36, height_inches: 24 },
      banner: {},
    });
    const job = (await owner.req('GET', `/api/v2/jobs/${framed.job_id}`)).body;
    expect(job.result).toMatchObject({
      preview_url: expect.any(String),
      frame: framed.frame,
      mat: framed.mat,
      outer_dimensions: framed.outer_dimensions,
      banner: { title: 'Framed' },
    });
  });
});

describe('POST /api/v2/showcases/{id}/items (multipart): per-file fields in an "items" text field', () => {
  let u: Awaited<ReturnType<typeof newUser>>;
  let showcaseId: number;
  beforeAll(async () => {
    u = await newUser('uploader@example.com', 100, 1);
    showcaseId = (await u.api.req('POST', '/api/v2/showcases', { frame: 'classic', mat: { width_inches: 1.5, color: 'white' } })).body.id;
  });

  it('gives each file part the entry at its position, merged over the showcase defaults', async () => {
    const items = [{ title: 'First', price: '$90' }, null, { frame: { style: 'float', color: 'gold' }, mat: null, placement: 'floor' }];
    const r = await upload(u.api, showcaseId, multipart([['items', JSON.stringify(items)]], 3), { 'idempotency-key': 'up-items' });
    expect(r.status).toBe(202);
    const inputs = await Promise.all(r.body.queued_jobs.map((j: any) => jobInput(j.job_id)));
    expect(inputs.map((i) => typeof i.upload_key)).toEqual(['string', 'string', 'string']);
    expect(inputs.map(presentationOf)).toEqual([
      { frame: 'classic', mat: { width_inches: 1.5, color: 'white' }, title: 'First', price: '$90' },
      { frame: 'classic', mat: { width_inches: 1.5, color: 'white' } },
      { frame: { style: 'float', color: 'gold' }, placement: 'floor' },
    ]);
    // Same files, same items: replayed. Same files, other items: a different request.
    const again = await upload(u.api, showcaseId, multipart([['items', JSON.stringify(items)]], 3), { 'idempotency-key': 'up-items' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([202, 'true', r.body]);
    const other = await upload(u.api, showcaseId, multipart([['items', JSON.stringify([{ title: 'Other' }, null, null])]], 3), {
      'idempotency-key': 'up-items',
    });
    expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    // Without an items field every file gets the defaults, as before.
    const plain = await upload(u.api, showcaseId, multipart([], 1));
    expect(presentationOf(await jobInput(plain.body.queued_jobs[0].job_id))).toEqual({
      frame: 'classic',
      mat: { width_inches: 1.5, color: 'white' },
    });
  });

  it('refuses bad entries, a misplaced items field and a count mismatch (400): nothing stored or charged', async () => {
    // Charges, not the balance: a refund of an earlier item may land meanwhile.
    const before = await charges(u.api);
    const stored = uploadsStored();
    const jobs = await jobCount(u.id);
    const bad = async (fields: [string, string][], files: number, param: string, message?: string, filesFirst = false) => {
      let body = multipart(fields, files);
      if (filesFirst) {
        body = multipart([], files);
        for (const [k, v] of fields) body.append(k, v);
      }
      const r = await upload(u.api, showcaseId, body);
      expect([r.status, r.body.error?.param]).toEqual([400, param]);
      if (message) expect(r.body.error.message).toContain(message);
    };
    await bad([['items', JSON.stringify([{ title: 'ok' }, { frame: { style: 'classic', color: 'mauve' } }])]], 2, 'items[1].frame.color');
    await bad([['items', JSON.stringify([{ link_url: 'http://shop.example.com/a' }])]], 1, 'items[0].link_url');
    await bad([['items', JSON.stringify([{ frame: 'canvas' }])]], 1, 'items[0].mat', 'items[0].mat: null');
    await bad([['items', JSON.stringify([{ image_url: `${media.base}/wide.png` }])]], 1, 'items[0].image_url');
    await bad([['items', '{"title": "not an array"}']], 1, 'items');
    await bad([['items', '[{"title": ']], 1, 'items', 'JSON array');
    await bad([['items', JSON.stringify([{ title: 'one' }])]], 2, 'items', 'file part 2 has none');
    await bad([['items', JSON.stringify([{ title: 'one' }, { title: 'two' }])]], 1, 'items', '2 entries for 1 file parts');
    await bad([['items', JSON.stringify([{ title: 'late' }])]], 1, 'items', 'before the file parts', true);
    expect(await charges(u.api)).toBe(before);
    expect(uploadsStored()).toBe(stored);
    expect(await jobCount(u.id)).toBe(jobs);
  });

  it('[result echo] the uploaded items carry their resolved presentation', async () => {
    const r = await upload(u.api, showcaseId, multipart([['items', JSON.stringify([{ title: 'Echo', frame: 'canvas', mat: null }])]], 1));
    expect(r.status).toBe(202);
    const item = await waitFor(
      async () => {
        const i = (await u.api.req('GET', `/api/v2/showcases/${showcaseId}/items/${r.body.queued_jobs[0].item_id}`)).body;
        return i.status === 'completed' || i.status === 'failed' ? i : undefined;
      },
      60_000,
      'uploaded item',
    );
    expect(item).toMatchObject({
      status: 'completed',
      source: 'upload',
      frame: { style: 'canvas' },
      mat: null,
      banner: { title: 'Echo' },
      outer_dimensions: { width_inches: 36, height_inches: 24 },
    });
  });
});

describe('POST /api/v2/animated-ar', () => {
  it.each([
    [{ frame: { style: 'wavy' } }, 'frame.style'],
    [{ link_url: 'http://shop.example.com/x' }, 'link_url'],
    [{ title: 'x'.repeat(61) }, 'title'],
    [{ frame: 'canvas', mat: { width_inches: 1 } }, 'mat'],
    [{ placement: 'ceiling' }, 'placement'],
  ])('%j -> 400 naming %s, nothing charged', async (fields, param) => {
    const u = await newUser(`anim-${param}-${Math.random()}@example.com`, 20);
    const r = await u.api.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/anim.gif`, ...fields });
    expect([r.status, r.body.error?.param]).toEqual([400, param]);
    expect(await balance(u.api)).toBe(20);
    expect(await jobCount(u.id)).toBe(0);
  });

  it('stores the accepted fields in the job input', async () => {
    const fields = {
      placement: 'floor',
      finish: 'gloss',
      frame: 'float',
      title: 'Loop',
      link_url: 'https://shop.example.com/loop',
      call_to_action: 'See it',
    };
    const r = await owner.req('POST', '/api/v2/animated-ar', { image_url: `${media.base}/anim.gif`, ...fields });
    expect(r.status).toBe(202);
    expect(presentationOf(await jobInput(r.body.job_id))).toEqual(fields);
    expect((await jobInput(r.body.job_id)).image_url).toBe(`${media.base}/anim.gif`);
  });

  it('[result echo] GET /api/v2/jobs/{id} shows the resolved presentation of an animated job', async () => {
    const r = await owner.req('POST', '/api/v2/animated-ar', {
      image_url: `${media.base}/anim.gif`,
      frame: { style: 'thin', color: 'silver' },
      title: 'Loop',
    });
    const job = await waitFor(
      async () => {
        const j = (await owner.req('GET', `/api/v2/jobs/${r.body.job_id}`)).body;
        return j.status === 'completed' || j.status === 'failed' ? j : undefined;
      },
      120_000,
      'animated job',
    );
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({
      usdz_url: expect.any(String),
      ai_motion_skipped: true,
      frame: { style: 'thin', color: 'silver' },
      mat: null,
      banner: { title: 'Loop' },
      outer_dimensions: expect.any(Object),
    });
  });
});

describe('OpenAPI', () => {
  it('describes the new request and result fields with their enums', async () => {
    const doc = await (await fetch(`${owner.base}/openapi.json`)).json();
    const s = doc.components.schemas;
    const presentation = [
      'placement',
      'allow_scaling',
      'finish',
      'frame',
      'mat',
      'title',
      'subtitle',
      'link_url',
      'call_to_action',
      'price',
    ];
    for (const name of ['ConvertRequestDto', 'AnimatedArRequestDto', 'ShowcaseItemRequestDto'])
      expect(Object.keys(s[name].properties)).toEqual(expect.arrayContaining(presentation));
    expect(Object.keys(s.CreateShowcaseRequestDto.properties)).toEqual(
      expect.arrayContaining(['placement', 'allow_scaling', 'finish', 'frame', 'mat', 'items', 'image_urls']),
    );
    expect(s.CreateShowcaseRequestDto.properties.title).toBeUndefined();
    expect(s.ConvertRequestDto.properties.placement.enum).toEqual(['wall', 'floor']);
    expect(s.ConvertRequestDto.properties.finish.enum).toEqual(['unlit', 'matte', 'gloss']);
    expect(s.ConvertRequestDto.properties.frame.oneOf[0].enum).toEqual(['none', 'thin', 'classic', 'float', 'canvas']);
    expect(s.ConvertRequestDto.properties.frame.oneOf[1].properties.style.enum).toEqual(['none', 'thin', 'classic', 'float', 'canvas']);
    expect(s.ConvertRequestDto.properties.frame.description).toContain('2 x (frame width + mat width)');
    expect(s.ConvertRequestDto.properties.title.maxLength).toBe(60);
    expect(s.ConvertRequestDto.required).toEqual(['image_url']);
    for (const name of ['ResultResponseDto', 'V2ResultDto', 'ShowcaseItemDto']) {
      expect(Object.keys(s[name].properties)).toEqual(
        expect.arrayContaining(['placement', 'allow_scaling', 'finish', 'frame', 'mat', 'outer_dimensions', 'banner']),
      );
    }
    expect(s.ResultResponseDto.required).toEqual(
      expect.arrayContaining(['embed_url', 'embed_url_static', 'widget_script_url', 'models', 'dimensions']),
    );
    expect(s.ResultResponseDto.required).not.toContain('frame');
    expect(s.AddItemsMultipartDto.properties.items.description).toContain('one entry per file part');
    const items = doc.paths['/api/v2/showcases/{id}/items'].post.requestBody.content;
    expect(Object.keys(items)).toEqual(expect.arrayContaining(['application/json', 'multipart/form-data']));
    expect(doc.paths['/api/v2/jobs/{jobId}'].get.responses['200'].content['application/json'].schema.$ref).toContain('V2JobDto');
  });
});
