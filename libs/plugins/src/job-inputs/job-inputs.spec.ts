import { UserError } from '@app/pipeline';
import { parseInput, type z } from '@app/schema';
import {
  AnimatedArJobInput,
  CallbackJobInput,
  PictureJobInput,
  PresentationInput,
  RebuildJobInput,
  VariantsJobInput,
  WallJobInput,
} from './index';

/** What `parseInput` (the worker's parse) throws for `value`: its code, parameter and message. */
function refusal(schema: z.ZodType, value: unknown): { code: string; param?: string; message: string } {
  try {
    parseInput(schema, value);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { code: e.code, param: e.param, message: e.message };
  }
  throw new Error('accepted');
}

/** A job input comes back as stored: same fields, same values (nothing trimmed, converted or defaulted). */
const keeps = (schema: z.ZodType, input: Record<string, unknown>) => expect(schema.parse(input)).toEqual(input);

const FULL_LOOK = {
  placement: 'floor',
  allow_scaling: true,
  finish: 'matte',
  frame: { style: 'classic', color: ' OAK ', width_inches: 1.5 },
  mat: { width_inches: 2 },
  title: ' Dunes ',
  subtitle: 'Giclée print',
  link_url: 'https://shop.example.com/dunes',
  call_to_action: 'Buy',
  price: '$120',
};

describe('PictureJobInput', () => {
  it('accepts what the API writes: a v1 conversion, a showcase item by URL or upload, with variants', () => {
    keeps(PictureJobInput, { image_url: 'https://cdn.example/a.jpg' });
    keeps(PictureJobInput, {
      image_url: 'https://cdn.example/a.jpg',
      callback_url: 'https://hooks.example/x',
      width_inches: 24,
      height_inches: 36,
      ...FULL_LOOK,
    });
    keeps(PictureJobInput, { image_url: 'https://cdn.example/a.jpg', aspect_ratio: '16:9', frame: 'float' });
    keeps(PictureJobInput, {
      upload_key: 'uploads/usr_1/ab.png',
      width_inches: 39.3701,
      height_inches: 27.5591,
      fit: 'crop',
      frame: { style: 'none', depth_inches: 1.5 },
      showcase_id: 7,
      variants: [
        { id: 'var_a3unframed', width_inches: 11.69, height_inches: 16.54, fit: 'crop' },
        { id: 'var_b2oak0', frame: 'classic' },
      ],
    });
  });

  it('accepts what older versions stored: an empty variants list, nulls for fields not given, fields it does not know (kept)', () => {
    keeps(PictureJobInput, { image_url: 'https://cdn.example/a.jpg', variants: [], showcase_id: 3 });
    keeps(PictureJobInput, { image_url: 'https://cdn.example/a.jpg', frame: null, title: null, fit: null });
    keeps(PictureJobInput, {
      image_url: 'https://cdn.example/a.jpg',
      width_inches: 10,
      height_inches: 20,
      aspect_ratio: 'not a ratio',
      legacy: { x: 1 },
    });
  });

  it('refuses garbage with the field and the reason', () => {
    expect(refusal(PictureJobInput, 'https://cdn.example/a.jpg')).toMatchObject({ message: 'must be an object' });
    expect(refusal(PictureJobInput, null)).toMatchObject({ message: 'must be an object' });
    expect(refusal(PictureJobInput, { frame: 'thin' })).toEqual({
      code: 'parameter_missing',
      param: 'image_url',
      message: 'image_url: required: one of image_url, upload_key',
    });
    expect(refusal(PictureJobInput, { image_url: 'https://a/x.jpg', upload_key: 'uploads/x' })).toMatchObject({
      code: 'parameter_conflict',
      param: 'upload_key',
    });
    expect(refusal(PictureJobInput, { image_url: 42 })).toEqual({
      code: 'parameter_invalid',
      param: 'image_url',
      message: 'image_url: must be a string',
    });
    expect(refusal(PictureJobInput, { image_url: 'https://a/x.jpg', showcase_id: 'seven' })).toMatchObject({ param: 'showcase_id' });
  });

  it("refuses a size, fit or presentation the stages would refuse, with the stage's message", () => {
    const at = (fields: Record<string, unknown>) => refusal(PictureJobInput, { image_url: 'https://a/x.jpg', ...fields });
    expect(at({ frame: { style: 'wavy' } })).toMatchObject({
      param: 'frame.style',
      message: expect.stringMatching(/^frame\.style: must be one of/),
    });
    expect(at({ frame: 'canvas', mat: { width_inches: 2 } })).toMatchObject({
      param: 'mat',
      message: expect.stringContaining('a mat needs a frame'),
    });
    expect(at({ width_inches: 20 })).toMatchObject({ code: 'parameter_missing', param: 'height_inches' });
    expect(at({ width_inches: 500, height_inches: 20 })).toMatchObject({ param: 'width_inches' });
    expect(at({ fit: 'squash' })).toMatchObject({ param: 'fit' });
    expect(at({ call_to_action: 'Buy' })).toMatchObject({ code: 'parameter_missing', param: 'call_to_action' });
    expect(at({ link_url: 'http://shop.example/x' })).toMatchObject({ param: 'link_url' });
  });

  it("refuses variants the variants stage would refuse, naming the variant's field", () => {
    const at = (variants: unknown) => refusal(PictureJobInput, { image_url: 'https://a/x.jpg', variants });
    expect(at('all')).toMatchObject({ param: 'variants', message: 'variants: must be an array' });
    expect(at([{ id: 'x' }])).toMatchObject({ param: 'variants[0].id', message: expect.stringContaining('must match') });
    expect(at([{ id: 'var_aaaa1', frame: { style: 'wavy' } }])).toMatchObject({ param: 'variants[0].frame.style' });
    expect(at([{ id: 'var_aaaa1', colour: 'red' }])).toMatchObject({ code: 'parameter_unknown', param: 'variants[0].colour' });
    expect(at(Array.from({ length: 25 }, (_, i) => ({ id: `var_aaaa${i}` })))).toMatchObject({ param: 'variants' });
  });
});

