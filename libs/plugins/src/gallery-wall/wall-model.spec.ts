import sharp from 'sharp';
import { UserError } from '@app/pipeline';
import { VIEWER_BUDGETS } from '@app/scene';
import { glbWallPictures, readGlb, readUsdz, samplePixel, tinyusdzParse, validateGlb } from '@app/testing';
import type { WallArrangement } from './arrange-wall';
import { buildGalleryWall, buildWallModel, type GalleryWall, type WallPictureInput } from './wall-model';

const IN = 0.0254;

/** A small opaque JPEG of one colour (or noise, for realistic file sizes). */
async function jpeg(width: number, height: number, hue: number, noise = false): Promise<Buffer> {
  const rgb = { r: (hue * 53) % 256, g: (hue * 97 + 60) % 256, b: (hue * 151 + 120) % 256 };
  if (!noise)
    return sharp({ create: { width, height, channels: 3, background: rgb } })
      .jpeg()
      .toBuffer();
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: rgb } })
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

const FRAMES = [
  { frame: { style: 'classic', color: 'walnut' }, mat: { width_inches: 2 } },
  { frame: { style: 'thin', color: 'black' } },
  { frame: { style: 'canvas' } },
  {},
  { frame: { style: 'float', color: 'gold' } },
];

/** n pictures of assorted sizes and frames; texture px as given (aspect from the size). */
async function pictures(n: number, opts: { px?: number; sameFrame?: boolean; noise?: boolean } = {}): Promise<WallPictureInput[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const w = 10 + ((i * 7) % 5) * 4;
      const h = 12 + ((i * 3) % 4) * 4;
      const px = opts.px ?? 64;
      const [tw, th] = w >= h ? [px, Math.round((px * h) / w)] : [Math.round((px * w) / h), px];
      // Every third picture is cropped: its texture is a 4:3 / 3:4 other than its size.
      const crop = i % 3 === 2;
      const [sw, sh] = crop ? (w >= h ? [tw, Math.round(tw * 0.5)] : [Math.round(th * 0.5), th]) : [tw, th];
      return {
        texture: { image: await jpeg(sw, sh, i + 1, opts.noise), mime: 'image/jpeg' as const, width: sw, height: sh },
        sourceWidth: sw,
        sourceHeight: sh,
        spec: { width_inches: w, height_inches: h, fit: 'crop', ...(opts.sameFrame ? FRAMES[0] : FRAMES[i % FRAMES.length]) },
      };
    }),
  );
}

/** Per Item_<i> node of a GLB: translation and the world bounds (x, y) of its picture primitives, in inches. */
const glbItems = async (glb: Buffer) => (await glbWallPictures(glb)).pictures;

/** The xformOp:translate of each Item_<i> Xform in a USDZ's root layer, in inches. */
async function usdzItems(usdz: Buffer): Promise<Map<number, number[]>> {
  const { usda } = await readUsdz(usdz);
  const out = new Map<number, number[]>();
  for (const m of usda.matchAll(/def Xform "Item_(\d+)"\s*\{\s*double3 xformOp:translate = \(([^)]*)\)/g)) {
    out.set(
      Number(m[1]),
      m[2].split(',').map((v) => Number(v) / IN),
    );
  }
  return out;
}

const err = async (p: Promise<unknown>): Promise<UserError> => {
  try {
    await p;
  } catch (e) {
    return e as UserError;
  }
  throw new Error('expected a UserError');
};

