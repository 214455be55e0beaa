import { VARIANT_BUILD_INPUT } from '@app/persistence';
import { UserError } from '@app/pipeline';
import { AnimatedArJobInput, CallbackJobInput, PictureJobInput, RebuildJobInput, VariantsJobInput, WallJobInput } from '@app/plugins';
import { INVALID_JOB_INPUT, jobInputSchema, parseJobInput } from './job-inputs';
import { JOB_KINDS } from './job-routes';

const refusal = (job: { kind: string; input: Record<string, unknown> }) => {
  try {
    parseJobInput(job);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('accepted');
};

describe('jobInputSchema', () => {
  it('has a schema for every kind the service stores', () => {
    for (const kind of JOB_KINDS) expect(jobInputSchema({ kind, input: {} })).toBeDefined();
  });

  it("tells a v2.picture job's input by the key that says what it builds, as the listeners and job views do", () => {
    const picture = (input: Record<string, unknown>) => jobInputSchema({ kind: 'v2.picture', input });
    expect(picture({ image_url: 'https://a/x.jpg' })).toBe(PictureJobInput);
    expect(picture({ upload_key: 'models/v2_a/model.glb', rebuild: { item_id: 1, from_job: 'v2_a' } })).toBe(RebuildJobInput);
    expect(picture({ upload_key: 'models/v2_a/model.glb', variants: [], [VARIANT_BUILD_INPUT]: { item_id: 1, variant_ids: [] } })).toBe(
      VariantsJobInput,
    );
    expect(picture({ showcase_id: 1, wall: {} })).toBe(WallJobInput);
    expect(picture({ image_url: 'https://a/x.jpg', rebuild: null })).toBe(PictureJobInput);
    expect(jobInputSchema({ kind: 'v1.convert', input: {} })).toBe(PictureJobInput);
    expect(jobInputSchema({ kind: 'v2.animated-ar', input: {} })).toBe(AnimatedArJobInput);
    expect(jobInputSchema({ kind: 'callback', input: {} })).toBe(CallbackJobInput);
    expect(jobInputSchema({ kind: 'acme.thing', input: {} })).toBeUndefined();
  });
});

describe('parseJobInput', () => {
  it('returns the stored input as it is, typed; a kind without a schema keeps its input', () => {
    const input = { image_url: 'https://a/x.jpg', frame: 'thin', title: ' Dunes ', showcase_id: 3 };
    expect(parseJobInput({ kind: 'v2.picture', input })).toEqual(input);
    const foreign = { anything: [1, 2] };
    expect(parseJobInput({ kind: 'acme.thing', input: foreign })).toBe(foreign);
  });

  it('refuses an input its schema refuses with invalid_job_input, naming the field', () => {
    const e = refusal({ kind: 'v1.convert', input: { image_url: 'https://a/x.jpg', frame: { style: 'wavy' } } });
    expect(e.code).toBe(INVALID_JOB_INPUT);
    expect(e.param).toBe('frame.style');
    expect(e.message).toMatch(/^job input: frame\.style: must be one of/);
    expect(refusal({ kind: 'v2.picture', input: { upload_key: 'x', rebuild: { item_id: 'one' } } }).message).toBe(
      'job input: rebuild.item_id: must be a whole number',
    );
    expect(refusal({ kind: 'v2.picture', input: { upload_key: 'x', [VARIANT_BUILD_INPUT]: { item_id: 1, variant_ids: [] } } }).param).toBe(
      'variants',
    );
    expect(refusal({ kind: 'callback', input: {} }).message).toBe('job input: job_id: required');
  });
});
