import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * The public SKU lookup, `GET /showcase/{public_id}/skus?sku=A&sku=B`, through the running service (embedded):
 * a print sold in three sizes (variants, one sold), a plain work known by its external_id, and a picture whose
 * conversion failed. One batch answers variants, external ids, unknown and not-ready SKUs (null); the answer
 * carries CORS for any origin, a short public Cache-Control and a strong ETag (304 on If-None-Match, a new one
 * after an edit); bad input is 400 with a clear message, an unknown showcase 404; the showcase's own pages at
 * /showcase/{id}/… still answer beside it. (The widget that reads it: test/widget-sku.browser.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-showcase-skus-e2e';
const VARIANTS = [
  { sku: 'DUNES-A3', name: 'A3 print', width_cm: 29.7, height_cm: 42, price: '€39', default: true },
  { sku: 'DUNES-A2', width_cm: 42, height_cm: 59.4, price: '€59' },
  { sku: 'DUNES-50x70-OAK', width_cm: 50, height_cm: 70, frame: { style: 'classic', color: 'oak' }, price: '€149', availability: 'sold' },
];

jest.setTimeout(240_000);

let app: TestApp;
let owner: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let showcase: { id: number; url: string; publicId: string };
let items: any[];
let lookupBase: string;

const lookup = (skus: string[], headers: Record<string, string> = {}, id = showcase.publicId) =>
  fetch(`${app.base}/showcase/${id}/skus?${skus.map((s) => `sku=${encodeURIComponent(s)}`).join('&')}`, { headers });

beforeAll(async () => {
  media = await startMediaServer();
  app = await startServiceApp(OWNER);
  owner = new Api(app.base, OWNER);
  const s = await owner.req('POST', '/api/v2/showcases', { layout_choice: 'grid', units: 'cm' });
  expect(s.status).toBe(201);
  showcase = { id: s.body.id, url: s.body.url, publicId: s.body.url.split('/').pop() };
  lookupBase = `${app.base}/showcase/${showcase.publicId}/skus`;
  const add = await owner.req('POST', `/api/v2/showcases/${showcase.id}/items`, {
    items: [
      // An item with variants answers by its variants' SKUs only, not by its own external_id.
      { image_url: `${media.base}/street.jpg`, title: 'Dunes', external_id: 'DUNES', variants: VARIANTS },
      {
        image_url: `${media.base}/street.jpg`,
        title: 'Harbour',
        external_id: 'HARBOUR-1',
        price: '$120',
        width_inches: 20,
        height_inches: 30,
      },
      // Not an image: the conversion fails, its SKU is not ready.
      { image_url: `${media.base}/page.html`, title: 'Broken', external_id: 'BROKEN-1' },
    ],
  });
  expect([add.status, add.body.error]).toEqual([202, undefined]);
  items = await waitFor(
    async () => {
      const r = (await owner.req('GET', `/api/v2/showcases/${showcase.id}`)).body;
      const busy = r.items.some(
        (i: any) =>
          (i.status !== 'completed' && i.status !== 'failed') || i.variants?.some((v: any) => v.status === 'building' || v.build_job_id),
      );
      return !busy && r.items;
    },
    180_000,
    'the items and their variants to be built',
  );
  expect(items.map((i) => i.status)).toEqual(['completed', 'completed', 'failed']);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await media?.stop();
});

describe('GET /showcase/{public_id}/skus', () => {
  it('answers a batch: variants by sku, a plain work by external_id, null for unknown and not-ready SKUs', async () => {
    const r = await lookup(['DUNES-A2', 'DUNES-50x70-OAK', 'HARBOUR-1', 'NOPE', 'BROKEN-1', 'DUNES']);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const { skus } = await r.json();
    expect(Object.keys(skus)).toEqual(['DUNES-A2', 'DUNES-50x70-OAK', 'HARBOUR-1', 'NOPE', 'BROKEN-1', 'DUNES']);
    const [dunes, harbour] = items;
    const variant = (sku: string) => dunes.variants.find((v: any) => v.sku === sku);
    for (const sku of ['DUNES-A2', 'DUNES-50x70-OAK']) {
      const v = variant(sku);
      // The same files, size and embed address as the item's API view of that variant.
      expect(skus[sku]).toEqual({
        item_id: dunes.id,
        sku,
        embed_url: v.embed_url,
        glb_url: v.glb_url,
        usdz_url: v.usdz_url,
        poster_url: v.preview_url,
        dimensions: { width_inches: v.dimensions.width_inches, height_inches: v.dimensions.height_inches },
        dimensions_cm: v.dimensions_cm,
        availability: sku === 'DUNES-50x70-OAK' ? 'sold' : 'available',
        price: v.price,
      });
      expect(skus[sku].embed_url).toBe(`${dunes.embed_url}?variant=${encodeURIComponent(sku)}`);
    }
    expect(skus['DUNES-A2'].dimensions_cm).toEqual({ width_cm: 42, height_cm: 59.4 });
    expect(skus['DUNES-A2'].glb_url).not.toBe(skus['DUNES-50x70-OAK'].glb_url);
    expect(skus['HARBOUR-1']).toEqual({
      item_id: harbour.id,
      sku: 'HARBOUR-1',
      embed_url: harbour.embed_url,
      glb_url: harbour.glb_url,
      usdz_url: harbour.usdz_url,
      poster_url: harbour.preview_url,
      dimensions: { width_inches: 20, height_inches: 30 },
      dimensions_cm: harbour.dimensions_cm,
      availability: 'available',
      price: '$120',
    });
    expect(skus.NOPE).toBeNull();
    expect(skus['BROKEN-1']).toBeNull();
    // DUNES is the external_id of an item with variants: only its variants' SKUs name it.
    expect(skus.DUNES).toBeNull();
    // The files it names are there.
    expect((await fetch(skus['DUNES-A2'].glb_url)).status).toBe(200);
  });

  it('is public and cacheable: CORS for any origin, a short public max-age, a strong ETag with 304', async () => {
    const r = await lookup(['DUNES-A3', 'HARBOUR-1'], { origin: 'https://shop.example.com' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    const body = await r.text();
    // The same question: the same bytes and ETag; the client's copy is current: 304, no body.
    const again = await lookup(['DUNES-A3', 'HARBOUR-1']);
    expect([again.headers.get('etag'), await again.text()]).toEqual([etag, body]);
    const cached = await lookup(['DUNES-A3', 'HARBOUR-1'], { 'if-none-match': `"other", ${etag}` });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);
    expect(cached.headers.get('access-control-allow-origin')).toBe('*');
    expect(await cached.text()).toBe('');
    // Another question, another ETag.
    expect((await lookup(['HARBOUR-1'])).headers.get('etag')).not.toBe(etag);
    // An edit in the catalogue changes the answer and so its ETag: the stale copy is sent again in full.
    const edit = await owner.req('PATCH', `/api/v2/showcases/${showcase.id}/items/${items[1].id}`, { availability: 'reserved' });
    expect(edit.status).toBe(200);
    // The service reuses an answer for up to two seconds (ShowcaseSkusService, apps/api/src/http/ttl-cache.ts): within them, the old one.
    const after = await waitFor(
      async () => {
        const a = await lookup(['DUNES-A3', 'HARBOUR-1'], { 'if-none-match': etag });
        return a.status === 200 ? a : undefined;
      },
      5_000,
      'the edit to show in the lookup',
    );
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await after.json()).skus['HARBOUR-1'].availability).toBe('reserved');
    await owner.req('PATCH', `/api/v2/showcases/${showcase.id}/items/${items[1].id}`, { availability: 'available' });
  });

  it('answers 400 with a clear message for no SKU, an empty or over-long one, or more than 100', async () => {
    const cases: [string, RegExp][] = [
      ['', /sku/],
      ['?sku=', /sku.*must not be empty/],
      [`?sku=${'X'.repeat(101)}`, /sku.*at most 100 characters/],
      [`?${Array.from({ length: 101 }, (_, i) => `sku=S${i}`).join('&')}`, /sku: at most 100 SKUs a request/],
    ];
    for (const [query, message] of cases) {
      const r = await fetch(`${lookupBase}${query}`);
      const body = await r.json();
      expect([query.slice(0, 20), r.status, body.error.type]).toEqual([query.slice(0, 20), 400, 'invalid_request_error']);
      expect(body.error.message).toMatch(message);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    // Exactly 100 is fine.
    const hundred = await fetch(`${lookupBase}?${Array.from({ length: 100 }, (_, i) => `sku=S${i}`).join('&')}`);
    expect(hundred.status).toBe(200);
    expect(Object.values((await hundred.json()).skus)).toEqual(Array.from({ length: 100 }, () => null));
  });

  it('answers 404 for a showcase that does not exist; the showcase pages beside the route still answer', async () => {
    for (const id of ['shw_aaaaaaaaaaaaaaaaaaaaaaaa', 'nonsense', 'shw_AAAA']) {
      const r = await lookup(['DUNES-A3'], {}, id);
      expect([id, r.status]).toEqual([id, 404]);
      expect((await r.json()).error.type).toBe('not_found');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    }
    const page = await fetch(showcase.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const item = await fetch(`${showcase.url}/items/${items[0].id}?variant=DUNES-A2`);
    expect(item.status).toBe(200);
  });
});