describe('RebuildJobInput', () => {
  const REBUILD = {
    upload_key: 'models/v2_files/model.glb',
    frame: { style: 'classic', color: 'oak' },
    title: 'Dunes',
    width_inches: 40,
    height_inches: 30,
    fit: 'crop',
    showcase_id: 7,
    rebuild: { item_id: 12, from_job: 'v2_files' },
  };

  it('accepts what the item edits write (the stored GLB, the merged size and look, the item and the job it replaces)', () => {
    keeps(RebuildJobInput, REBUILD);
    keeps(RebuildJobInput, { ...REBUILD, frame: 'none', width_inches: undefined, height_inches: undefined, fit: undefined });
  });

  it('refuses a rebuild without its texture or its item', () => {
    expect(refusal(RebuildJobInput, { ...REBUILD, upload_key: undefined })).toMatchObject({
      code: 'parameter_missing',
      param: 'upload_key',
    });
    expect(refusal(RebuildJobInput, { ...REBUILD, rebuild: { item_id: '12', from_job: 'v2_files' } })).toMatchObject({
      param: 'rebuild.item_id',
      message: 'rebuild.item_id: must be a whole number',
    });
    expect(refusal(RebuildJobInput, { ...REBUILD, rebuild: true })).toMatchObject({ param: 'rebuild' });
    expect(refusal(RebuildJobInput, { ...REBUILD, mat: { width_inches: 2 }, frame: 'canvas' })).toMatchObject({ param: 'mat' });
  });
});

describe('VariantsJobInput', () => {
  const BUILD = {
    upload_key: 'models/v2_files/model.glb',
    variants: [
      { id: 'var_a3unframed', width_inches: 11.69, height_inches: 16.54, fit: 'crop', frame: { style: 'thin', depth_inches: 0.8 } },
    ],
    showcase_id: 7,
    variant_build: { item_id: 12, variant_ids: ['var_a3unframed'] },
  };

  it('accepts what the item edits and the repository write', () => keeps(VariantsJobInput, BUILD));

  it('refuses a build without variants, its texture or the item it builds for', () => {
    expect(refusal(VariantsJobInput, { ...BUILD, variants: undefined })).toMatchObject({ code: 'parameter_missing', param: 'variants' });
    expect(refusal(VariantsJobInput, { ...BUILD, upload_key: '' })).toMatchObject({
      param: 'upload_key',
      message: 'upload_key: must not be empty',
    });
    expect(refusal(VariantsJobInput, { ...BUILD, variant_build: { item_id: 12, variant_ids: 'var_a3unframed' } })).toMatchObject({
      param: 'variant_build.variant_ids',
    });
    expect(refusal(VariantsJobInput, { ...BUILD, variants: [{ id: 'var_a3unframed', fit: 'squash' }] })).toMatchObject({
      param: 'variants[0].fit',
    });
  });
});

