import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ImageArClient,
  ImageArError,
  type ItemVariantRequest,
  JobFailedError,
  verifyWebhook,
  WebhookVerificationError,
  type V1Callback,
} from '@image-ar/client';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { quadrantPicture } from '@app/testing';
import { contractFor } from './support/openapi-contract';

/** packages/client against the running service: no mocks. Its answers go through the suites' OpenAPI contract check too. */
const OWNER = 'owner-key-for-client-e2e-tests';
let app: TestApp;
let base: string;
let owner: ImageArClient;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let receiver: Server;
let receiverBase: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  media = await startMediaServer({ '/wide.png': (await quadrantPicture(300, 200)).png });
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  app = await startServiceApp(
    OWNER,
    {
      JOB_RETRY_BASE_MS: '100',
    },
    // The client is the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  base = app.base;
  owner = new ImageArClient({ baseUrl: base, apiKey: OWNER, fetch: checkedFetch });
});

/** fetch that validates every JSON answer against the published document, like Api.req. */
const checkedFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const res = await fetch(req);
  if (/json/.test(res.headers.get('content-type') ?? ''))
    (await contractFor(base)).check(req.method, req.url, res.status, res.headers.get('content-type'), await res.clone().json());
  return res;
};
afterAll(async () => {
  await app?.close();
  await media?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('@image-ar/client against the service', () => {
  it('convert -> waitForJob (backoff, onProgress) -> result', async () => {
    const job = await owner.convert({ image_url: `${media.base}/street.jpg`, title: 'Street' }, { idempotencyKey: 'client-e2e-convert-1' });
    expect(job).toEqual({ job_id: expect.stringMatching(/^api_/), status: 'queued' });
    const seen: string[] = [];
    const done = await owner.waitForJob(job.job_id, {
      onProgress: (j) => seen.push(`${j.status}:${j.progress}`),
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    expect(done).toMatchObject({ job_id: job.job_id, status: 'completed', progress: 100 });
    expect(seen.at(-1)).toBe('completed:100');
    const result = await owner.result(job.job_id);
    expect(result.models.glb.url).toMatch(/^http/);
    expect(result.models.usdz.url).toMatch(/^http/);
    expect(result.embed_url).toContain('/embed/');
    expect((await fetch(result.models.glb.url)).status).toBe(200);
  });

  it('waitForJob rejects with JobFailedError for a failed job, and honours an AbortSignal', async () => {
    const bad = await owner.convert({ image_url: `${media.base}/page.html` });
    const err = await owner.waitForJob(bad.job_id, { timeoutMs: 60_000, intervalMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ jobId: bad.job_id, code: expect.any(String) });
    const slow = await owner.convert({ image_url: `${media.base}/slow.jpg` });
    const controller = new AbortController();
    const waiting = owner.waitForJob(slow.job_id, { signal: controller.signal, intervalMs: 50 });
    controller.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
  });

  it('errors are typed: status, type, code, param, requestId', async () => {
    const e1 = await owner.convert({ image_url: 'ftp://example.com/x.jpg' }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ImageArError);
    expect(e1).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'image_url', requestId: expect.stringMatching(/^req_/) });
    const e2 = await new ImageArClient({ baseUrl: base, apiKey: 'sk_live_nope', fetch: checkedFetch }).me().catch((e: unknown) => e);
    expect(e2).toMatchObject({ name: 'ImageArError', status: 401, type: 'authentication_error', code: 'invalid_api_key' });
    const e3 = await owner.status('api_doesnotexist').catch((e: unknown) => e);
    expect(e3).toMatchObject({ status: 404, code: 'resource_missing' });
    expect((e3 as ImageArError).retryable).toBe(false);
    const e4 = await new ImageArClient({ baseUrl: 'http://127.0.0.1:1', apiKey: OWNER }).me().catch((e: unknown) => e);
    expect(e4).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('createShowcase + uploadPictures (Buffer with a name, Blob, File) with per-file items, then the items complete', async () => {
    const created = await owner.createShowcase({
      description: 'Client e2e',
      layout_choice: 'minimal',
      image_urls: [`${media.base}/street.jpg`],
    });
    expect(created).toMatchObject({
      id: expect.any(Number),
      url: expect.stringContaining('/showcase/'),
      queued_jobs: [{ job_id: expect.stringMatching(/^v2_/), status: 'queued' }],
    });
    const png = (await quadrantPicture(300, 200)).png;
    const added = await owner.uploadPictures(
      created.id,
      [
        { data: png, filename: 'buffer.png' },
        new Blob([new Uint8Array(png)], { type: 'image/png' }),
        new File([new Uint8Array(png)], 'file.png', { type: 'image/png' }),
      ],
      { items: [{ title: 'From a Buffer' }, null, { frame: 'thin' }] },
    );
    expect(added).toMatchObject({ showcase_id: created.id, queued_jobs: expect.any(Array) });
    expect(added.queued_jobs).toHaveLength(3);
    const job = await owner.waitForJob(added.queued_jobs[0].job_id, { timeoutMs: 60_000, intervalMs: 100 });
    expect(job).toMatchObject({ status: 'completed', result: { texture: { width: 300, height: 200 } } });
    const item = await owner.getShowcaseItem(created.id, added.queued_jobs[0].item_id);
    expect(item).toMatchObject({ source: 'upload', filename: 'buffer.png', banner: { title: 'From a Buffer' } });
    const showcase = await owner.getShowcase(created.id);
    expect(showcase.items).toHaveLength(4);
    const err = await owner
      .uploadPictures(created.id, [{ data: Buffer.from('not a picture'), filename: 'x.txt' }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageArError);
    expect((err as ImageArError).status).toBeGreaterThanOrEqual(400);
  });

  it('catalogue: importCatalogue (dry run, then CSV) -> waitForImport, updateItem (free, then a rebuild), reorderItems', async () => {
    const created = await owner.createShowcase({ description: 'Client catalogue', units: 'cm' });
    const url = `${media.base}/street.jpg`;
    const csv =
      'external_id;image_url;artist;width_cm;height_cm;availability\r\n' +
      `A1;${url};Ada;40,5;30;available\r\n` +
      `A2;${url};Grace;50;40;sold\r\n` +
      `A3;${url};Bad;500;40;available\r\n`;
    const preview = await owner.importCatalogue(created.id, { csv }, { dryRun: true });
    expect(preview.counts).toMatchObject({ rows: 3, invalid: 1, created: 2 });
    expect(preview.rows).toEqual([expect.objectContaining({ row: 3, field: 'width_cm' })]);

    const started = await owner.importCatalogue(created.id, { csv });
    expect(started).toMatchObject({ id: expect.stringMatching(/^imp_/), status: expect.stringMatching(/running|completed/) });
    const seen: string[] = [];
    const done = await owner.waitForImport(started.id, {
      untilConverted: true,
      intervalMs: 200,
      timeoutMs: 90_000,
      onProgress: (i) => seen.push(i.status),
    });
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ rows: 3, invalid: 1, created: 2, queued: 0, completed: 2 });
    expect(seen.length).toBeGreaterThan(0);

    const items = (await owner.getShowcase(created.id)).items;
    const a1 = items.find((i) => i.external_id === 'A1')!;
    expect(a1.dimensions_cm).toEqual({ width_cm: 40.5, height_cm: 30 });
    const free = await owner.updateItem(created.id, a1.id, { artist: 'Ada Lovelace', availability: 'reserved' });
    expect(free.rebuild_job_id).toBeNull();
    expect(free.item).toMatchObject({ artist: 'Ada Lovelace', availability: 'reserved' });
    const rebuilt = await owner.updateItem(created.id, a1.id, { width_inches: 20, height_inches: 15, frame: 'thin' });
    expect(rebuilt.rebuild_job_id).toMatch(/^v2_/);
    await owner.waitForJob(rebuilt.rebuild_job_id!, { timeoutMs: 60_000, intervalMs: 100 });
    const after = await waitFor(async () => {
      const i = await owner.getShowcaseItem(created.id, a1.id);
      return !i.rebuild_job_id && i.dimensions?.width_inches === 20 && i;
    }, 30_000);
    expect(after.outer_dimensions).toMatchObject({ width_inches: 21, height_inches: 16 });

    const order = await owner.reorderItems(created.id, [items[1].id, items[0].id]);
    expect(order.items.map((i) => i.id)).toEqual([items[1].id, items[0].id]);
    const bad = await owner.reorderItems(created.id, [999999]).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ImageArError);
    expect((bad as ImageArError).param).toBe('item_ids[0]');
  });

  it('variants through updateItem, and getAnalytics counting a beacon of the page', async () => {
    const created = await owner.createShowcase({ items: [{ image_url: `${media.base}/street.jpg`, title: 'Prints' }] });
    const item = await waitFor(async () => {
      const i = (await owner.getShowcase(created.id)).items[0];
      return i.status === 'completed' && i;
    }, 60_000);
    const variants: ItemVariantRequest[] = [
      { sku: 'P-S', width_cm: 20, height_cm: 30, price: '€20' },
      { sku: 'P-L', width_cm: 40, height_cm: 60, frame: 'classic', price: '€90', default: true },
    ];
    const out = await owner.updateItem(created.id, item.id, { variants });
    expect(out.rebuild_job_id).toMatch(/^v2_/);
    const built = await waitFor(async () => {
      const i = await owner.getShowcaseItem(created.id, item.id);
      return i.variants?.every((v) => v.status === 'ready' && !v.build_job_id) && i;
    }, 60_000);
    expect(built.variants!.map((v) => [v.sku, v.default, v.dimensions_cm])).toEqual([
      ['P-S', false, { width_cm: 20, height_cm: 30 }],
      ['P-L', true, { width_cm: 40, height_cm: 60 }],
    ]);
    expect(built.glb_url).toBe(built.variants![1].glb_url);

    const site = new URL(created.url).pathname.split('/').pop()!;
    const beacon = await fetch(`${base}/api/events`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      },
      body: JSON.stringify({
        site,
        events: [{ id: `client${Date.now()}`, kind: 'variant_select', surface: 'item', item_id: item.id, variant: 'P-S' }],
      }),
    });
    expect(beacon.status).toBe(204);
    const stats = await waitFor(async () => {
      const a = await owner.getAnalytics({ showcase_id: created.id, group_by: 'item' });
      return a.totals.variant_selects === 1 && a;
    }, 15_000);
    expect(stats.groups).toEqual([expect.objectContaining({ item_id: item.id, variant_selects: 1 })]);
  });

  it('gallery walls: wallLayout, createWall -> waitForJob, updateWall (name, then a rebuild), listWalls, deleteWall', async () => {
    const created = await owner.createShowcase({
      items: [
        { image_url: `${media.base}/street.jpg`, title: 'Street', width_inches: 20, height_inches: 30, frame: 'thin' },
        { image_url: `${media.base}/wide.png`, title: 'Wide', width_inches: 24, height_inches: 16 },
      ],
    });
    const items = await waitFor(async () => {
      const s = await owner.getShowcase(created.id);
      return s.items.every((i) => i.status === 'completed') && s.items;
    }, 60_000);
    const body = { name: 'Pair', items: items.map((i) => ({ item_id: i.id })), arrangement: 'row' as const, gap_inches: 2 };
    const layout = await owner.wallLayout(created.id, body);
    expect(layout.outer_dimensions.width_inches).toBeCloseTo(21 + 2 + 24, 2);
    const wall = await owner.createWall(created.id, body, { idempotencyKey: `wall-${Date.now()}` });
    expect(wall.wall.items).toEqual(layout.items);
    await owner.waitForJob(wall.job_id, { intervalMs: 200 });
    const built = await owner.getWall(created.id, wall.id);
    expect(built.status).toBe('completed');
    expect(built.glb_url).toMatch(/model\.glb$/);
    expect(await owner.updateWall(created.id, wall.id, { name: 'Hall' })).toEqual({
      wall: expect.objectContaining({ name: 'Hall' }),
      job_id: null,
    });
    const moved = await owner.updateWall(created.id, wall.id, { arrangement: 'grid', columns: 1 });
    expect(moved.job_id).toMatch(/^v2_/);
    await owner.waitForJob(moved.job_id!, { intervalMs: 200 });
    expect((await owner.listWalls(created.id)).map((w) => [w.id, w.status, w.arrangement])).toEqual([[wall.id, 'completed', 'grid']]);
    await owner.deleteWall(created.id, wall.id);
    const gone = await owner.getWall(created.id, wall.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ImageArError);
    expect((gone as ImageArError).status).toBe(404);
  });

  it('verifyWebhook accepts a real callback the service sent, and refuses a tampered one', async () => {
    const { secret } = await owner.webhookSecret();
    const job = await owner.convert({ image_url: `${media.base}/street.jpg`, callback_url: `${receiverBase}/hook` });
    await owner.waitForJob(job.job_id, { timeoutMs: 60_000, intervalMs: 100 });
    const cb = await waitFor(async () => received.find((r) => r.body.includes(job.job_id)), 30_000, 'the callback');
    const payload = await verifyWebhook<V1Callback>(cb.body, cb.headers as Record<string, string>, secret);
    expect(payload).toMatchObject({ job_id: job.job_id, status: 'completed', glb_url: expect.stringMatching(/^http/) });
    // Headers as a fetch Headers object, and the raw body as bytes: the same answer.
    await expect(
      verifyWebhook(new TextEncoder().encode(cb.body), new Headers(cb.headers as Record<string, string>), secret),
    ).resolves.toMatchObject({ job_id: job.job_id });
    await expect(
      verifyWebhook(cb.body.replace('completed', 'failed'), cb.headers as Record<string, string>, secret),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(
      verifyWebhook(cb.body, cb.headers as Record<string, string>, 'whsec_' + Buffer.alloc(32).toString('base64')),
    ).rejects.toThrow(/no webhook-signature matches/);
    await expect(verifyWebhook(cb.body, cb.headers as Record<string, string>, secret, { now: Date.now() + 600_000 })).rejects.toThrow(
      /timestamp/,
    );
  });

  it('self-service: keys with scopes, the jobs list, showcases listed, changed and deleted', async () => {
    const user = await new Api(base, OWNER).req('POST', '/api/admin/users', {
      email: `client-self-${Date.now()}@example.com`,
      credits: 20,
      showcase_slots: 1,
    });
    const first = await new Api(base, OWNER).req('POST', `/api/admin/users/${user.body.id}/keys`);
    const me = new ImageArClient({ baseUrl: base, apiKey: first.body.key, fetch: checkedFetch });
    const ro = await me.createKey({ name: 'reader', scope: 'read_only' });
    expect(ro).toMatchObject({ scope: 'read_only', name: 'reader', key: expect.stringMatching(/^sk_live_/) });
    expect((await me.listKeys()).map((k) => k.scope).sort()).toEqual(['full', 'read_only']);
    const reader = new ImageArClient({ baseUrl: base, apiKey: ro.key, fetch: checkedFetch });
    const refused = await reader.convert({ image_url: `${media.base}/street.jpg` }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, code: 'insufficient_scope' });

    const job = await me.convert({ image_url: `${media.base}/street.jpg` });
    await me.waitForJob(job.job_id, { timeoutMs: 60_000, intervalMs: 100 });
    const jobs = await reader.listJobs({ kind: 'convert', limit: 10 });
    expect(jobs).toMatchObject({
      has_more: false,
      next_cursor: null,
      data: [{ job_id: job.job_id, kind: 'convert', status: 'completed' }],
    });

    const sc = await me.createShowcase({ description: 'before' });
    expect((await reader.listShowcases()).data.map((s) => s.id)).toEqual([sc.id]);
    expect(await me.updateShowcase(sc.id, { description: 'after', layout_choice: 'minimal' })).toMatchObject({
      description: 'after',
      layout_choice: 'minimal',
    });
    await me.deleteShowcase(sc.id);
    expect((await me.listShowcases()).data).toEqual([]);

    await expect(me.revokeKey(first.body.id)).rejects.toMatchObject({ status: 409, code: 'last_full_key' });
    await me.revokeKey(ro.id);
    await expect(reader.me()).rejects.toMatchObject({ status: 401 });
  });

  it('the generated client reaches every route, typed', async () => {
    const { data, response } = await owner.api.GET('/api/v2/animated-ar/options');
    expect(response.status).toBe(200);
    expect(data?.limits.video_formats).toEqual(['mp4', 'mov', 'webm']);
    expect((await owner.me()).key.type).toBe('owner');
    // The contract check the e2e suites share agrees with the client's view of the service.
    expect((await new Api(base, OWNER).req('GET', '/api/v2/pricing')).status).toBe(200);
  });
});
