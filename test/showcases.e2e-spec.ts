import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { JOB_STATES } from '@app/pipeline';
import { Api, ROOT, tempDir, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { launchChromium, USER_AGENTS, quadrantPicture } from '@app/testing';
import { startMediaServer } from './support/media-server';

const OWNER = 'owner-key-for-showcases-e2e-tests';
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');
const MAX_FILE = 2 * 1024 * 1024;
let app: TestApp;
let owner: Api;
let dataDir: string;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let wide: Buffer;

beforeAll(async () => {
  // 300 x 200: the item must keep exactly this pixel size.
  wide = (await quadrantPicture(300, 200)).png;
  media = await startMediaServer({
    '/wide.png': wide,
    '/logo.png': await sharp({ create: { width: 120, height: 40, channels: 3, background: '#ff8800' } })
      .png()
      .toBuffer(),
  });
  dataDir = tempDir();
  app = await startServiceApp(
    OWNER,
    {
      DATA_DIR: dataDir,
      JOB_RETRY_BASE_MS: '100',
      UPLOAD_MAX_FILE_BYTES: String(MAX_FILE),
      UPLOAD_MAX_FILES: '3',
    },
    // Showcases, uploads and their pages are the subject, not the embedded mode: Postgres instead of PGlite's
    // WebAssembly in this thread.
    { database: 'postgres' },
  );
  owner = new Api(app.base, OWNER);
});
afterAll(async () => {
  await app.close();
  await media.stop();
});

async function newUser(email: string, credits: number, slots: number) {
  const u = await owner.req('POST', '/api/admin/users', { email, credits, showcase_slots: slots });
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  return { id: u.body.id as string, api: new Api(owner.base, k.body.key) };
}

const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;

async function waitItems(api: Api, id: number, n: number) {
  return waitFor(
    async () => {
      const r = await api.req('GET', `/api/v2/showcases/${id}`);
      return r.body.items.length === n && r.body.items.every((i: any) => i.status === 'completed' || i.status === 'failed')
        ? r.body
        : undefined;
    },
    60_000,
    `showcase ${id} items to finish`,
  );
}

function form(files: [string, Buffer, string][], field = 'files'): FormData {
  const f = new FormData();
  for (const [name, bytes, type] of files) f.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
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

/**
 * Sends a multipart upload whose closing boundary is held back, and waits up to `waitMs` for an answer
 * while the body is still open: a server that refuses before reading the files answers; one that stores
 * them first is still waiting for the rest. `during` runs once the answer came (or the wait ended), before
 * the request is abandoned.
 */
async function uploadHeldOpen(api: Api, id: number, files: [string, Buffer][], during: () => Promise<void> | void, waitMs = 8000) {
  const boundary = 'held-open-boundary-5678';
  const req = request(`${api.base}/api/v2/showcases/${id}/items`, {
    method: 'POST',
    headers: { 'x-api-key': api.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const answered = new Promise<{ status: number; body: any }>((ok, fail) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => ok({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', fail);
  });
  for (const [name, bytes] of files) {
    req.write(
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from('\r\n'),
      ]),
    );
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const r = await Promise.race([answered, new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), waitMs)))]);
    await during();
    return r;
  } finally {
    clearTimeout(timer);
    req.destroy();
  }
}

const uploadsLeft = () => {
  const dir = join(dataDir, 'storage/uploads');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && !d.name.endsWith('.meta')).length;
};

