import sharp from 'sharp';
import { glbPicture, usdzPictureInches, validateGlb } from '@app/testing';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';

/**
 * Catalogue, real size per item: a showcase item given its size in centimetres or inches (with `fit` and
 * a depth) is converted at that size. The GLB and the USDZ read back at it to 0.01 in; the item reports
 * `dimensions`, `dimensions_cm` and `fit`. Through the running service, embedded (PGlite, in-process queue)
 * with the app in the test's process (scaled mode: test/scaled-smoke.e2e-spec.ts).
 */

const OWNER = 'owner-key-for-catalogue-size-e2e';

/** Width and height in inches of the picture in a GLB (at least one primitive carries it). */
async function glbPictureInches(glb: Buffer): Promise<[number, number]> {
  const { inches, primitives } = await glbPicture(glb);
  expect(primitives).toBeGreaterThanOrEqual(1);
  return inches;
}

const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

// Embedded, in process; the same features in the scaled topology (Postgres, Redis, separate API and worker
// processes): test/scaled-smoke.e2e-spec.ts.
describe('showcase items at their real size', () => {
  let app: TestApp;
  let api: Api;
  let media: Awaited<ReturnType<typeof startMediaServer>>;

  beforeAll(async () => {
    // A 4:3 picture: 32 x 24 in by default.
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6ea5' } })
      .jpeg()
      .toBuffer();
    media = await startMediaServer({ '/photo.jpg': photo });
    app = await startServiceApp(OWNER);
    api = new Api(app.base, OWNER);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await media?.stop();
  });

  it('converts each item at its size (cm or inches, crop or stretch, depth) and reports it; the files read back at it', async () => {
    const url = `${media.base}/photo.jpg`;
    const created = await api.req('POST', '/api/v2/showcases', {
      items: [
        // 76.2 x 101.6 cm = 30 x 40 in, portrait: the 4:3 landscape picture is cropped to it.
        { image_url: url, width_cm: 76.2, height_cm: 101.6, depth_cm: 3.81, frame: 'canvas', title: 'Portrait crop' },
        { image_url: url, width_inches: 40, height_inches: 20, fit: 'stretch', frame: 'thin' },
        { image_url: url },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const items = await waitFor(
      async () => {
        const s = (await api.req('GET', `/api/v2/showcases/${id}`)).body;
        return s.items.every((i: { status: string }) => i.status === 'completed') && s.items;
      },
      120_000,
      'the items to complete',
    );
    const [cropped, stretched, auto] = items;
    expect(cropped.dimensions).toEqual({ width_inches: 30, height_inches: 40 });
    expect(cropped.dimensions_cm).toEqual({ width_cm: 76.2, height_cm: 101.6 });
    expect(cropped.fit).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 0.75 });
    expect(cropped.texture.width / cropped.texture.height).toBeCloseTo(0.75, 2);
    expect(cropped.frame).toMatchObject({ style: 'canvas', depth_inches: 1.5 });
    expect(cropped.outer_dimensions).toEqual({ width_inches: 30, height_inches: 40, depth_inches: 1.5 });

    expect(stretched.dimensions).toEqual({ width_inches: 40, height_inches: 20 });
    expect(stretched.fit).toMatchObject({ requested: 'stretch', applied: 'stretch' });
    expect(stretched.texture.width / stretched.texture.height).toBeCloseTo(4 / 3, 2);
    // The frame is added outside the picture.
    expect(stretched.outer_dimensions).toMatchObject({ width_inches: 41, height_inches: 21 });

    // The spec's default is untouched: 24 in on the shorter side, no fit.
    expect(auto.dimensions).toEqual({ width_inches: 32, height_inches: 24 });
    expect(auto.fit).toBeUndefined();

    for (const [item, w, h] of [
      [cropped, 30, 40],
      [stretched, 40, 20],
    ] as const) {
      const glb = await bytes(item.glb_url);
      expect((await validateGlb(glb)).numErrors).toBe(0);
      const [gw, gh] = await glbPictureInches(glb);
      expect(Math.abs(gw - w)).toBeLessThan(0.01);
      expect(Math.abs(gh - h)).toBeLessThan(0.01);
      const [uw, uh] = await usdzPictureInches(await bytes(item.usdz_url));
      expect(Math.abs(uw - w)).toBeLessThan(0.01);
      expect(Math.abs(uh - h)).toBeLessThan(0.01);
    }
  }, 180_000);

  it('refuses half a size, two units at once, a fit without a size and a size out of range, naming the field', async () => {
    const url = `${media.base}/photo.jpg`;
    const bad = async (item: Record<string, unknown>, param: string, code = 'parameter_invalid') => {
      const r = await api.req('POST', '/api/v2/showcases', { items: [{ image_url: url, ...item }] });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ param, code });
    };
    await bad({ width_cm: 50 }, 'items[0].height_cm', 'parameter_missing');
    await bad({ width_cm: 50, height_cm: 40, width_inches: 10, height_inches: 10 }, 'items[0].width_cm');
    await bad({ fit: 'crop' }, 'items[0].fit', 'parameter_missing');
    await bad({ width_cm: 400, height_cm: 40 }, 'items[0].width_cm');
    await bad({ width_inches: 10, height_inches: 10, fit: 'cover' }, 'items[0].fit');
    await bad({ depth_inches: 9 }, 'items[0].depth_inches');
  });

  it("keeps the label, external id, availability and order of each item, and the showcase's units and locale", async () => {
    const url = `${media.base}/photo.jpg`;
    const created = await api.req('POST', '/api/v2/showcases', {
      units: 'cm',
      locale: 'de',
      items: [
        {
          image_url: url,
          title: 'Dünen am Morgen',
          artist: '  Hilma af Klint ',
          year: 'c. 1890',
          medium: 'Öl auf Leinwand',
          edition: '3/25',
          description: 'Erste Zeile.\nZweite Zeile.',
          external_id: 'INV-1',
          availability: 'sold',
          position: 2,
          price: '1.200 €',
        },
        { image_url: url, external_id: 'INV-2', position: 1 },
        { image_url: url },
      ],
    });
    expect(created.status).toBe(201);
    const s = (await api.req('GET', `/api/v2/showcases/${created.body.id}`)).body;
    expect(s).toMatchObject({ units: 'cm', locale: 'de' });
    // The gallery's order: positions first, then the order of adding.
    expect(s.items.map((i: { external_id: string | null }) => i.external_id)).toEqual(['INV-2', 'INV-1', null]);
    expect(s.items[1]).toMatchObject({
      artist: 'Hilma af Klint',
      year: 'c. 1890',
      medium: 'Öl auf Leinwand',
      edition: '3/25',
      description: 'Erste Zeile.\nZweite Zeile.',
      external_id: 'INV-1',
      availability: 'sold',
      position: 2,
    });
    expect(s.items[2]).toMatchObject({ artist: null, external_id: null, availability: 'available', position: null });

    // external_id is unique in the showcase: twice in one request is a 400, an existing one a 409; nothing is charged or added.
    const twice = await api.req('POST', `/api/v2/showcases/${s.id}/items`, {
      items: [
        { image_url: url, external_id: 'X' },
        { image_url: url, external_id: 'X' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.param).toBe('items[1].external_id');
    const taken = await api.req('POST', `/api/v2/showcases/${s.id}/items`, { items: [{ image_url: url, external_id: 'INV-1' }] });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'external_id_taken', param: 'external_id' });
    expect((await api.req('GET', `/api/v2/showcases/${s.id}`)).body.items).toHaveLength(3);

    for (const [field, value] of [
      ['artist', 'x'.repeat(121)],
      ['year', 'x'.repeat(21)],
      ['availability', 'gone'],
      ['position', -1],
      ['external_id', ' '],
    ] as const) {
      const r = await api.req('POST', `/api/v2/showcases/${s.id}/items`, { items: [{ image_url: url, [field]: value }] });
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(`items[0].${field}`);
    }
    const units = await api.req('PATCH', `/api/v2/showcases/${s.id}`, { units: 'mm' });
    expect(units.body.error?.param).toBe('units');
    const back = await api.req('PATCH', `/api/v2/showcases/${s.id}`, { units: 'in', locale: 'ja' });
    expect(back.body).toMatchObject({ units: 'in', locale: 'ja' });
  });
});
