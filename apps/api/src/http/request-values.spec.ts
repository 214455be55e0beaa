import { ApiError } from './api-error';
import { assertSafeValues, MAX_JSON_DEPTH } from './request-values';

function refusal(value: unknown, root?: string): Pick<ApiError, 'status' | 'code' | 'param' | 'message'> | undefined {
  try {
    assertSafeValues(value, root);
    return undefined;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, code: e.code, param: e.param, message: e.message };
  }
}

const nest = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('assertSafeValues', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, iteratively (100,000 levels)`, () => {
    expect(refusal(nest(MAX_JSON_DEPTH))).toBeUndefined();
    expect(refusal(nest(MAX_JSON_DEPTH + 1))).toMatchObject({
      status: 400,
      code: 'body_too_deep',
      message: `the JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
    });
    expect(refusal(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)))).toMatchObject({ status: 400, code: 'body_too_deep' });
  });

  it('refuses NUL in any string, naming the parameter the way the validators do', () => {
    expect(refusal({ description: 'a\u0000b' })).toMatchObject({
      status: 400,
      code: 'parameter_invalid',
      param: 'description',
      message: 'description: must not contain NUL (\\u0000) characters',
    });
    expect(refusal({ custom_links: [{ title: 'ok', url: 'https://a.example/' }, { title: 'x\u0000' }] })).toMatchObject({
      param: 'custom_links[1].title',
    });
    expect(refusal({ branding: { tagline: '\u0000' } })).toMatchObject({ param: 'branding.tagline' });
    expect(refusal(['\u0000'])).toMatchObject({ param: '[0]' });
    expect(refusal('\u0000')).toMatchObject({ param: 'body' });
    expect(refusal({ a: '\u0000', b: '\u0000' })).toMatchObject({ param: 'a' });
  });

  it('refuses NUL in keys, and names a path or query parameter by its name', () => {
    expect(refusal({ branding: { 'x\u0000': 1 } })).toMatchObject({
      param: 'branding',
      message: 'branding: keys must not contain NUL (\\u0000) characters',
    });
    expect(refusal('usr_\u0000', 'id')).toMatchObject({ param: 'id' });
    expect(refusal(['1', '\u0000'], 'before')).toMatchObject({ param: 'before[1]' });
  });

  it('lets everything else through, other control characters included', () => {
    expect(refusal({ a: ['\u0001\t\n', 1, null, true, { b: 'é😀' }], c: 'x'.repeat(10_000) })).toBeUndefined();
    expect(refusal(undefined)).toBeUndefined();
  });
});
