import { createShowcase, type ShowcaseFixture, startShowcaseFixture } from './support/showcase-fixture';
import { type OpenUsd, openUsd, usdAttribute } from './support/openusd';

/**
 * Catalogue, real size per item, checked the way phones read the files: showcase items given their size in
 * centimetres or inches load in OpenUSD itself (three-usdz-loader in headless Chromium) at that size, the frame
 * outside it, wall-anchored. (The GLB side, with the glTF validator: test/catalogue.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-catalogue-size-browser';
const IN = 0.0254;

let fixture: ShowcaseFixture;
let usd: OpenUsd;

beforeAll(async () => {
  fixture = await startShowcaseFixture({ ownerKey: OWNER });
  usd = await openUsd();
}, 90_000);

afterAll(async () => {
  await usd?.close();
  await fixture?.close();
});

it('loads each item in OpenUSD at its given size, the frame outside it', async () => {
  const url = `${fixture.media.base}/street.jpg`;
  const items = [
    // [request fields, picture width x height in inches, outer width x height x depth]
    [{ width_cm: 76.2, height_cm: 101.6, frame: 'canvas', depth_cm: 3.81 }, [30, 40], [30, 40, 1.5]],
    [{ width_inches: 40, height_inches: 20, fit: 'stretch', frame: 'thin', mat: { width_inches: 2 } }, [40, 20], [45, 25, 0.75]],
    [{ width_cm: 50, height_cm: 50, frame: { style: 'classic', color: 'oak' } }, [19.685, 19.685], [22.685, 22.685, 1.25]],
  ] as const;
  const done = (await createShowcase(fixture.owner, { items: items.map(([f]) => ({ image_url: url, ...f })) }, { timeoutMs: 120_000 }))
    .items;
  for (const [i, [, picture, outer]] of items.entries()) {
    const item = done[i];
    expect([item.dimensions.width_inches, item.dimensions.height_inches]).toEqual(picture.map((v) => expect.closeTo(v, 2)));
    const usdz = Buffer.from(await (await fetch(item.usdz_url)).arrayBuffer());
    const report = await usd.load(usdz, `item-${i}.usdz`, { times: [0] });
    expect(report.errors).toEqual([]);
    expect(usdAttribute(report, '/Card', 'preliminary:planeAnchoring:alignment')).toBe('"vertical"');
    // The whole object: the picture plus the frame and mat outside it, its depth from the wall (USD's y is up, z out).
    const [x, y, z] = report.bounds!.max.map((v, k) => (v - report.bounds!.min[k]) / IN);
    expect(Math.abs(x - outer[0])).toBeLessThan(0.01);
    expect(Math.abs(z - outer[1])).toBeLessThan(0.01);
    expect(Math.abs(y - outer[2])).toBeLessThan(0.01);
    // The picture itself (the front face, bound to the Picture material), at exactly the size given.
    const front = report.meshes.find((m) => m.path.endsWith('/Front'));
    expect(front?.material).toMatch(/Picture/);
    const b = report.boundsAt[0].meshes[front!.path]!;
    const [w, h] = [(b.max[0] - b.min[0]) / IN, (b.max[2] - b.min[2]) / IN];
    expect(Math.abs(w - picture[0])).toBeLessThan(0.01);
    expect(Math.abs(h - picture[1])).toBeLessThan(0.01);
  }
}, 180_000);