describe('creating showcases (billing, slots, validation)', () => {
  it('creates a showcase with pictures, charges 5.0 + 2.0 each on the ledger and uses a slot', async () => {
    const u = await newUser('shop@example.com', 9, 1);
    const r = await u.api.req('POST', '/api/v2/showcases', {
      layout_choice: 'branded',
      description: 'Spring collection',
      logo_url: `${media.base}/logo.png`,
      custom_links: [{ title: 'Shop', url: 'https://shop.example.com/' }],
      branding: { tagline: 'Art for your walls', primary_color: '#0A66FF', secondary_color: '#222' },
      image_urls: [`${media.base}/street.jpg`, `${media.base}/wide.png`],
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/\/showcase\/shw_[a-z2-7]{24}$/),
      embed_url: expect.stringMatching(/\/showcase\/shw_[a-z2-7]{24}\/embed$/),
      queued_jobs: [
        { job_id: expect.stringMatching(/^v2_/), item_id: expect.any(Number), status: 'queued' },
        { job_id: expect.stringMatching(/^v2_/), item_id: expect.any(Number), status: 'queued' },
      ],
      credits_charged: 9,
    });
    expect(await balance(u.api)).toBe(0);
    const usage = await u.api.req('GET', '/api/v2/usage');
    expect(
      usage.body.data
        .filter((e: any) => e.kind === 'charge')
        .map((e: any) => [e.operation, e.amount])
        .sort(),
    ).toEqual([
      ['showcase.create', 5],
      ['showcase.picture', 2],
      ['showcase.picture', 2],
    ]);
    expect((await u.api.req('GET', '/api/v2/me')).body.showcase_slots).toMatchObject({ used: 1, total: 1 });

    const done = await waitItems(u.api, r.body.id, 2);
    expect(done).toMatchObject({
      id: r.body.id,
      layout_choice: 'branded',
      branding: { primary_color: '#0a66ff', secondary_color: '#222', tagline: 'Art for your walls' },
    });
    const item = done.items.find((i: any) => i.source_url.endsWith('/wide.png'));
    expect(item).toMatchObject({
      status: 'completed',
      progress: 100,
      dimensions: { width_inches: 36, height_inches: 24 },
      texture: { width: 300, height: 200 },
    });
    for (const url of [item.glb_url, item.usdz_url, item.preview_url, item.embed_url]) expect((await fetch(url)).status).toBe(200);
    const one = await u.api.req('GET', `/api/v2/showcases/${r.body.id}/items/${item.id}`);
    expect(one.body).toEqual(item);
  });

  it('refuses a second showcase without a free slot (403) and charges nothing', async () => {
    const u = await newUser('slots@example.com', 20, 1);
    expect((await u.api.req('POST', '/api/v2/showcases', {})).status).toBe(201);
    const r = await u.api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/street.jpg`] });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ type: 'permission_error', code: 'no_showcase_slots' });
    expect(await balance(u.api)).toBe(15);
  });

  it('is all or nothing when credits are short (402): no showcase, no jobs, no charge, no slot used', async () => {
    const u = await newUser('short@example.com', 8.99, 3);
    const r = await u.api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/street.jpg`, `${media.base}/wide.png`] });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({ type: 'insufficient_credits', code: 'insufficient_credits' });
    const me = (await u.api.req('GET', '/api/v2/me')).body;
    expect(me.credits).toBe(8.99);
    expect(me.showcase_slots.used).toBe(0);
    expect((await u.api.req('GET', '/api/v2/usage')).body.data.filter((e: any) => e.kind !== 'grant')).toEqual([]);
  });

  it('validates every field and names the parameter', async () => {
    const u = await newUser('valid@example.com', 100, 10);
    const bad = async (body: unknown, param: string) => {
      const r = await u.api.req('POST', '/api/v2/showcases', body);
      expect([r.status, r.body.error?.param]).toEqual([400, param]);
    };
    await bad({ layout_choice: 'fancy' }, 'layout_choice');
    await bad({ branding: { primary_color: 'blue' } }, 'branding.primary_color');
    await bad({ branding: { secondary_color: '#12345' } }, 'branding.secondary_color');
    await bad({ branding: { tagline: 'x'.repeat(201) } }, 'branding.tagline');
    await bad({ custom_links: [{ title: 'x', url: 'javascript:alert(1)' }] }, 'custom_links[0].url');
    await bad({ custom_links: [{ title: '', url: 'https://a.example/' }] }, 'custom_links[0].title');
    await bad({ custom_links: Array.from({ length: 21 }, () => ({ title: 't', url: 'https://a.example/' })) }, 'custom_links');
    await bad({ description: 'x'.repeat(5001) }, 'description');
    await bad({ logo_url: 'data:image/png;base64,AAAA' }, 'logo_url');
    await bad({ image_urls: ['ftp://x/y.jpg'] }, 'image_urls[0]');
    await bad({ image_urls: Array.from({ length: 21 }, () => `${media.base}/street.jpg`) }, 'image_urls');
    await bad({ colour: '#fff' }, 'colour');
    // Postgres refuses NUL in text: caught before the insert, not a 500 from it.
    await bad({ description: 'Summer\u0000sale' }, 'description');
    await bad({ branding: { tagline: 'x\u0000' } }, 'branding.tagline');
    await bad({ custom_links: [{ title: 'Shop\u0000', url: 'https://a.example/' }] }, 'custom_links[0].title');
    expect(await balance(u.api)).toBe(100);
    for (const layout of ['branded', 'minimal', 'dark']) {
      expect((await u.api.req('POST', '/api/v2/showcases', { layout_choice: layout })).status).toBe(201);
    }
  });

  it('lets the owner key create showcases free and without slot limits; others get 404', async () => {
    const a = await owner.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/street.jpg`] });
    const b = await owner.req('POST', '/api/v2/showcases', {});
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.credits_charged).toBe(0);
    const stranger = await newUser('stranger@example.com', 10, 1);
    expect((await stranger.api.req('GET', `/api/v2/showcases/${a.body.id}`)).status).toBe(404);
    expect((await stranger.api.req('GET', `/api/v2/showcases/${a.body.id}/items/${a.body.queued_jobs[0].item_id}`)).status).toBe(404);
    expect(
      (await stranger.api.req('POST', `/api/v2/showcases/${a.body.id}/items`, { image_urls: [`${media.base}/street.jpg`] })).status,
    ).toBe(404);
    expect((await stranger.api.req('GET', `/api/v2/jobs/${a.body.queued_jobs[0].job_id}`)).status).toBe(404);
    expect((await owner.req('GET', '/api/v2/showcases/abc')).status).toBe(404);
  });
});

describe('v2 jobs', () => {
  it('moves a picture job through the v2 states in order and shows the result once completed', async () => {
    const s = await owner.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/slow.jpg`] });
    const jobId = s.body.queued_jobs[0].job_id;
    const seen: string[] = [];
    const final = await waitFor(
      async () => {
        const r = await owner.req('GET', `/api/v2/jobs/${jobId}`);
        if (seen[seen.length - 1] !== r.body.status) seen.push(r.body.status);
        return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
      },
      60_000,
      'picture job',
    );
    const order = seen.map((st) => JOB_STATES.indexOf(st as never));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(seen).toContain('downloading');
    expect(final).toMatchObject({
      job_id: jobId,
      status: 'completed',
      kind: 'showcase.picture',
      showcase_id: s.body.id,
      item_id: s.body.queued_jobs[0].item_id,
      result: {
        glb_url: expect.stringContaining('/model.glb'),
        usdz_url: expect.stringContaining('/model.usdz'),
        preview_url: expect.any(String),
        embed_url: expect.stringContaining('/embed/emb_'),
      },
    });
  });

  it('refunds a picture whose conversion fails, exactly once', async () => {
    const u = await newUser('refund@example.com', 9, 1);
    const s = await u.api.req('POST', '/api/v2/showcases', { image_urls: [`${media.base}/missing.jpg`, `${media.base}/street.jpg`] });
    expect(s.body.credits_charged).toBe(9);
    const done = await waitItems(u.api, s.body.id, 2);
    const failed = done.items.find((i: any) => i.status === 'failed');
    expect(failed.error.message).toMatch(/404/);
    await waitFor(async () => (await balance(u.api)) === 2 || undefined, 10_000, 'refund');
    const entries = (await u.api.req('GET', '/api/v2/usage')).body.data.filter((e: any) => e.job_id === failed.job_id);
    expect(entries.map((e: any) => [e.kind, e.amount]).sort()).toEqual([
      ['charge', 2],
      ['refund', 2],
    ]);
  });
});

