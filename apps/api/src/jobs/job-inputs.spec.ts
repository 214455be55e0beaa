import type { ItemChanges, ShowcaseItemRow, ShowcaseRow } from '@app/persistence';
import { AnimatedArJobInput, PictureJobInput, RebuildJobInput, VariantsJobInput, WallJobInput } from '@app/plugins';
import { jobInputSchema, parseJobInput } from '@app/runtime';
import { parseAnimatedArRequest } from '../animated-ar/animated-ar.schema';
import { ItemEdits } from '../showcases/item-edits.service';
import { parseItem } from '../showcases/item/item-request';
import type { WallSpec } from '../walls/walls.schema';
import { WallsService } from '../walls/walls.service';
import { ConversionService } from './conversion.service';

/**
 * The job inputs the API writes are what the worker's schemas accept (libs/plugins job-inputs, chosen by
 * libs/runtime jobInputSchema), and come back from the worker's parse unchanged: the stages read what was stored.
 */
const parsesAs = (kind: string, input: Record<string, unknown>, schema: unknown) => {
  expect(jobInputSchema({ kind, input })).toBe(schema);
  expect(parseJobInput({ kind, input })).toEqual(input);
};

const LOOK = {
  frame: { style: 'classic', color: 'oak' },
  mat: { width_inches: 2 },
  title: ' Dunes ',
  link_url: 'https://shop.example/d',
  call_to_action: 'Buy',
};

