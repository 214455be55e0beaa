import sharp from 'sharp';
import { VIEWER_BUDGETS } from '@app/scene';
import { glbWallPictures, noisyPhoto, readGlb, validateGlb } from '@app/testing';
import { type Api, waitFor } from './support/app-process';
import { createShowcase, type ShowcaseFixture, startShowcaseFixture } from './support/showcase-fixture';
import { type OpenUsd, openUsd, usdAttribute } from './support/openusd';

/**
 * Gallery walls checked the way the phones read them: 2, 3, 6 and 12 framed pictures of one showcase in every
 * arrangement, built through the running service, each GLB through the glTF validator and each USDZ in
 * OpenUSD itself (three-usdz-loader in headless Chromium), with every picture's place and size read back to
 * 0.01 in, wall anchoring, and the viewer budgets kept with 12 large (3000 px) framed pictures. (The API:
 * test/gallery-walls.e2e-spec.ts.)
 */

const OWNER = 'owner-key-for-gallery-walls-files';
const IN = 0.0254;

/** Twelve pictures of a catalogue: sizes (inches) and frames of every kind, sources 3000 px on the long side. */
const PICTURES = [
  { width_inches: 24, height_inches: 18, frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } },
  { width_inches: 16, height_inches: 20, frame: 'thin' },
  { width_inches: 20, height_inches: 20, frame: 'canvas' },
  { width_inches: 30, height_inches: 20, frame: { style: 'float', color: 'black' } },
  { width_inches: 11, height_inches: 14, frame: { style: 'thin', color: 'white' }, mat: { width_inches: 1.5 } },
  { width_inches: 36, height_inches: 24 },
  { width_inches: 12, height_inches: 12, frame: { style: 'classic', color: 'walnut' } },
  { width_inches: 18, height_inches: 24, frame: { style: 'thin', color: 'gold' } },
  { width_inches: 14, height_inches: 11, frame: 'thin', mat: { width_inches: 2 } },
  { width_inches: 24, height_inches: 36, frame: { style: 'classic', color: 'black' } },
  { width_inches: 10, height_inches: 8, frame: { style: 'float', color: 'oak' } },
  { width_inches: 20, height_inches: 16, frame: 'canvas' },
] as const;

let fixture: ShowcaseFixture;
let api: Api;
let usd: OpenUsd;
let showcaseId: number;
let itemIds: number[];
let variantItemId: number;

beforeAll(async () => {
  // Made side by side (sharp works off the event loop, on both cores): thirteen 3000 px photos, one grain.
  const sized = PICTURES.map((p) =>
    p.width_inches >= p.height_inches
      ? [3000, Math.round((3000 * p.height_inches) / p.width_inches)]
      : [Math.round((3000 * p.width_inches) / p.height_inches), 3000],
  );
  const photos = await Promise.all([...sized.map(([w, h], i) => noisyPhoto(w, h, i + 1, 88)), noisyPhoto(3000, 2000, 20, 88)]);
  const files: Record<string, Buffer> = Object.fromEntries(photos.map((b, i) => [i < PICTURES.length ? `/p${i}.jpg` : '/wide.jpg', b]));
  fixture = await startShowcaseFixture({ ownerKey: OWNER, files });
  api = fixture.owner;
  const done = await createShowcase(api, {
    items: [
      ...PICTURES.map((p, i) => ({ image_url: `${fixture.media.base}/p${i}.jpg`, title: `Picture ${i}`, ...p })),
      {
        image_url: `${fixture.media.base}/wide.jpg`,
        title: 'Sizes',
        variants: [
          { sku: 'S', width_inches: 12, height_inches: 8 },
          { sku: 'L-OAK', width_inches: 30, height_inches: 30, fit: 'crop', frame: { style: 'classic', color: 'oak' } },
        ],
      },
    ],
  });
  showcaseId = done.id;
  itemIds = done.items.slice(0, PICTURES.length).map((i: { id: number }) => i.id);
  variantItemId = done.items[PICTURES.length].id;
  usd = await openUsd();
}, 360_000);

afterAll(async () => {
  await usd?.close();
  await fixture?.close();
});

const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const settled = (id: string) =>
  waitFor(
    async () => {
      const w = (await api.req('GET', `/api/v2/showcases/${showcaseId}/walls/${id}`)).body;
      return (w.status === 'completed' || w.status === 'failed') && w;
    },
    240_000,
    `wall ${id}`,
  );

