import { UserError } from '@app/pipeline';
import { parseInput } from '@app/schema';
import { OembedQuery } from './oembed.schema';

const refusal = (q: unknown) => {
  try {
    parseInput(OembedQuery, q);
    return undefined;
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return [e.code, e.param];
  }
};

describe('OembedQuery', () => {
  it('reads the spec parameters and ignores every other one', () => {
    expect(
      parseInput(OembedQuery, { url: 'https://x/', maxwidth: '300', maxheight: '200', format: 'JSON', callback: 'f', extra: ['a'] }),
    ).toEqual({
      url: 'https://x/',
      maxwidth: 300,
      maxheight: 200,
      format: 'json',
    });
    // Empty limits are absent (consumers send `maxwidth=`); the format is the service's to refuse (501), not the schema's.
    expect(parseInput(OembedQuery, { url: 'u', maxwidth: '', format: 'xml' })).toEqual({ url: 'u', format: 'xml' });
  });

  it('answers 400 naming the parameter for a missing, long or repeated url and bad limits', () => {
    expect(refusal({})).toEqual(['parameter_missing', 'url']);
    expect(refusal({ url: '' })).toBeUndefined();
    expect(refusal({ url: 'x'.repeat(2049) })).toEqual(['parameter_invalid', 'url']);
    expect(refusal({ url: ['a', 'b'] })).toEqual(['parameter_invalid', 'url']);
    for (const bad of ['0', '-1', '1.5', '10001', 'abc', '1e3', ' 12', '99999999999', ['1', '2']]) {
      expect(refusal({ url: 'u', maxwidth: bad })).toEqual(['parameter_invalid', 'maxwidth']);
      expect(refusal({ url: 'u', maxheight: bad })).toEqual(['parameter_invalid', 'maxheight']);
    }
    expect(refusal({ url: 'u', maxwidth: '10000', maxheight: '1' })).toBeUndefined();
    expect(refusal({ url: 'u', format: 'x'.repeat(17) })).toEqual(['parameter_invalid', 'format']);
  });
});
