import { ApiError } from './api-error';
import { requestUrl } from './request-url';

describe('requestUrl: private address literals', () => {
  const refusal = (url: string) => {
    try {
      requestUrl('callback_url', url, { blockPrivate: true });
      return undefined;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return e.code;
    }
  };

  it('refuses the same ranges as the fetch guard: IPv4-mapped, 6to4 and local-use NAT64 included', () => {
    for (const url of [
      'http://10.0.0.5/',
      'http://[::ffff:10.0.0.5]/',
      'http://[0:0:0:0:0:ffff:a00:5]/',
      'http://[2002:808:808::1]/',
      'http://[64:ff9b:1::808:808]/',
      'http://[64:ff9b::a00:5]/',
    ]) {
      expect([url, refusal(url)]).toEqual([url, 'callback_url_blocked']);
    }
    for (const url of ['https://example.com/hook', 'http://[::ffff:8.8.8.8]/', 'http://[64:ff9b::808:808]/'])
      expect([url, refusal(url)]).toEqual([url, undefined]);
    expect(requestUrl('callback_url', 'http://[2002::1]/', {})).toBe('http://[2002::1]/');
  });
});
