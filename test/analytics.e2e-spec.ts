import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Api, ROOT, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * Engagement analytics through the running service, embedded (the app in process; scaled mode: test/scaled-smoke.e2e-spec.ts): beacons as pages send
 * them (text/plain JSON, no key), counted for the page's owner only, without DNT / GPC / bot traffic, once per
 * event id; read back per day, item, platform and referrer, as CSV, by the owner across accounts, and in
 * Prometheus. (The pages sending them in a real browser: test/analytics-pages.browser.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-analytics-e2e';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const today = () => new Date().toISOString().slice(0, 10);
let seq = 0;
const ev = (kind: string, extra: Record<string, unknown> = {}) => ({ id: `ev${Date.now()}x${seq++}`, kind, surface: 'item', ...extra });

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('engagement analytics', () => {
  let app: TestApp;
  let owner: Api;
  let base: string;
  let media: Awaited<ReturnType<typeof startMediaServer>>;

  beforeAll(async () => {
    media = await startMediaServer({ '/street2.jpg': readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')) });
    const env: Record<string, string> = {
      ANALYTICS_FLUSH_MS: '100',
      ANALYTICS_EVENTS_PER_MINUTE: '50',
      // The burst below comes from its own client address, through the loopback "proxy".
      TRUST_PROXY: 'loopback',
      METRICS_TOKEN: 'metrics-token-analytics',
    };
    app = await startServiceApp(OWNER, env);
    base = app.base;
    owner = new Api(base, OWNER);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await media?.stop();
  });

  async function newUser(email: string) {
    const u = await owner.req('POST', '/api/admin/users', { email, credits: 50, showcase_slots: 3 });
    expect(u.status).toBe(201);
    const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
    return { id: u.body.id as string, api: new Api(base, k.body.key) };
  }

  /** A showcase with two pictures (one with variants), converted. */
  async function showcaseOf(api: Api) {
    const s = await api.req('POST', '/api/v2/showcases', {
      items: [
        { image_url: `${media.base}/street.jpg`, title: 'One' },
        {
          image_url: `${media.base}/street2.jpg`,
          title: 'Two',
          variants: [{ sku: 'S' }, { sku: 'L', width_inches: 40, height_inches: 30 }],
        },
      ],
    });
    expect(s.status).toBe(201);
    const done = await waitFor(
      async () => {
        const r = (await api.req('GET', `/api/v2/showcases/${s.body.id}`)).body;
        return r.items.every((i: { status: string }) => i.status === 'completed') && r;
      },
      90_000,
      'the pictures',
    );
    const site = new URL(done.url).pathname.split('/').pop() as string;
    return {
      id: s.body.id as number,
      site,
      items: done.items.map((i: { id: number }) => i.id) as number[],
      embed: new URL(done.items[0].embed_url).pathname.split('/').pop() as string,
    };
  }

  /** Sends a beacon the way navigator.sendBeacon does: text/plain JSON, no key, no cookie. */
  const beacon = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': IPHONE, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const report = async (api: Api, query = '') => (await api.req('GET', `/api/v2/analytics?from=${today()}&to=${today()}${query}`)).body;
  /** The totals once they reach `views` (the flusher runs every 100 ms). */
  const settled = (api: Api, query: string, views: number) =>
    waitFor(
      async () => {
        const r = await report(api, query);
        return r.totals.views >= views && r;
      },
      15_000,
      `${views} views`,
    );

  it("counts each page's events for its owner only, once each, without opted-out and bot traffic", async () => {
    const a = await newUser(`analytics-a@example.com`);
    const b = await newUser(`analytics-b@example.com`);
    const sa = await showcaseOf(a.api);
    const sb = await showcaseOf(b.api);
    const [one, two] = sa.items;

    const send = async (body: unknown, headers?: Record<string, string>) => expect((await beacon(body, headers)).status).toBe(204);
    const twice = ev('view', { surface: 'showcase' });
    await send({
      site: sa.site,
      referrer: 'https://www.gallery.example/prints',
      events: [twice, ev('view', { item_id: one }), ev('view', { item_id: two })],
    });
    await send({ site: sa.site, events: [twice] }); // the same event id again: counted once
    await send({
      site: sa.site,
      events: [
        ev('interact', { item_id: one }),
        ev('ar_launch', { item_id: one, platform: 'quick_look' }),
        ev('banner_tap', { item_id: one }),
      ],
    });
    await send(
      {
        site: sa.site,
        events: [
          ev('view', { item_id: one }),
          ev('ar_launch', { item_id: one, platform: 'scene_viewer' }),
          ev('variant_select', { item_id: two, variant: 'L' }),
        ],
      },
      { 'user-agent': PIXEL },
    );
    await send({ site: sa.embed, events: [ev('view', { surface: 'embed' }), ev('qr_open', { surface: 'qr' })] }, { 'user-agent': DESKTOP });
    // Not counted: DNT, Global Privacy Control, a bot, a headless browser.
    await send({ site: sa.site, events: [ev('view', { item_id: one })] }, { dnt: '1' });
    await send({ site: sa.site, events: [ev('view', { item_id: one })] }, { 'sec-gpc': '1' });
    await send(
      { site: sa.site, events: [ev('view', { item_id: one })] },
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    );
    await send(
      { site: sa.site, events: [ev('view', { item_id: one })] },
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0 Safari/537.36' },
    );
    // B's page naming A's items, an unknown variant, A's site with B's item: none of it reaches A or B.
    await send({ site: sb.site, events: [ev('view', { item_id: one }), ev('ar_launch', { item_id: two, platform: 'webxr' })] });
    await send({ site: sa.site, events: [ev('variant_select', { item_id: two, variant: 'NOPE' }), ev('view', { item_id: sb.items[0] })] });
    await send({ site: 'shw_doesnotexist1', events: [ev('view')] });

    const r = await settled(a.api, '', 5);
    expect(r.totals).toEqual({
      views: 5,
      interactions: 1,
      ar_launches: 2,
      banner_taps: 1,
      qr_opens: 1,
      variant_selects: 1,
      room_views: 0,
      unique_visitors: 3,
    });
    expect(r.funnel).toEqual([
      { step: 'views', count: 5, rate: null, of_views: 1 },
      { step: 'interactions', count: 1, rate: 0.2, of_views: 0.2 },
      { step: 'ar_launches', count: 2, rate: 2, of_views: 0.4 },
      { step: 'banner_taps', count: 1, rate: 0.5, of_views: 0.2 },
    ]);
    expect((await report(b.api)).totals.views).toBe(0);
    const platforms = await report(a.api, '&group_by=platform');
    expect(
      Object.fromEntries(
        platforms.groups.filter((g: { key: string }) => g.key).map((g: { key: string; ar_launches: number }) => [g.key, g.ar_launches]),
      ),
    ).toEqual({
      quick_look: 1,
      scene_viewer: 1,
    });
    const items = await report(a.api, `&showcase_id=${sa.id}&group_by=item`);
    expect(
      items.groups.map((g: { item_id: number; title: string; ar_launches: number; views: number }) => [
        g.item_id,
        g.title,
        g.ar_launches,
        g.views,
      ]),
    ).toEqual([
      [one, 'One', 2, 3],
      [two, 'Two', 0, 1],
    ]);
    const referrers = await report(a.api, '&group_by=referrer');
    expect(referrers.groups.find((g: { key: string }) => g.key === 'gallery.example')).toMatchObject({ views: 3 });
    const item = await report(a.api, `&item_id=${two}`);
    // The iPhone viewed it, the Pixel chose a variant: two visitors.
    expect(item.totals).toMatchObject({ views: 1, variant_selects: 1, unique_visitors: 2 });

    // CSV, with the same numbers.
    const csv = await fetch(`${base}/api/v2/analytics?from=${today()}&to=${today()}&group_by=day&format=csv`, {
      headers: { 'x-api-key': a.api.key },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n').slice(0, 2)).toEqual([
      'day,views,interactions,ar_launches,banner_taps,qr_opens,variant_selects,room_views,unique_visitors',
      `${today()},5,1,2,1,1,1,0,3`,
    ]);
    // The owner sees every account, or one.
    expect((await report(owner, `&account_id=${a.id}`)).totals.views).toBe(5);
    expect((await report(owner)).totals.views).toBeGreaterThanOrEqual(5);
    // Another account's showcase or item: 404.
    expect((await b.api.req('GET', `/api/v2/analytics?showcase_id=${sa.id}`)).status).toBe(404);
    expect((await b.api.req('GET', `/api/v2/analytics?item_id=${one}`)).status).toBe(404);
    expect((await a.api.req('GET', `/api/v2/analytics?account_id=${b.id}`)).status).toBe(400);

    // Prometheus has the totals.
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer metrics-token-analytics' } })).text();
    expect(metrics).toMatch(/analytics_events_total\{event="ar_launch",platform="quick_look"\} [1-9]/);
    expect(metrics).toMatch(/analytics_events_dropped_total\{reason="opted_out"\} [1-9]/);
    expect(metrics).toMatch(/analytics_events_dropped_total\{reason="bot"\} [1-9]/);
  }, 180_000);

  it('answers 400 to bad beacons and bad queries, never 500, and honours the per-showcase switch and the rate', async () => {
    const c = await newUser(`analytics-c@example.com`);
    const sc = await showcaseOf(c.api);
    const bad: unknown[] = [
      'not json',
      '[]',
      '{}',
      { site: sc.site },
      { site: sc.site, events: [] },
      { site: sc.site, events: [{ kind: 'view', surface: 'item' }] },
      { site: sc.site, events: [ev('purchase')] },
      { site: sc.site, events: [ev('ar_launch')] },
      { site: 'usr_x', events: [ev('view')] },
      { site: sc.site, events: [ev('view', { item_id: 'one' })] },
      { site: sc.site, events: Array.from({ length: 21 }, () => ev('view')) },
      { site: sc.site, events: [ev('view')], extra: 1 },
    ];
    for (const body of bad) {
      const r = await beacon(body);
      expect(r.status).toBe(400);
      expect((await r.json()).error.type).toBe('invalid_request_error');
    }
    expect((await beacon('x'.repeat(20_000))).status).toBe(413);
    const asJson = await fetch(`${base}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': IPHONE },
      body: JSON.stringify({ site: sc.site, events: [ev('view', { surface: 'showcase' })] }),
    });
    expect(asJson.status).toBe(204);
    for (const q of [
      'from=2026-13-01',
      'group_by=week',
      'from=2026-11-30&to=2026-11-01',
      'from=2024-01-01&to=2026-01-01',
      'showcase_id=abc',
    ]) {
      expect((await c.api.req('GET', `/api/v2/analytics?${q}`)).status).toBe(400);
    }
    await settled(c.api, '', 1);

    // Analytics off for the showcase: its beacons count nothing.
    expect((await c.api.req('PATCH', `/api/v2/showcases/${sc.id}`, { analytics: false })).body.analytics).toBe(false);
    await new Promise((r) => setTimeout(r, 5_500)); // the site lookup is cached 5 s
    expect((await beacon({ site: sc.site, events: [ev('view', { surface: 'showcase' })] })).status).toBe(204);
    await c.api.req('PATCH', `/api/v2/showcases/${sc.id}`, { analytics: true });
    await new Promise((r) => setTimeout(r, 5_500));

    // One client over ANALYTICS_EVENTS_PER_MINUTE (50 events), a new user agent on every beacon: the rest are not counted.
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        beacon(
          { site: sc.site, events: [ev('interact', { surface: 'showcase' })] },
          { 'user-agent': `${PIXEL} r${i}`, 'x-forwarded-for': '203.0.113.50' },
        ),
      ),
    );
    expect(burst.every((r) => r.status === 204)).toBe(true);
    const r = await waitFor(
      async () => {
        const t = (await report(c.api)).totals;
        return t.interactions >= 50 && t;
      },
      15_000,
      'the burst',
    );
    expect(r.views).toBe(1);
    expect(r.interactions).toBe(50);
  }, 180_000);

  it("counts a v1 conversion's embed pages and widget for the job's owner, read with job_id", async () => {
    const a = await newUser(`analytics-v1a@example.com`);
    const b = await newUser(`analytics-v1b@example.com`);
    const created = await a.api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect(created.status).toBe(202);
    const jobId = created.body.job_id as string;
    await waitFor(async () => (await a.api.req('GET', `/api/v1/status/${jobId}`)).body.status === 'completed', 90_000, 'the conversion');
    const result = (await a.api.req('GET', `/api/v1/result/${jobId}`)).body;
    const emb = new URL(result.embed_url).pathname.split('/').pop() as string;
    // Both embed pages (the widget shows the interactive one in job and image mode) carry the beacon, as the job's emb_ id.
    const dataBeacon = async (url: string, ua: string) => {
      const html = await (await fetch(url, { headers: { 'user-agent': ua } })).text();
      const attr = /<body data-beacon="([^"]+)"/.exec(html)?.[1];
      expect(attr).toBeDefined();
      expect(html).toContain('<script>(function(){try{var d=document');
      return JSON.parse(attr!.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    };
    const expected = { url: `${base}/api/events`, site: emb, surface: 'embed' };
    expect(await dataBeacon(result.embed_url, PIXEL)).toEqual(expected);
    expect(await dataBeacon(result.embed_url_static, DESKTOP)).toEqual(expected);

    // What those pages send (the widget's frame reports `widget`), from a client of its own (the rate is per address).
    const from = { 'x-forwarded-for': '203.0.113.61' };
    const send = async (body: unknown, headers: Record<string, string>) =>
      expect((await beacon(body, { ...from, ...headers })).status).toBe(204);
    await send(
      { site: emb, events: [ev('view', { surface: 'embed' }), ev('ar_launch', { surface: 'embed', platform: 'scene_viewer' })] },
      {
        'user-agent': PIXEL,
      },
    );
    await send({ site: emb, events: [ev('view', { surface: 'embed' })] }, { 'user-agent': DESKTOP });
    await send(
      { site: emb, events: [ev('view', { surface: 'widget' }), ev('ar_launch', { surface: 'widget', platform: 'quick_look' })] },
      {},
    );
    // Not counted: an item the page does not have, Do Not Track.
    await send({ site: emb, events: [ev('view', { surface: 'embed', item_id: 1 })] }, {});
    await send({ site: emb, events: [ev('view', { surface: 'embed' })] }, { dnt: '1' });

    const r = await settled(a.api, `&job_id=${jobId}`, 3);
    expect(r).toMatchObject({ account_id: a.id, job_id: jobId, showcase_id: null, item_id: null });
    expect(r.totals).toEqual({
      views: 3,
      interactions: 0,
      ar_launches: 2,
      banner_taps: 0,
      qr_opens: 0,
      variant_selects: 0,
      room_views: 0,
      unique_visitors: 3,
    });
    // group_by=job: the account's conversions side by side (this one is all it has).
    const byJob = await report(a.api, '&group_by=job');
    expect(byJob.groups).toEqual([{ key: jobId, job_id: jobId, ...r.totals }]);
    // The owner's account holds them (it has nothing else); the owner key reads them too, across accounts or in a.
    expect((await report(a.api)).totals).toEqual(r.totals);
    expect((await report(owner, `&job_id=${jobId}`)).totals).toEqual(r.totals);
    expect((await report(owner, `&job_id=${jobId}&account_id=${a.id}`)).totals).toEqual(r.totals);
    // Another account sees nothing of it: not in its totals, and the job is not its own (404, as for a showcase).
    expect((await report(b.api)).totals.views).toBe(0);
    expect((await b.api.req('GET', `/api/v2/analytics?job_id=${jobId}`)).status).toBe(404);
    expect((await owner.req('GET', `/api/v2/analytics?job_id=${jobId}&account_id=${b.id}`)).status).toBe(404);
    expect((await a.api.req('GET', `/api/v2/analytics?job_id=${jobId}&showcase_id=1`)).status).toBe(404);
    expect((await a.api.req('GET', '/api/v2/analytics?job_id=api_aaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    const bad = await a.api.req('GET', `/api/v2/analytics?job_id=${emb}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('job_id');
  }, 180_000);

  it('logs taken beacons at debug, not info (one or more come with every page view), and a refused one as a warning', async () => {
    const before = app.output().length;
    const taken = await beacon({ site: `shw_${'a'.repeat(24)}`, events: [ev('view')] }, { 'x-forwarded-for': '198.51.100.77' });
    expect(taken.status).toBe(204);
    const refused = await beacon('{"site":', { 'x-forwarded-for': '198.51.100.77' });
    expect(refused.status).toBe(400);
    const lines = app
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } })
      .filter((l) => l.msg === 'request completed' && l.req?.url === '/api/events');
    // The app logs at info (the default): the 204 is not written, the 400 is, at warn (40).
    expect(lines.map((l) => [l.level, l.res?.statusCode])).toEqual([[40, 400]]);
  });
});