describe('adding pictures', () => {
  let u: Awaited<ReturnType<typeof newUser>>;
  let showcaseId: number;
  beforeAll(async () => {
    u = await newUser('uploads@example.com', 100, 1);
    showcaseId = (await u.api.req('POST', '/api/v2/showcases', {})).body.id;
  });

  it('adds pictures by URL (2.0 each), idempotently', async () => {
    const before = await balance(u.api);
    const add = () =>
      u.api.req(
        'POST',
        `/api/v2/showcases/${showcaseId}/items`,
        { image_urls: [`${media.base}/street.jpg`] },
        { 'idempotency-key': 'add-1' },
      );
    const [a, b] = [await add(), await add()];
    expect(a.status).toBe(202);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(a.body).toMatchObject({
      showcase_id: showcaseId,
      credits_charged: 2,
      queued_jobs: [{ job_id: expect.stringMatching(/^v2_/), status: 'queued' }],
    });
    expect(await balance(u.api)).toBe(before - 2);
    expect((await u.api.req('POST', `/api/v2/showcases/${showcaseId}/items`, {})).body.error.param).toBe('image_urls');
  });

  it('streams multipart uploads to storage, sniffs the type, keeps the pixel size, and charges 2.0 each', async () => {
    const before = await balance(u.api);
    const jpeg = await sharp(wide).jpeg().toBuffer();
    // Misleading names and types: the bytes decide.
    const r = await upload(
      u.api,
      showcaseId,
      form([
        ['poster.gif', wide, 'text/plain'],
        ['Summer <em>sale.png', jpeg, 'image/png'],
      ]),
      { 'idempotency-key': 'up-1' },
    );
    expect(r.status).toBe(202);
    expect(r.body.queued_jobs).toHaveLength(2);
    expect(r.body.credits_charged).toBe(4);
    const again = await upload(
      u.api,
      showcaseId,
      form([
        ['poster.gif', wide, 'text/plain'],
        ['Summer <em>sale.png', jpeg, 'image/png'],
      ]),
      { 'idempotency-key': 'up-1' },
    );
    expect(again.body).toEqual(r.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance(u.api)).toBe(before - 4);
    const done = await waitItems(u.api, showcaseId, 3);
    const uploaded = done.items.filter((i: any) => i.source === 'upload');
    expect(uploaded.map((i: any) => i.filename).sort()).toEqual(['Summer <em>sale.png', 'poster.gif']);
    for (const i of uploaded)
      expect(i).toMatchObject({
        status: 'completed',
        texture: { width: 300, height: 200 },
        dimensions: { width_inches: 36, height_inches: 24 },
      });
    // The replay's duplicate uploads were removed: two stored uploads.
    expect(uploadsLeft()).toBe(2);
  });

  it('refuses non-images (415), oversized files and too many files (413), charging nothing and keeping nothing', async () => {
    const before = await balance(u.api);
    const stored = uploadsLeft();
    const html = await upload(
      u.api,
      showcaseId,
      form([['a.jpg', Buffer.from('<!doctype html><html><body>hi</body></html>'), 'image/jpeg']]),
    );
    expect([html.status, html.body.error.code]).toEqual([415, 'unsupported_file_type']);
    const big = Buffer.concat([wide, Buffer.alloc(MAX_FILE + 1000)]);
    const large = await upload(
      u.api,
      showcaseId,
      form([
        ['ok.png', wide, 'image/png'],
        ['big.png', big, 'image/png'],
      ]),
    );
    expect([large.status, large.body.error.code]).toEqual([413, 'file_too_large']);
    const many = await upload(
      u.api,
      showcaseId,
      form(Array.from({ length: 4 }, (_, i) => [`${i}.png`, wide, 'image/png'] as [string, Buffer, string])),
    );
    expect([many.status, many.body.error.code]).toEqual([413, 'too_many_files']);
    const wrongField = await upload(u.api, showcaseId, form([['a.png', wide, 'image/png']], 'file'));
    expect([wrongField.status, wrongField.body.error.param]).toEqual([400, 'file']);
    expect(await balance(u.api)).toBe(before);
    expect(uploadsLeft()).toBe(stored);
    expect((await u.api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items).toHaveLength(3);
  });

  it('refuses truncated or boundary-less multipart bodies and NUL in file names (400), charging nothing and keeping nothing', async () => {
    const before = await balance(u.api);
    const stored = uploadsLeft();
    const itemCount = async () => (await u.api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items.length;
    const itemsBefore = await itemCount();
    const boundary = 'e2e-boundary-1234';
    const part = (filename: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        bytes,
        Buffer.from('\r\n'),
      ]);
    const end = Buffer.from(`--${boundary}--\r\n`);
    const whole = Buffer.concat([part('a.png', wide), part('b.png', Buffer.concat([wide, Buffer.alloc(256 * 1024)])), end]);
    const send = async (path: string, body: Buffer, type = `multipart/form-data; boundary=${boundary}`) => {
      const r = await fetch(`${u.api.base}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': u.api.key, 'content-type': type },
        body: new Uint8Array(body),
      });
      return { status: r.status, body: await r.json() };
    };
    const items = `/api/v2/showcases/${showcaseId}/items`;
    // Cut inside the second file: the first one was stored already and must go again.
    const cut = await send(items, whole.subarray(0, whole.length - 100 * 1024));
    expect([cut.status, cut.body.error.code, cut.body.error.message]).toEqual([
      400,
      'invalid_multipart',
      expect.stringContaining('ended before its closing boundary'),
    ]);
    const headerCut = await send(items, whole.subarray(0, 40));
    expect([headerCut.status, headerCut.body.error.code]).toEqual([400, 'invalid_multipart']);
    const noBoundary = await send(items, whole, 'multipart/form-data');
    expect([noBoundary.status, noBoundary.body.error.code]).toEqual([400, 'invalid_multipart']);
    const nul = await send(items, Buffer.concat([part('ok.png', wide), part('a\u0000.png', wide), end]));
    expect([nul.status, nul.body.error.param]).toEqual([400, 'files']);
    // The create route takes JSON only, and says where files go.
    const create = await send('/api/v2/showcases', whole.subarray(0, whole.length - 100 * 1024));
    expect([create.status, create.body.error.code, create.body.error.message]).toEqual([
      400,
      'invalid_body',
      expect.stringContaining('/api/v2/showcases/{id}/items'),
    ]);
    expect(await balance(u.api)).toBe(before);
    expect(uploadsLeft()).toBe(stored);
    expect(readdirSync(join(dataDir, 'storage'), { recursive: true }).filter((f) => String(f).endsWith('.tmp'))).toEqual([]);
    expect(await itemCount()).toBe(itemsBefore);
  });
});

describe('uploads refused before they are stored', () => {
  const tmpFiles = () =>
    (existsSync(join(dataDir, 'storage')) ? readdirSync(join(dataDir, 'storage'), { recursive: true }) : []).filter((f) =>
      String(f).endsWith('.tmp'),
    );
  const storedFor = (publicId: string) => {
    const dir = join(dataDir, 'storage/uploads', publicId);
    return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
  };
  async function userWithShowcase(email: string, creditsLeft: number) {
    const u = await newUser(email, 5 + creditsLeft, 1);
    const created = await u.api.req('POST', '/api/v2/showcases', {});
    expect(created.status).toBe(201);
    expect(await balance(u.api)).toBe(creditsLeft);
    return { ...u, showcaseId: created.body.id as number, publicId: /shw_[a-z2-7]{24}/.exec(created.body.url)![0] };
  }

  it('answers 402 to a key without the credits for one picture before reading any file: nothing written, nothing charged', async () => {
    const u = await userWithShowcase('broke-uploader@example.com', 0);
    // Two whole files sent, the body left open: the answer must not wait for it.
    const r = await uploadHeldOpen(
      u.api,
      u.showcaseId,
      [
        ['a.png', wide],
        ['b.png', wide],
      ],
      () => {
        expect(storedFor(u.publicId)).toEqual([]);
        expect(tmpFiles()).toEqual([]);
      },
    );
    expect(r).toEqual({
      status: 402,
      body: {
        error: {
          type: 'insufficient_credits',
          code: 'insufficient_credits',
          message: expect.stringContaining('this needs 2 credits; the balance is 0'),
          request_id: expect.any(String),
        },
      },
    });
    // The same through a plain, complete upload.
    const plain = await upload(
      u.api,
      u.showcaseId,
      form([
        ['a.png', wide, 'image/png'],
        ['b.png', wide, 'image/png'],
      ]),
    );
    expect([plain.status, plain.body.error.code]).toEqual([402, 'insufficient_credits']);
    expect(storedFor(u.publicId)).toEqual([]);
    expect(tmpFiles()).toEqual([]);
    expect(await balance(u.api)).toBe(0);
    expect((await u.api.req('GET', '/api/v2/usage')).body.data.filter((e: any) => e.kind !== 'grant').map((e: any) => e.operation)).toEqual(
      ['showcase.create'],
    );
    expect((await u.api.req('GET', `/api/v2/showcases/${u.showcaseId}`)).body.items).toEqual([]);
  });

  it('keeps reading what a refused upload still sends, so the client gets the 402, not a reset', async () => {
    const u = await userWithShowcase('still-writing@example.com', 0);
    // The answer goes out at the first file; most of the 8 MB are still on their way or unread. Closing
    // outright would reset the connection under the client (fetch failed: EPIPE / ECONNRESET).
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    for (let i = 0; i < 5; i++) {
      const r = await upload(
        u.api,
        u.showcaseId,
        form([
          ['a.png', wide, 'image/png'],
          ['b.png', big, 'image/png'],
        ]),
      );
      expect([r.status, r.headers.get('connection'), r.body.error.code]).toEqual([402, 'close', 'insufficient_credits']);
    }
    expect(storedFor(u.publicId)).toEqual([]);
  });

  it('stops at the first file the balance does not cover (402), removing the ones already stored', async () => {
    const u = await userWithShowcase('one-picture@example.com', 2);
    const r = await uploadHeldOpen(
      u.api,
      u.showcaseId,
      [
        ['a.png', wide],
        ['b.png', wide],
        ['c.png', wide],
      ],
      () => {
        expect(storedFor(u.publicId)).toEqual([]);
        expect(tmpFiles()).toEqual([]);
      },
    );
    expect(r).toMatchObject({
      status: 402,
      body: { error: { code: 'insufficient_credits', message: expect.stringContaining('this needs 4 credits; the balance is 2') } },
    });
    expect(await balance(u.api)).toBe(2);
    expect((await u.api.req('GET', `/api/v2/showcases/${u.showcaseId}`)).body.items).toEqual([]);
    // One picture is covered, and a retry of that answered request is replayed although the balance is 0 now.
    const one = await upload(u.api, u.showcaseId, form([['a.png', wide, 'image/png']]), { 'idempotency-key': 'one-picture' });
    expect([one.status, one.body.credits_charged]).toEqual([202, 2]);
    const again = await upload(u.api, u.showcaseId, form([['a.png', wide, 'image/png']]), { 'idempotency-key': 'one-picture' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([202, 'true', one.body]);
    expect(await balance(u.api)).toBe(0);
    expect(storedFor(u.publicId).filter((f) => !f.endsWith('.meta'))).toHaveLength(1);
  });
});

describe('public showcase pages', () => {
  const XSS = `<script>window.__xss=1</script><img src=x onerror="window.__xss=2">"'\``;
  let page: { url: string; embed_url: string; id: number };
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const r = await owner.req('POST', '/api/v2/showcases', {
      layout_choice: 'branded',
      logo_url: `${media.base}/logo.png?${encodeURIComponent(XSS)}`,
      description: `Hand-picked prints.\n${XSS}`,
      custom_links: [
        { title: `Shop ${XSS}`, url: `https://shop.example.com/?q=${encodeURIComponent(XSS)}` },
        { title: 'About us', url: 'https://example.com/about' },
      ],
      branding: { tagline: `Gallery ${XSS}`, primary_color: '#1b5e20', secondary_color: '#ffcc00' },
      image_urls: [`${media.base}/street.jpg`, `${media.base}/wide.png`, `${media.base}/street.jpg`],
    });
    page = r.body;
    const added = await upload(owner, page.id, form([[`${XSS}.png`, wide, 'image/png']]));
    expect(added.status).toBe(202);
    await waitItems(owner, page.id, 4);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('escapes every user-supplied text and sends a strict CSP', async () => {
    const r = await fetch(page.url);
    const html = await r.text();
    // default-src 'none', and script-src only the hash of the constant Quick Look banner-tap script:
    // nothing else runs on these pages, whatever slips through.
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Two hashes: the Quick Look tap script and the item pages' keyboard / swipe navigation.
    expect(r.headers.get('content-security-policy')).toMatch(
      /(^|; )script-src 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}='(;|$)/,
    );
    expect(html).not.toContain('<script>window.__xss');
    expect(html).not.toMatch(/<img src=x/);
    expect(html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect((await fetch(`${owner.base}/showcase/shw_aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
  });

  it("keeps the full page from being framed elsewhere (frame-ancestors 'self', X-Frame-Options) while the embed variant may be", async () => {
    const ancestors = (csp: string | null) =>
      (csp ?? '')
        .split(';')
        .map((d) => d.trim())
        .filter((d) => d.startsWith('frame-ancestors'));
    const full = await fetch(page.url);
    expect(full.status).toBe(200);
    expect(ancestors(full.headers.get('content-security-policy'))).toEqual(["frame-ancestors 'self'"]);
    expect(full.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(full.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(full.headers.get('x-content-type-options')).toBe('nosniff');
    const embed = await fetch(page.embed_url);
    expect(embed.status).toBe(200);
    expect(ancestors(embed.headers.get('content-security-policy'))).toEqual(['frame-ancestors *']);
    expect(embed.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('renders on desktop with branding, links and a grid of items that open the 3D / AR page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await p.goto(page.url);
    expect(await p.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await p.locator('.tagline').textContent()).toBe(`Gallery ${XSS}`);
    expect(await p.locator('.description').textContent()).toContain(XSS);
    expect(await p.locator('nav.links a').first().textContent()).toBe(`Shop ${XSS}`);
    expect(await p.locator('nav.links a').first().getAttribute('href')).toContain('shop.example.com');
    expect(await p.locator('header.brand').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(27, 94, 32)');
    expect(await p.locator('.item[data-status="completed"]').count()).toBe(4);
    // The last item is the uploaded 300 x 200 picture: 36 in wide, 24 in tall, written height × width as every size.
    expect(await p.locator('.item .meta span').last().textContent()).toBe('24 × 36 in');
    expect(await p.locator('.item .ar').first().getAttribute('href')).toMatch(/\/embed\/emb_/);
    const columns = await p.locator('.grid').evaluate((e) => getComputedStyle(e).gridTemplateColumns.split(' ').length);
    expect(columns).toBeGreaterThanOrEqual(4);
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-desktop.png'), fullPage: true });
    await p.goto(page.embed_url);
    expect(await p.locator('body.embed .item').count()).toBe(4);
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-embed.png'), fullPage: true });
    await ctx.close();
  });

  it('launches AR the platform way on phones, in one column', async () => {
    const ios = await browser.newContext({
      userAgent: USER_AGENTS.ios,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const p = await ios.newPage();
    await p.goto(page.url);
    // The picture opens the larger view; the button launches Quick Look (with the <img> child it needs).
    expect(await p.locator('.item a.media').first().getAttribute('href')).toMatch(/\/showcase\/shw_[a-z2-7]{24}\/items\/\d+$/);
    const launch = p.locator('.item a.ar[rel="ar"]').first();
    expect(await launch.getAttribute('href')).toMatch(/\/model\.usdz#allowsContentScaling=0$/);
    expect(await launch.locator('img').count()).toBe(1);
    expect(await p.locator('.grid').evaluate((e) => getComputedStyle(e).gridTemplateColumns.split(' ').length)).toBe(1);
    expect(await p.evaluate(() => (window as any).__xss)).toBeUndefined();
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-ios.png'), fullPage: true });
    await ios.close();
    const android = await browser.newContext({
      userAgent: USER_AGENTS.android,
      viewport: { width: 412, height: 915 },
      isMobile: true,
      hasTouch: true,
    });
    const a = await android.newPage();
    await a.goto(page.url);
    const intent = await a.locator('.item a.ar').first().getAttribute('href');
    expect(intent).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.2\?mode=ar_preferred&file=.+model\.glb/);
    // New items hang on the wall at their real size (the showcase and item defaults).
    expect(intent).toContain('&resizable=false&enable_vertical_placement=true#Intent;');
    expect(await a.locator('.item a.ar').first().getAttribute('target')).toBe('_top');
    await a.screenshot({ path: join(ARTIFACTS, 'showcase-android.png'), fullPage: true });
    await android.close();
  });

  it('each item launches with its own presentation; its title, price and link show on its card; the banner tap opens the link', async () => {
    const TITLE = 'Sunset <script>alert(1)</script> & Co';
    const LINK = 'https://shop.example.com/p/sunset?ref=ar&size=24x36';
    const r = await owner.req('POST', '/api/v2/showcases', {
      layout_choice: 'minimal',
      items: [
        { image_url: `${media.base}/street.jpg`, title: TITLE, price: '$240', call_to_action: 'Buy now', link_url: LINK, frame: 'thin' },
        { image_url: `${media.base}/wide.png`, placement: 'floor', allow_scaling: true },
      ],
    });
    expect(r.status).toBe(201);
    await waitItems(owner, r.body.id, 2);
    const ios = await fetch(`${r.body.url}?platform=ios`);
    const iosHtml = await ios.text();
    expect(iosHtml).not.toContain('<script>alert');
    expect(iosHtml).toContain(
      '<span class="title">Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</span><span class="price">$240</span>',
    );
    expect(iosHtml).toContain(`<a class="link" href="${LINK.replace(/&/g, '&amp;')}" target="_top" rel="noopener">Buy now</a>`);
    expect(iosHtml).toMatch(
      /rel="ar" href="[^"]+\/model\.usdz#allowsContentScaling=0&amp;checkoutTitle=Sunset%20%3Cscript%3Ealert\(1\)%3C%2Fscript%3E%20%26%20Co&amp;callToAction=Buy%20now&amp;price=%24240" data-link="/,
    );
    // The floor item allows scaling: no fragment at all.
    expect(iosHtml).toMatch(/rel="ar" href="[^"#]+\/model\.usdz"><img/);
    // The Quick Look tap script, and the page script (its analytics beacons): both allowed by their hashes only.
    const inline = [...iosHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(2);
    const { createHash } = await import('node:crypto');
    const hash = (x: string) => `'sha256-${createHash('sha256').update(x).digest('base64')}'`;
    expect(ios.headers.get('content-security-policy')).toContain(`script-src ${hash(inline[0])} ${hash(inline[1])};`);
    const android = await (await fetch(`${r.body.url}?platform=android`)).text();
    expect(android).toContain(
      '&amp;title=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co&amp;link=https%3A%2F%2Fshop.example.com%2Fp%2Fsunset%3Fref%3Dar%26size%3D24x36&amp;resizable=false&amp;enable_vertical_placement=true#Intent;',
    );
    // The floor item that may be scaled: neither parameter.
    expect(android).toMatch(/&amp;title=[^&#]+#Intent;/);
    // No Quick Look tap script on Android: the page script only.
    expect(android.match(/<script/g)).toHaveLength(1);
    expect(android).toContain(`<script>${inline[1]}</script>`);
    // In the browser: the tap on the Quick Look banner opens the link, under the page's real CSP.
    const ctx = await browser.newContext({
      userAgent: USER_AGENTS.ios,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const p = await ctx.newPage();
    const csp: string[] = [];
    p.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
    });
    await p.route('https://shop.example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Shop</title>' }),
    );
    await p.goto(r.body.url);
    expect(await p.locator('.item .caption .title').first().textContent()).toBe(TITLE);
    await p.screenshot({ path: join(ARTIFACTS, 'showcase-banner-ios.png'), fullPage: true });
    await p
      .locator('.item a.ar[rel="ar"][data-link]')
      .first()
      .evaluate((el) => el.dispatchEvent(new MessageEvent('message', { data: '_apple_ar_quicklook_button_tapped' })));
    await p.waitForURL(LINK);
    expect(csp).toEqual([]);
    await ctx.close();
  });

  it('shows progress for pictures still converting and refreshes itself', async () => {
    const r = await owner.req('POST', '/api/v2/showcases', { layout_choice: 'minimal', image_urls: [`${media.base}/hang`] });
    const html = await (await fetch(r.body.url)).text();
    expect(html).toContain('<progress');
    expect(html).toContain('http-equiv="refresh"');
  });
});
