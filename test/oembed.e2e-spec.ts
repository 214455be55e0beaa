import sharp from 'sharp';
import { noisyPhoto } from '@app/testing';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * oEmbed (oembed.com) through the running service: GET /oembed for each kind of public page (showcase, item,
 * item wall, saved wall, embed), sized within maxwidth / maxheight, its 400 / 404 / 501 answers, CORS, and the
 * discovery link each page carries answering 200. Two pictures and one wall are converted.
 */

const OWNER = 'owner-key-for-oembed-e2e-tests';

let app: TestApp;
let owner: Api;
/** GET /oembed and the pages need no key; the contract check still reads every JSON answer. */
let anon: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let base: string;

let showcase: { id: number; publicId: string; url: string };
let dunes: { id: number; embed: string; outer: { width_inches: number; height_inches: number } };
let heron: { id: number; embed: string };
let failedItem: number;
let wall: { id: string; embed: string; page: string; outer: { width_inches: number; height_inches: number } };

const oembed = (url: string, extra = '') => anon.req('GET', `/oembed?url=${encodeURIComponent(url)}${extra}`);
/** The iframe's src in an answer's html, as the browser reads the attribute. */
const iframeSrc = (html: string) => /<iframe src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
/** The oEmbed discovery links in a page's head. */
const discovery = (html: string) =>
  [...html.matchAll(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]*)">/g)].map((m) => ({
    href: m[1]!.replace(/&amp;/g, '&'),
    title: m[2]!,
  }));

