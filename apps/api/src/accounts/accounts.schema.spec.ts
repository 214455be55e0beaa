import { parseInput } from '@app/schema';
import { CreateKeyBody } from './accounts.schema';

const parseKeyRequest = (body: unknown) => parseInput(CreateKeyBody, body);

const param = (body: unknown) => {
  try {
    parseKeyRequest(body);
    return undefined;
  } catch (e) {
    return (e as { param?: string; code: string }).param ?? (e as { code: string }).code;
  }
};

describe('CreateKeyBody', () => {
  it('makes a full key from no body at all (the admin route before scopes)', () => {
    expect(parseKeyRequest(undefined)).toEqual({ name: null, scope: 'full', allowedOrigins: [] });
    expect(parseKeyRequest({})).toEqual({ name: null, scope: 'full', allowedOrigins: [] });
  });

  it('keeps a trimmed name, the scope, and normalised, deduplicated origins for a widget key', () => {
    expect(
      parseKeyRequest({ name: '  shop  ', scope: 'widget', allowed_origins: ['https://Shop.example.com/', 'https://shop.example.com'] }),
    ).toEqual({ name: 'shop', scope: 'widget', allowedOrigins: ['https://shop.example.com'] });
    expect(parseKeyRequest({ name: 'ci', scope: 'read_only', allowed_origins: [] })).toEqual({
      name: 'ci',
      scope: 'read_only',
      allowedOrigins: [],
    });
  });

  it('names the parameter at fault', () => {
    expect(param([])).toBe('invalid_body');
    expect(param({ scope: 'owner' })).toBe('scope');
    expect(param({ name: 7 })).toBe('name');
    expect(param({ scope: 'widget' })).toBe('allowed_origins');
    expect(param({ scope: 'widget', allowed_origins: 'https://x.example' })).toBe('allowed_origins');
    expect(param({ scope: 'widget', allowed_origins: ['https://x.example', 'https://x.example/a'] })).toBe('allowed_origins[1]');
    expect(param({ scope: 'widget', allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) })).toBe(
      'allowed_origins',
    );
    expect(param({ scope: 'full', allowed_origins: ['https://x.example'] })).toBe('allowed_origins');
    expect(param({ key: 'sk_live_mine' })).toBe('key');
  });
});
