import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { type OpenUsd, openUsd, usdAttribute } from './support/openusd';

/**
 * Variants, checked the way iPhones read the files: each variant of one print-shop item loads in OpenUSD itself
 * (three-usdz-loader in headless Chromium) with its picture at its own size to 0.01 in, the frame and mat
 * outside it, wall-anchored, all from the one picture. (The GLBs with the glTF validator, the API and
 * rebuilds: test/variants.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-variants-files-browser';
const IN = 0.0254;
const CM = 1 / 2.54;

let app: TestApp;
let api: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let usd: OpenUsd;

beforeAll(async () => {
  media = await startMediaServer();
  app = await startServiceApp(OWNER);
  api = new Api(app.base, OWNER);
  usd = await openUsd();
}, 90_000);

afterAll(async () => {
  await usd?.close();
  await app?.close();
  await media?.stop();
});

it("loads every variant's USDZ in OpenUSD at its own size, the frame outside it", async () => {
  // [variant, picture width x height in inches, outer width x height x depth]
  const variants = [
    [{ sku: 'A3', width_cm: 29.7, height_cm: 42 }, [29.7 * CM, 42 * CM], [29.7 * CM, 42 * CM, 0.04]],
    [
      { sku: 'LANDSCAPE', width_cm: 70, height_cm: 50, frame: 'thin', mat: { width_inches: 2 } },
      [70 * CM, 50 * CM],
      [70 * CM + 5, 50 * CM + 5, 0.75],
    ],
    [
      { sku: 'OAK', width_cm: 50, height_cm: 70, frame: { style: 'classic', color: 'oak' } },
      [50 * CM, 70 * CM],
      [50 * CM + 3, 70 * CM + 3, 1.25],
    ],
    [{ sku: 'SQUARE-CANVAS', width_cm: 40, height_cm: 40, frame: 'canvas', depth_cm: 3.81 }, [40 * CM, 40 * CM], [40 * CM, 40 * CM, 1.5]],
    [{ sku: 'STRETCH', width_inches: 40, height_inches: 10, fit: 'stretch' }, [40, 10], [40, 10, 0.04]],
  ] as const;
  const created = await api.req('POST', '/api/v2/showcases', {
    items: [{ image_url: `${media.base}/street.jpg`, title: 'Street', variants: variants.map(([v]) => v) }],
  });
  expect(created.status).toBe(201);
  const item = await waitFor(
    async () => {
      const s = (await api.req('GET', `/api/v2/showcases/${created.body.id}`)).body;
      const i = s.items[0];
      return i.status === 'completed' && i.variants.every((v: { status: string }) => v.status === 'ready') && i;
    },
    120_000,
    'the item and its variants',
  );
  for (const [k, [, picture, outer]] of variants.entries()) {
    const v = item.variants[k];
    const usdz = Buffer.from(await (await fetch(v.usdz_url)).arrayBuffer());
    const report = await usd.load(usdz, `variant-${k}.usdz`, { times: [0] });
    expect(report.errors).toEqual([]);
    expect(usdAttribute(report, '/Card', 'preliminary:planeAnchoring:alignment')).toBe('"vertical"');
    // The whole object (USD's y is up, z out of the wall).
    const [x, y, z] = report.bounds!.max.map((n, i) => (n - report.bounds!.min[i]) / IN);
    expect(Math.abs(x - outer[0])).toBeLessThan(0.01);
    expect(Math.abs(z - outer[1])).toBeLessThan(0.01);
    if (k !== 0 && k !== 4) expect(Math.abs(y - outer[2])).toBeLessThan(0.01);
    // The picture itself, on the Picture material, at exactly the variant's size.
    const front = report.meshes.find((m) => m.path.endsWith('/Front'));
    expect(front?.material).toMatch(/Picture/);
    const b = report.boundsAt[0].meshes[front!.path]!;
    const [w, h] = [(b.max[0] - b.min[0]) / IN, (b.max[2] - b.min[2]) / IN];
    expect(Math.abs(w - picture[0])).toBeLessThan(0.01);
    expect(Math.abs(h - picture[1])).toBeLessThan(0.01);
  }
}, 180_000);