beforeAll(async () => {
  media = await startMediaServer({
    '/dunes.jpg': await noisyPhoto(1600, 1200, 1),
    '/heron.jpg': await noisyPhoto(1000, 1400, 2),
  });
  app = await startServiceApp(OWNER, {
    JOB_RETRY_BASE_MS: '100',
  });
  base = app.base;
  owner = new Api(base, OWNER);
  anon = new Api(base, '');
  const u = await owner.req('POST', '/api/admin/users', { email: 'oembed@example.com', credits: 20, showcase_slots: 1 });
  const api = new Api(base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
  const s = await api.req('POST', '/api/v2/showcases', {
    branding: { tagline: 'Gallery "North" <Prints>' },
    items: [
      { image_url: `${media.base}/dunes.jpg`, title: 'Dunes', width_inches: 24, height_inches: 18 },
      { image_url: `${media.base}/heron.jpg`, title: 'Heron', width_inches: 16, height_inches: 22.4, frame: 'thin' },
      // Never converts: its pages and oEmbed answer 404.
      { image_url: `${media.base}/missing.jpg`, title: 'Lost' },
    ],
  });
  expect(s.status).toBe(201);
  const done = await waitFor(
    async () => {
      const b = (await api.req('GET', `/api/v2/showcases/${s.body.id}`)).body;
      return b.items.every((i: { status: string }) => i.status === 'completed' || i.status === 'failed') && b;
    },
    120_000,
    'the pictures',
  );
  showcase = { id: s.body.id, publicId: new URL(s.body.url).pathname.split('/')[2]!, url: s.body.url };
  const [a, b, c] = done.items;
  expect([a.status, b.status, c.status]).toEqual(['completed', 'completed', 'failed']);
  dunes = { id: a.id, embed: a.embed_url, outer: a.outer_dimensions ?? a.dimensions };
  heron = { id: b.id, embed: b.embed_url };
  failedItem = c.id;
  expect((await api.req('PATCH', `/api/v2/showcases/${showcase.id}/items/${dunes.id}`, { artist: 'Hilma af Klint' })).status).toBe(200);
  const w = await api.req('POST', `/api/v2/showcases/${showcase.id}/walls`, {
    name: 'Over the sofa',
    items: [{ item_id: dunes.id }, { item_id: heron.id }],
    arrangement: 'row',
  });
  expect(w.status).toBe(202);
  const built = await waitFor(
    async () => {
      const r = (await api.req('GET', `/api/v2/showcases/${showcase.id}/walls/${w.body.id}`)).body;
      return (r.status === 'completed' || r.status === 'failed') && r;
    },
    120_000,
    'the wall',
  );
  expect(built.status).toBe('completed');
  wall = { id: built.id, embed: built.embed_url, page: built.page_url, outer: built.outer_dimensions };
}, 240_000);

afterAll(async () => {
  await app?.close();
  await media?.stop();
});

describe('GET /oembed', () => {
  it('answers a showcase with its embed page, its tagline and its first picture as thumbnail; public, CORS, cacheable', async () => {
    const r = await oembed(showcase.url, '&format=json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    expect(r.body).toMatchObject({
      version: '1.0',
      type: 'rich',
      provider_name: new URL(base).host,
      provider_url: `${base}/`,
      title: 'Gallery "North" <Prints>',
      width: 800,
      height: 600,
      cache_age: 3600,
    });
    expect(r.body.author_name).toBeUndefined();
    expect(iframeSrc(r.body.html)).toBe(`${showcase.url}/embed`);
    expect(r.body.html).toContain('title="Gallery &quot;North&quot; &lt;Prints&gt;"');
    expect(r.body.html).toContain('allow="xr-spatial-tracking; fullscreen"');
    expect(r.body.html).toContain('loading="lazy"');
    // The thumbnail is a real file of exactly the stated size (made on this first request).
    expect(r.body.thumbnail_url).toBe(`${showcase.url}/items/${dunes.id}/thumb/1200.jpg`);
    const thumb = await fetch(r.body.thumbnail_url);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([r.body.thumbnail_width, r.body.thumbnail_height]);
    // The embed variant's address names the same showcase.
    expect((await oembed(`${showcase.url}/embed`)).body).toEqual(r.body);
  });

  it('answers an item (and its wall preview) with its embed page, title and artist, sized within maxwidth / maxheight', async () => {
    const item = `${showcase.url}/items/${dunes.id}`;
    const r = await oembed(item);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Dunes', author_name: 'Hilma af Klint' });
    expect(iframeSrc(r.body.html)).toBe(dunes.embed);
    // 24 × 18 in: 4:3, the longer side 640 px.
    expect([r.body.width, r.body.height]).toEqual([640, 480]);
    expect(r.body.html).toContain('width="640" height="480"');
    expect((await oembed(`${item}/wall`)).body).toEqual(r.body);

    const narrow = (await oembed(item, '&maxwidth=320')).body;
    expect([narrow.width, narrow.height]).toEqual([320, 240]);
    expect(narrow.html).toContain('width="320" height="240"');
    // No thumbnail fits 320 px: none of the three fields (the spec wants all or none).
    expect(['thumbnail_url', 'thumbnail_width', 'thumbnail_height'].filter((k) => k in narrow)).toEqual([]);
    const low = (await oembed(item, '&maxwidth=1000&maxheight=100')).body;
    expect([low.width, low.height]).toEqual([133, 100]);
    const mid = (await oembed(item, '&maxwidth=500&maxheight=400')).body;
    expect([mid.width, mid.height]).toEqual([500, 375]);
    expect(mid).toMatchObject({ thumbnail_url: `${item}/thumb/480.webp`, thumbnail_width: 480, thumbnail_height: 360 });

    // A portrait picture in a thin frame: taller than wide, its outer (framed) shape.
    const h = (await oembed(`${showcase.url}/items/${heron.id}`, '&maxheight=320')).body;
    expect(h.height).toBe(320);
    expect(h.width).toBeLessThan(320);
    expect(h.author_name).toBeUndefined();
    expect(iframeSrc(h.html)).toBe(heron.embed);
    // The page's language carries over to the iframe.
    expect(iframeSrc((await oembed(`${item}?lang=de`)).body.html)).toBe(`${dunes.embed}?lang=de`);
  });

  it('answers a saved wall with its own embed page and name', async () => {
    const r = await oembed(wall.page);
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Over the sofa');
    expect(iframeSrc(r.body.html)).toBe(wall.embed);
    const aspect = wall.outer.width_inches / wall.outer.height_inches;
    expect(r.body.width).toBe(640);
    expect(r.body.height).toBe(Math.round(640 / Math.min(2, aspect)));
  });

  it('answers an embed page (and its static variant) as the picture it shows', async () => {
    const r = await oembed(dunes.embed);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Dunes', author_name: 'Hilma af Klint', width: 640, height: 480 });
    expect(iframeSrc(r.body.html)).toBe(dunes.embed);
    expect((await oembed(`${dunes.embed}/static`)).body).toEqual(r.body);
    const w = await oembed(wall.embed);
    expect(w.status).toBe(200);
    expect(iframeSrc(w.body.html)).toBe(wall.embed);
  });

  it('answers 404 for a URL that is not ours or names nothing to show, never 500 on junk', async () => {
    const other = `http://other.example/showcase/${showcase.publicId}`;
    const unknownShowcase = `${base}/showcase/shw_${'a'.repeat(24)}`;
    for (const url of [
      other,
      `${base.replace('127.0.0.1', 'localhost')}/showcase/${showcase.publicId}`,
      unknownShowcase,
      `${showcase.url}/items/999999`,
      `${showcase.url}/items/${failedItem}`,
      `${showcase.url}/walls/wall_${'a'.repeat(24)}`,
      `${base}/embed/emb_${'a'.repeat(24)}`,
      `${showcase.url}/together?items=${dunes.id},${heron.id}`,
      `${base}/showcase/%E0%A4%A`,
      `${base}/embed/%ZZ`,
      '%%%',
      'not a url',
      '',
    ]) {
      const r = await oembed(url);
      expect([url, r.status, r.body.error?.type]).toEqual([url, 404, 'not_found']);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    // The failed picture's own page is 404 too: oEmbed says no more than the pages.
    expect((await fetch(`${showcase.url}/items/${failedItem}`)).status).toBe(404);
  });

  it('answers 501 for a format it does not write and 400 for bad parameters', async () => {
    for (const format of ['xml', 'XML', 'yaml']) {
      const r = await oembed(showcase.url, `&format=${format}`);
      expect([format, r.status, r.body.error.code, r.body.error.param]).toEqual([format, 501, 'format_not_supported', 'format']);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    }
    const bad: [string, string][] = [
      ['/oembed', 'url'],
      [`/oembed?url=${'a'.repeat(2049)}`, 'url'],
      [`/oembed?url=${encodeURIComponent(showcase.url)}&maxwidth=0`, 'maxwidth'],
      [`/oembed?url=${encodeURIComponent(showcase.url)}&maxwidth=abc`, 'maxwidth'],
      [`/oembed?url=${encodeURIComponent(showcase.url)}&maxheight=10001`, 'maxheight'],
      [`/oembed?url=${encodeURIComponent(showcase.url)}&format=${'x'.repeat(40)}`, 'format'],
    ];
    for (const [path, param] of bad) {
      const r = await anon.req('GET', path);
      expect([path.slice(0, 60), r.status, r.body.error.param]).toEqual([path.slice(0, 60), 400, param]);
    }
    // Parameters the spec does not define are ignored.
    expect((await oembed(showcase.url, '&callback=x&maxwidth=&foo=1')).status).toBe(200);
  });

  it('is named by a discovery link on every page it answers for, and that link answers 200', async () => {
    const pages = [
      [showcase.url, showcase.url],
      [`${showcase.url}/embed`, showcase.url],
      [`${showcase.url}/items/${dunes.id}`, `${showcase.url}/items/${dunes.id}`],
      [`${showcase.url}/items/${dunes.id}/wall`, `${showcase.url}/items/${dunes.id}/wall`],
      [wall.page, wall.page],
      [dunes.embed, dunes.embed],
      [`${dunes.embed}/static`, dunes.embed],
    ];
    for (const [page, named] of pages) {
      const r = await fetch(page!);
      expect([page, r.status]).toEqual([page, 200]);
      const links = discovery(await r.text());
      expect([page, links.length]).toEqual([page, 1]);
      const href = new URL(links[0]!.href);
      expect(`${href.origin}${href.pathname}`).toBe(`${base}/oembed`);
      expect([...href.searchParams.keys()]).toEqual(['url', 'format']);
      expect([page, href.searchParams.get('url')]).toEqual([page, named]);
      expect(links[0]!.title.length).toBeGreaterThan(0);
      const answer = await anon.req('GET', `${href.pathname}${href.search}`);
      expect([page, answer.status, answer.body.type]).toEqual([page, 200, 'rich']);
    }
    // A visitor's own choice has no embed page: no link there.
    const together = await fetch(`${showcase.url}/together?items=${dunes.id},${heron.id}`);
    if (together.status === 200) expect(discovery(await together.text())).toEqual([]);
  });
});