describe('buildGalleryWall: one AR file of several pictures, true to size', () => {
  const arrangements: WallArrangement[] = ['row', 'grid', 'salon', 'custom'];
  for (const arrangement of arrangements) {
    for (const n of [2, 3, 6, 12]) {
      it(`${arrangement}, ${n} pictures: each picture at its position and size in the GLB and the USDZ; valid; <= 10 materials`, async () => {
        const pics = await pictures(n);
        const custom = pics.map((_, i) => ({ x_inches: ((i % 4) - 1.5) * 40, y_inches: (1 - Math.floor(i / 4)) * 40 }));
        const wall: GalleryWall = await buildGalleryWall(pics, { arrangement, gapInches: 2.5, custom });
        const { layout, model, bodies } = wall;
        expect(layout.positions).toHaveLength(n);
        expect((await validateGlb(bodies.glb)).numErrors).toBe(0);

        const items = await glbItems(bodies.glb);
        expect(items.size).toBe(n);
        const usd = await usdzItems(bodies.usdz);
        expect(usd.size).toBe(n);
        model.pictures.forEach((p, i) => {
          const g = items.get(i)!;
          // The picture's centre is its outer centre (frames are symmetric), at its position; its size as asked.
          expect(Math.abs(g.centre[0] - layout.positions[i].x)).toBeLessThan(0.01);
          expect(Math.abs(g.centre[1] - layout.positions[i].y)).toBeLessThan(0.01);
          expect(Math.abs(g.size[0] - p.dimensions.width_inches)).toBeLessThan(0.01);
          expect(Math.abs(g.size[1] - p.dimensions.height_inches)).toBeLessThan(0.01);
          expect(g.translation[2]).toBe(0);
          const t = usd.get(i)!;
          expect(Math.abs(t[0] - layout.positions[i].x)).toBeLessThan(0.01);
          expect(Math.abs(t[1] - layout.positions[i].y)).toBeLessThan(0.01);
          expect(p.position).toEqual({ x_inches: layout.positions[i].x, y_inches: layout.positions[i].y });
        });
        if (arrangement === 'custom') expect(layout.positions).toEqual(custom.map((c) => ({ x: c.x_inches, y: c.y_inches })));

        const doc = await readGlb(bodies.glb);
        const mats = doc.getRoot().listMaterials();
        expect(mats.length).toBeLessThanOrEqual(VIEWER_BUDGETS.maxMaterials);
        expect(model.budget.materials).toBe(mats.length);
        // Anchored on the wall like a single picture: vertical plane anchoring in the USDZ.
        const { usda } = await readUsdz(bodies.usdz);
        expect(usda).toContain('uniform token preliminary:planeAnchoring:alignment = "vertical"');
        expect(usda).toContain('defaultPrim = "Wall"');
        if (n <= 3) expect(model.textures.atlas).toBe(false);
        if (n === 12) expect(model.textures.atlas).toBe(true);
        // The poster: a JPEG at most 2048 px wide.
        const meta = await sharp(bodies.poster.image).metadata();
        expect(meta.format).toBe('jpeg');
        expect(meta.width).toBeLessThanOrEqual(2048);
        expect(meta.height).toBeLessThanOrEqual(2048);
      });
    }
  }

  it('12 framed pictures, every one its own texture: atlases, shared frame, mat and back materials', async () => {
    const pics = await pictures(12, { sameFrame: true });
    const { model, bodies } = await buildGalleryWall(pics, { arrangement: 'grid' });
    const names = (await readGlb(bodies.glb))
      .getRoot()
      .listMaterials()
      .map((m) => m.getName());
    // One frame (walnut grain) for all twelve; one material for every mat and back (the mat's white and the back's
    // brown take light alike after the merge: a palette); the pictures' atlas.
    const meshMaterials = (name: string) =>
      new Set(model.scene.nodes.flatMap((n) => n.meshes.filter((m) => m.name === name).map((m) => m.material)));
    expect([...meshMaterials('Frame')]).toEqual(['Frame']);
    expect(names.filter((n) => n.startsWith('Frame'))).toEqual(['Frame']);
    const matAndBack = new Set([...meshMaterials('Mat'), ...meshMaterials('Back')]);
    expect(matAndBack.size).toBe(1);
    expect(names.filter((n) => !n.startsWith('Picture'))).toEqual(['Frame', ...matAndBack]);
    expect(names.length).toBeLessThanOrEqual(10);
    expect(model.textures).toMatchObject({ atlas: true, reencoded: true, count: names.filter((n) => n.startsWith('Picture')).length });
    expect(model.textures.px.every(([w, h]) => w <= 2048 && h <= 2048)).toBe(true);
    // tinyusdz reads the USDZ: every picture's meshes, the atlases as its images.
    const usd = tinyusdzParse(bodies.usdz);
    expect(usd.error).toBe('');
    expect(usd.meshes.filter((m) => m.name === 'Front')).toHaveLength(12);
    // Every picture keeps its own look: the atlas pixel under its quad is its colour.
    const scene = model.scene;
    for (const i of [0, 5, 11]) {
      const front = scene.nodes.find((n) => n.name === `Item_${i}`)!.meshes.find((m) => m.name === 'Front')!;
      const [u0, v0] = [Math.min(...front.uvs!.filter((_, k) => k % 2 === 0)), Math.min(...front.uvs!.filter((_, k) => k % 2 === 1))];
      const [u1, v1] = [Math.max(...front.uvs!.filter((_, k) => k % 2 === 0)), Math.max(...front.uvs!.filter((_, k) => k % 2 === 1))];
      const tex = scene.textures.find((t) => t.id === scene.materials.find((m) => m.id === front.material)!.texture)!;
      const want = await samplePixel(pics[i].texture.image, 0.5, 0.5);
      const got = await samplePixel(tex.image, (u0 + u1) / 2, (v0 + v1) / 2);
      got.forEach((c, k) => expect(Math.abs(c - want[k])).toBeLessThan(12));
    }
  });

  it('a few pictures within every budget keep their own textures, byte for byte', async () => {
    const pics = await pictures(3, { sameFrame: true });
    const { model, bodies } = await buildGalleryWall(pics, { arrangement: 'row' });
    expect(model.textures).toMatchObject({ atlas: false, reencoded: false, count: 3, picture_px: 64 });
    const { files } = await readUsdz(bodies.usdz);
    pics.forEach((p, i) => expect(files.get(`textures/picture_${i}.jpg`)!.equals(p.texture.image)).toBe(true));
  });

  it('the poster shows each framed picture at its place on a light wall', async () => {
    const pics = await pictures(3);
    const { layout, model, bodies } = await buildGalleryWall(pics, { arrangement: 'row', gapInches: 6 });
    const { width, height } = model.poster;
    expect(width).toBe(2048);
    expect(height).toBeLessThanOrEqual(2048);
    // The wall in a corner; each picture's colour at its centre.
    const wall = await samplePixel(bodies.poster.image, 0.01, 0.01);
    wall.forEach((c) => expect(c).toBeGreaterThan(215));
    for (let i = 0; i < 3; i++) {
      // The poster's centre is the arrangement's (a margin all round).
      const ppi = width / (layout.bounds.width + 2 * Math.max(6, 0.08 * Math.max(layout.bounds.width, layout.bounds.height)));
      const x = 0.5 + (layout.positions[i].x * ppi) / width;
      const y = 0.5 - (layout.positions[i].y * ppi) / height;
      const want = await samplePixel(pics[i].texture.image, 0.5, 0.5);
      const got = await samplePixel(bodies.poster.image, x, y);
      got.forEach((c, k) => expect(Math.abs(c - want[k])).toBeLessThan(16));
    }
  });

  it('12 pictures of 2048 px: decoded textures within 200 MB, the file within budget, the resolution reported', async () => {
    const pics = await pictures(12, { px: 2048, noise: true });
    const t0 = performance.now();
    const { model, bodies } = await buildGalleryWall(pics, { arrangement: 'salon' });
    const ms = performance.now() - t0;
    console.log(`12 x 2048 px wall: ${Math.round(ms)} ms, textures ${JSON.stringify(model.textures)}, glb ${bodies.glb.length} B`);
    expect(model.budget.decodedTextureBytes).toBeLessThanOrEqual(VIEWER_BUDGETS.maxDecodedTextureBytes);
    expect(model.budget.materials).toBeLessThanOrEqual(10);
    expect(model.textures.atlas).toBe(true);
    expect(model.textures.picture_px).toBeGreaterThanOrEqual(512);
    expect(model.textures.picture_px).toBeLessThan(2048);
    expect(bodies.glb.length).toBeLessThanOrEqual(VIEWER_BUDGETS.maxFileBytes);
    expect(bodies.usdz.length).toBeLessThanOrEqual(VIEWER_BUDGETS.maxFileBytes);
    expect((await validateGlb(bodies.glb)).numErrors).toBe(0);
  });

  it('refuses overlapping custom positions and walls over 480 in, naming the item', async () => {
    const pics = await pictures(3);
    const e = await err(
      buildGalleryWall(pics, {
        arrangement: 'custom',
        custom: [
          { x_inches: 0, y_inches: 0 },
          { x_inches: 60, y_inches: 0 },
          { x_inches: 5, y_inches: 5 },
        ],
      }),
    );
    expect(e).toBeInstanceOf(UserError);
    expect(e.param).toBe('items[2]');
    expect(e.message).toMatch(/^wall: items\[2\]: overlaps items\[0\]/);
    const big = pics.map((p) => ({ ...p, spec: { width_inches: 120, height_inches: 80 } }));
    await expect(buildGalleryWall([...big, ...big], { arrangement: 'row' })).rejects.toThrow(
      /^wall: items: the arrangement would be .* at most 480 in/,
    );
  });

  it("refuses a bad spec naming the item's field, and a picture on the floor", async () => {
    const pics = await pictures(3);
    pics[1].spec = { ...pics[1].spec, frame: { style: 'baroque' } };
    const e = await err(buildGalleryWall(pics, { arrangement: 'row' }));
    expect(e).toBeInstanceOf(UserError);
    expect(e.param).toBe('items[1].frame.style');
    expect(e.message).toMatch(/^wall: items\[1\]\.frame\.style/);
    pics[1].spec = { width_inches: 10, height_inches: 10, placement: 'floor' };
    const f = await err(
      buildWallModel(
        pics,
        [
          { x: 0, y: 0 },
          { x: 20, y: 0 },
          { x: 40, y: 0 },
        ],
        { itemsParam: 'pictures' },
      ),
    );
    expect(f.param).toBe('pictures[1].placement');
  });
});