describe('WallJobInput', () => {
  const WALL = {
    showcase_id: 7,
    wall: {
      pictures: [
        { glb_key: 'models/v2_a/model.glb', spec: { width_inches: 24, height_inches: 30, frame: 'thin' }, item_id: 1, variant_sku: null },
        { glb_key: 'models/v2_b/var_x.glb', spec: { width_inches: 12, height_inches: 12 }, alpha: 'mask', item_id: 2, variant_sku: 'B-12' },
      ],
      arrangement: 'grid',
      gap_inches: 3,
      align: 'center',
      columns: 2,
    },
  };

  it('accepts what the walls write (and a custom arrangement with its places)', () => {
    keeps(WallJobInput, WALL);
    keeps(WallJobInput, {
      showcase_id: 7,
      wall: {
        ...WALL.wall,
        arrangement: 'custom',
        columns: undefined,
        custom: [
          { x_inches: -20, y_inches: 0 },
          { x_inches: 20, y_inches: 4 },
        ],
      },
    });
  });

  it('refuses a wall without pictures, with an unknown arrangement or a picture without its model', () => {
    expect(refusal(WallJobInput, { showcase_id: 7 })).toMatchObject({ code: 'parameter_missing', param: 'wall' });
    expect(refusal(WallJobInput, { wall: { ...WALL.wall, pictures: [] } })).toMatchObject({ param: 'wall.pictures' });
    expect(refusal(WallJobInput, { wall: { ...WALL.wall, arrangement: 'spiral' } })).toMatchObject({
      param: 'wall.arrangement',
      message: 'wall.arrangement: must be one of row, grid, salon, custom',
    });
    expect(refusal(WallJobInput, { wall: { ...WALL.wall, pictures: [{ spec: {} }] } })).toMatchObject({
      param: 'wall.pictures[0].glb_key',
    });
  });
});

describe('AnimatedArJobInput', () => {
  it('accepts what the API writes for an image or a video', () => {
    keeps(AnimatedArJobInput, {
      image_url: 'https://cdn.example/cat.jpg',
      remove_background: true,
      motion_style: 'drift',
      custom_motion: 'the cat blinks',
      video_model: 'procedural',
      loop: 'crossfade',
      callback_url: 'https://hooks.example/x',
      width_inches: 16,
      height_inches: 20,
      ...FULL_LOOK,
    });
    keeps(AnimatedArJobInput, { video_url: 'https://cdn.example/clip.mp4', aspect_ratio: '9:16', frame: 'thin' });
  });

  it('refuses no source or two, an unknown loop, a bad presentation', () => {
    expect(refusal(AnimatedArJobInput, { motion_style: 'drift' })).toMatchObject({ code: 'parameter_missing', param: 'image_url' });
    expect(refusal(AnimatedArJobInput, { image_url: 'https://a/x.jpg', video_url: 'https://a/x.mp4' })).toMatchObject({
      param: 'video_url',
    });
    expect(refusal(AnimatedArJobInput, { image_url: 'https://a/x.jpg', loop: 'bounce' })).toMatchObject({ param: 'loop' });
    expect(refusal(AnimatedArJobInput, { image_url: 'https://a/x.jpg', remove_background: 'yes' })).toMatchObject({
      message: 'remove_background: must be true or false',
    });
    expect(refusal(AnimatedArJobInput, { image_url: 'https://a/x.jpg', frame: 'canvas', mat: { width_inches: 1 } })).toMatchObject({
      param: 'mat',
    });
  });
});

describe('CallbackJobInput', () => {
  it('accepts what the callback listener writes and refuses an input without its job or event', () => {
    keeps(CallbackJobInput, { job_id: 'api_k3xq7a2mzp4r', event: 'completed' });
    expect(refusal(CallbackJobInput, { event: 'failed' })).toMatchObject({ code: 'parameter_missing', param: 'job_id' });
    expect(refusal(CallbackJobInput, { job_id: 7, event: 'failed' })).toMatchObject({ param: 'job_id' });
  });
});

describe('PresentationInput', () => {
  it('keeps the fields as sent and names a bad one under the prefix, as a request names it', () => {
    keeps(PresentationInput, FULL_LOOK);
    expect(refusal(PresentationInput, { frame: { style: 'wavy' } })).toMatchObject({ param: 'frame.style' });
    let err: UserError | undefined;
    try {
      parseInput(PresentationInput, { frame: 'canvas', mat: { width_inches: 2 } }, { prefix: 'items[3].' });
    } catch (e) {
      err = e as UserError;
    }
    expect(err).toMatchObject({ param: 'items[3].mat', message: expect.stringMatching(/^items\[3\]\.mat: a mat needs a frame/) });
  });
});