describe('the job inputs the API writes', () => {
  it('v1 convert', async () => {
    const created: Record<string, unknown>[] = [];
    const svc = new ConversionService(
      { create: async (j: { input: Record<string, unknown> }) => (created.push(j.input), { id: 'api_x' }) } as never,
      {} as never,
      {} as never,
      { pipelineFor: () => 'still-image' } as never,
      { admit: async () => 0, enqueue: async () => undefined } as never,
      {} as never,
      {} as never,
      { allowPrivateNetworks: true } as never,
    );
    await svc.submit('usr_1', {
      image_url: 'https://cdn.example/a.jpg',
      callback_url: 'https://hooks.example/x',
      width_inches: 24,
      height_inches: 18,
      ...LOOK,
    });
    await svc.submit('usr_1', { image_url: 'https://cdn.example/b.jpg', aspect_ratio: '16:9', frame: 'float', placement: null });
    expect(created[1]).toEqual({ image_url: 'https://cdn.example/b.jpg', aspect_ratio: '16:9', frame: 'float' });
    for (const input of created) parsesAs('v1.convert', input, PictureJobInput);
  });

  it('animated AR', () => {
    const image = parseAnimatedArRequest(
      {
        image_url: 'https://cdn.example/cat.gif',
        remove_background: true,
        motion_style: 'drift',
        loop: 'pingpong',
        width_inches: 10,
        height_inches: 12,
        ...LOOK,
      },
      ['procedural'],
      { blockPrivate: false },
    );
    const video = parseAnimatedArRequest(
      { video_url: 'https://cdn.example/c.mp4', motion_style: 'drift', aspect_ratio: '9:16' },
      ['procedural'],
      {
        blockPrivate: false,
      },
    );
    parsesAs('v2.animated-ar', image.input, AnimatedArJobInput);
    parsesAs('v2.animated-ar', video.input, AnimatedArJobInput);
  });

  it("a showcase item, its size over the showcase's defaults, with variants (as the repository assembles it)", () => {
    const it = parseItem(
      {
        image_url: 'https://cdn.example/a.jpg',
        width_cm: 100,
        height_cm: 70,
        depth_cm: 3,
        title: 'Dunes',
        variants: [
          { sku: 'A3', width_cm: 29.7, height_cm: 42 },
          {
            sku: 'B2-OAK',
            width_cm: 50,
            height_cm: 70,
            frame: { style: 'classic', color: 'oak' },
            mat: { width_inches: 2 },
            default: true,
          },
        ],
      },
      0,
      { frame: 'thin', finish: 'matte' },
      { withUrl: true },
    );
    // ShowcaseItemRepository.addItems: the source, the item's fields, the other variants' specs, the showcase.
    const input = {
      image_url: it.imageUrl,
      ...it.presentation,
      variants: it.variants!.filter((v) => !v.main).map((v) => ({ id: v.id, ...v.spec })),
      showcase_id: 7,
    };
    parsesAs('v2.picture', input, PictureJobInput);
    parsesAs(
      'v2.picture',
      { upload_key: 'uploads/usr_1/a.png', ...parseItem(null, 0, { frame: 'canvas' }, { withUrl: false }).presentation },
      PictureJobInput,
    );
  });

  it("an item's rebuild and its variants' build (item edits)", async () => {
    const writes: ItemChanges[] = [];
    const files = {
      id: 'v2_files',
      status: 'completed',
      input: {
        image_url: 'https://cdn.example/a.jpg',
        showcase_id: 7,
        frame: 'thin',
        title: 'Dunes',
        width_inches: 30,
        height_inches: 40,
        fit: 'crop',
      },
      result: { files: { glb: { key: 'models/v2_files/model.glb' } } },
    };
    const svc = new ItemEdits(
      {} as never,
      {} as never,
      {
        editItem: async (_i: unknown, _o: string, c: ItemChanges) => (writes.push(c), { rebuildJobId: 'v2_r', variantBuildJobId: 'v2_v' }),
      } as never,
      { find: async () => files } as never,
      { pipelineFor: () => 'showcase-picture' } as never,
      { admit: async () => 0, enqueue: async () => undefined } as never,
      {} as never,
      {} as never,
    );
    const item = {
      id: 12,
      jobId: 'v2_files',
      label: {},
      banner: null,
      pendingJobId: null,
      storedVariants: null,
    } as unknown as ShowcaseItemRow;
    const showcase = { id: 7 } as ShowcaseRow;
    await svc.apply('usr_1', showcase, item, {
      width_cm: 101.6,
      height_cm: 76.2,
      depth_inches: 1.25,
      frame: { style: 'classic', color: 'oak' },
    });
    parsesAs('v2.picture', writes[0].rebuild!.input, RebuildJobInput);

    await svc.apply('usr_1', showcase, item, {
      variants: [
        { sku: 'S', width_cm: 30, height_cm: 40 },
        { sku: 'L', width_cm: 60, height_cm: 80, frame: 'canvas' },
      ],
    });
    const build = writes[1].variants!.build!;
    // The repository adds the item and the variants waiting for the build (VARIANT_BUILD_INPUT).
    parsesAs('v2.picture', { ...build.input, variant_build: { item_id: 12, variant_ids: build.ids } }, VariantsJobInput);
  });

  it('a gallery wall', () => {
    // Only its route table is used to build the job.
    const svc = Object.assign(Object.create(WallsService.prototype) as WallsService, { routes: { pipelineFor: () => 'gallery-wall' } });
    const spec: WallSpec = { items: [], arrangement: 'grid', gap_inches: 3, align: 'top', columns: 2 };
    const picture = (i: number) => ({
      item_id: i,
      variant_sku: i === 2 ? 'B-12' : null,
      title: null,
      glb_key: `models/v2_${i}/model.glb`,
      poster_key: `models/v2_${i}/poster.jpg`,
      spec: { width_inches: 24, height_inches: 30, frame: 'thin' },
      texture: { width: 800, height: 1000 },
      ...(i === 2 ? { alpha: 'mask' as const } : {}),
    });
    const plan = {
      pictures: [picture(1), picture(2)],
      arrangement: { items: [], outer_dimensions: { width_inches: 1, height_inches: 1, depth_inches: 1 } },
    };
    const build = (svc as unknown as { build: (...a: unknown[]) => { input: Record<string, unknown> } }).build(
      { id: 7 },
      'Wall',
      spec,
      plan,
    );
    parsesAs('v2.picture', build.input, WallJobInput);
  });
});