/** Decoded bytes of a GLB's textures with mipmaps, as the viewer budget counts them. */
async function decodedTextureBytes(doc: Awaited<ReturnType<typeof readGlb>>): Promise<number> {
  let total = 0;
  for (const t of doc.getRoot().listTextures()) {
    const meta = await sharp(Buffer.from(t.getImage()!)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(VIEWER_BUDGETS.maxTexturePx);
    total += Math.ceil((meta.width! * meta.height! * 4 * 4) / 3);
  }
  return total;
}

describe.each(['row', 'grid', 'salon', 'custom'] as const)('%s', (arrangement) => {
  it.each([2, 3, 6, 12])(
    '%i framed pictures: every place and size in the GLB and in OpenUSD, wall-anchored, within budget',
    async (n) => {
      const picked = itemIds.slice(0, n).map((item_id) => ({ item_id }));
      let items: Record<string, unknown>[] = picked;
      if (arrangement === 'custom') {
        // Start from the grid with room between, then move every other picture: a hand-made hang.
        const grid = (
          await api.req('POST', `/api/v2/showcases/${showcaseId}/walls/layout`, { items: picked, arrangement: 'grid', gap_inches: 8 })
        ).body;
        items = grid.items.map((p: Record<string, number>, i: number) => ({
          item_id: p.item_id,
          x_inches: p.x_inches + (i % 2 ? 2.5 : 0),
          y_inches: p.y_inches + (i % 2 ? -1.5 : 1),
        }));
      }
      const created = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, {
        name: `${arrangement} ${n}`,
        items,
        arrangement,
        gap_inches: 3,
      });
      expect(created.status).toBe(202);
      const wall = await settled(created.body.id);
      expect([wall.status, wall.error]).toEqual(['completed', null]);
      expect(wall.items).toHaveLength(n);
      if (arrangement === 'custom')
        wall.items.forEach((p: Record<string, number>, i: number) => {
          expect(p.x_inches).toBe(items[i].x_inches);
          expect(p.y_inches).toBe(items[i].y_inches);
        });

      // The GLB: valid, each picture at its place and size.
      const glb = await bytes(wall.glb_url);
      expect(glb.length).toBeLessThanOrEqual(VIEWER_BUDGETS.maxFileBytes);
      expect((await validateGlb(glb)).numErrors).toBe(0);
      const { doc, pictures } = await glbWallPictures(glb);
      expect(pictures.size).toBe(n);
      wall.items.forEach((p: Record<string, number>, i: number) => {
        const g = pictures.get(i)!;
        expect(Math.abs(g.centre[0] - p.x_inches)).toBeLessThan(0.01);
        expect(Math.abs(g.centre[1] - p.y_inches)).toBeLessThan(0.01);
        expect(Math.abs(g.size[0] - PICTURES[i].width_inches)).toBeLessThan(0.01);
        expect(Math.abs(g.size[1] - PICTURES[i].height_inches)).toBeLessThan(0.01);
      });
      expect(doc.getRoot().listMaterials().length).toBeLessThanOrEqual(VIEWER_BUDGETS.maxMaterials);
      const decoded = await decodedTextureBytes(doc);
      expect(decoded).toBeLessThanOrEqual(VIEWER_BUDGETS.maxDecodedTextureBytes);
      if (n === 12) {
        // Twelve 3000 px pictures would decode to ~550 MB: packed into atlases, the resolution reported.
        expect(wall.textures).toMatchObject({ atlas: true, reencoded: true });
        expect(wall.textures.picture_px).toBeGreaterThan(256);
      }

      // The USDZ in OpenUSD: opens clean, wall-anchored, each picture's front at its place and size.
      const report = await usd.load(await bytes(wall.usdz_url), `wall-${arrangement}-${n}.usdz`, { times: [0] });
      expect(report.errors).toEqual([]);
      expect(usdAttribute(report, '/Wall', 'preliminary:planeAnchoring:alignment')).toBe('"vertical"');
      wall.items.forEach((p: Record<string, number>, i: number) => {
        const front = report.meshes.find((m) => new RegExp(`/Item_${i}(_[^/]+)?/Front$`).test(m.path));
        expect(front?.material).toMatch(/Picture/);
        const b = report.boundsAt[0].meshes[front!.path]!;
        // three-usdz-loader's frame: x right, z up the wall (as in test/variants-files.browser.e2e-spec.ts).
        const [w, h] = [(b.max[0] - b.min[0]) / IN, (b.max[2] - b.min[2]) / IN];
        const [cx, cz] = [(b.max[0] + b.min[0]) / 2 / IN, (b.max[2] + b.min[2]) / 2 / IN];
        expect(Math.abs(w - PICTURES[i].width_inches)).toBeLessThan(0.01);
        expect(Math.abs(h - PICTURES[i].height_inches)).toBeLessThan(0.01);
        expect(Math.abs(cx - p.x_inches)).toBeLessThan(0.01);
        expect(Math.abs(Math.abs(cz) - Math.abs(p.y_inches))).toBeLessThan(0.01);
      });
      // The whole wall's outer size, frames included, as the API reports it.
      const [x, , z] = report.bounds!.max.map((v, i) => (v - report.bounds!.min[i]) / IN);
      expect(Math.abs(x - wall.outer_dimensions.width_inches)).toBeLessThan(0.01);
      expect(Math.abs(z - wall.outer_dimensions.height_inches)).toBeLessThan(0.01);
    },
    300_000,
  );
});

it("hangs an item's variant at the variant's size and frame", async () => {
  const created = await api.req('POST', `/api/v2/showcases/${showcaseId}/walls`, {
    items: [{ item_id: itemIds[1] }, { item_id: variantItemId, variant_sku: 'L-OAK' }],
  });
  expect(created.status).toBe(202);
  expect(created.body.wall.items[1]).toMatchObject({ variant_sku: 'L-OAK', width_inches: 33, height_inches: 33 });
  const wall = await settled(created.body.id);
  expect(wall.status).toBe('completed');
  const { pictures } = await glbWallPictures(await bytes(wall.glb_url));
  expect(pictures.get(1)!.size.map((v) => Math.round(v * 100) / 100)).toEqual([30, 30]);
  const report = await usd.load(await bytes(wall.usdz_url), 'wall-variant.usdz', { times: [0] });
  expect(report.errors).toEqual([]);
}, 120_000);
