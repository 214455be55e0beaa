import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OperationalError, UserError } from '@app/pipeline';
import { quadrantPicture } from '@app/testing';
import { fetchSource, guardedGet, type FetchOptions, type GuardedGetOptions } from './fetch-source';
import { guardedLookup, isBlockedAddress, isBlockedHostname, type ResolveAll } from './ssrf-guard';
import { sniffType } from './sniff';

let server: Server;
let base: string;
let png: Buffer;
const sockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  png = (await quadrantPicture(40, 20)).png;
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const hop = Number(url.searchParams.get('n') ?? 0);
    switch (url.pathname) {
      case '/img.png':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(png);
        return; // lying type
      case '/redirect':
        res.writeHead(302, { location: hop > 0 ? `/redirect?n=${hop - 1}` : '/img.png' });
        res.end();
        return;
      case '/redirect-private':
        res.writeHead(302, { location: 'http://10.0.0.1/img.png' });
        res.end();
        return;
      case '/redirect-name':
        res.writeHead(302, { location: `http://cdn.internal.test:${url.searchParams.get('port')}/img.png` });
        res.end();
        return;
      case '/missing':
        res.writeHead(404);
        res.end('nope');
        return;
      case '/broken':
        res.writeHead(503);
        res.end();
        return;
      case '/html':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end('<html><body>hi</body></html>');
        return;
      case '/video':
        res.writeHead(200);
        res.end(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(100)]));
        return;
      case '/big': {
        // No Content-Length (chunked): the cap must hold while streaming.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        const chunk = Buffer.alloc(64 * 1024);
        let sent = 0;
        const t = setInterval(() => {
          res.write(chunk);
          if ((sent += chunk.length) > 2_000_000) {
            clearInterval(t);
            res.end();
          }
        }, 1);
        res.on('close', () => clearInterval(t));
        return;
      }
      case '/declared-big':
        res.writeHead(200, { 'content-length': String(10_000_000) });
        res.write(png);
        return;
      case '/hang':
        return; // never answers
      case '/trickle': {
        res.writeHead(200);
        const t = setInterval(() => res.write(Buffer.alloc(10)), 100);
        res.on('close', () => clearInterval(t));
        return;
      }
      default:
        res.writeHead(500);
        res.end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const OPTS: FetchOptions = { maxBytes: 1_000_000, timeoutMs: 3000, connectTimeoutMs: 1000, allowPrivateNetworks: true };

async function fails(url: string, opts: Partial<FetchOptions> = {}): Promise<UserError | OperationalError> {
  try {
    await fetchSource(url, { ...OPTS, ...opts });
  } catch (e) {
    expect(e instanceof UserError || e instanceof OperationalError).toBe(true);
    expect((e as Error).message).toMatch(/^fetch: /);
    return e as UserError;
  }
  throw new Error(`fetch of ${url} did not fail`);
}

describe('fetchSource', () => {
  it('downloads an image and sniffs its real type from the bytes', async () => {
    const r = await fetchSource(`${base}/img.png`, OPTS);
    expect(r.type).toEqual({ mime: 'image/png', ext: 'png', kind: 'image' });
    expect(r.bytes.equals(png)).toBe(true);
  });

  it('follows up to 3 redirects, each re-checked, and no more', async () => {
    const r = await fetchSource(`${base}/redirect?n=2`, OPTS);
    expect(r.url).toBe(`${base}/img.png`);
    expect((await fails(`${base}/redirect?n=3`)).code).toBe('too_many_redirects');
    expect((await fails(`${base}/redirect-private`, { allowPrivateNetworks: false })).code).toBe('private_address');
  });

  it('strict mode: https only, no redirects', async () => {
    expect((await fails(`${base}/img.png`, { strict: true })).code).toBe('unsupported_url_scheme');
  });

  it("maps HTTP failures: 404 is the user's, 503 is retried", async () => {
    expect((await fails(`${base}/missing`)).code).toBe('source_not_found');
    const e = await fails(`${base}/broken`);
    expect(e).toBeInstanceOf(OperationalError);
    expect(e.code).toBe('source_unavailable');
  });

  it('refuses what is not an image, whatever the Content-Type says', async () => {
    expect((await fails(`${base}/html`)).code).toBe('unsupported_type');
    const v = await fails(`${base}/video`);
    expect(v.message).toContain('video');
  });

  it('caps bytes while streaming, and refuses an over-large Content-Length up front', async () => {
    expect((await fails(`${base}/big`)).code).toBe('source_too_large');
    expect((await fails(`${base}/declared-big`)).code).toBe('source_too_large');
  });

  it('times out on a server that never answers and on one that trickles', async () => {
    const t0 = Date.now();
    expect((await fails(`${base}/hang`, { timeoutMs: 500 })).code).toBe('source_timeout');
    expect((await fails(`${base}/trickle`, { timeoutMs: 500 })).code).toBe('source_timeout');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('reports a DNS failure and a refused connection', async () => {
    expect((await fails('http://no-such-host.invalid/x.png')).code).toBe('dns_failure');
    expect((await fails('http://127.0.0.1:1/x.png')).code).toBe('source_unreachable');
  });

  it('refuses other schemes and malformed URLs', async () => {
    expect((await fails('ftp://example.com/a.png')).code).toBe('unsupported_url_scheme');
    expect((await fails('file:///etc/passwd')).code).toBe('unsupported_url_scheme');
    expect((await fails('not a url')).code).toBe('invalid_url');
    expect((await fails('http://user:pw@example.com/a.png')).code).toBe('invalid_url');
  });
});

describe('SSRF guard', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://0/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::]/',
    'http://224.0.0.1/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:808:808::1]/',
    'http://[64:ff9b:1::808:808]/',
    'http://[0:0:0:0:0:ffff:a00:5]/',
  ])('refuses %s', async (url) => {
    const e = await fails(url, { allowPrivateNetworks: false });
    expect(e.code).toBe('private_address');
  });

  it('checks the address at connect time, through the lookup', async () => {
    const lookup = guardedLookup(false);
    const err = await new Promise<Error | null>((r) => lookup('localhost', { all: false } as never, (e) => r(e)));
    expect(err?.message).toMatch(/private or reserved/);
    const ok = await new Promise<Error | null>((r) => guardedLookup(true)('localhost', {} as never, (e) => r(e)));
    expect(ok).toBeNull();
  });

  it('classifies hostnames before DNS', () => {
    for (const h of ['localhost', 'api.localhost', '[::1]', '127.0.0.1', '10.9.8.7', 'LOCALHOST']) expect(isBlockedHostname(h)).toBe(true);
    for (const h of ['example.com', '8.8.8.8', '[2606:4700::1111]', 'localhost.example.com']) expect(isBlockedHostname(h)).toBe(false);
  });

  it('classifies addresses', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', '::ffff:10.0.0.1', 'fc00::1', '0.0.0.0', '255.255.255.255', 'not-ip']) {
      expect(isBlockedAddress(ip)).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isBlockedAddress(ip)).toBe(false);
  });

  it('judges IPv4-mapped addresses (::ffff:0:0/96) by the IPv4 they carry, however they are spelled', () => {
    for (const ip of [
      '::ffff:10.0.0.5',
      '::ffff:a00:5',
      '0:0:0:0:0:ffff:a00:5',
      '::FFFF:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:0:a00:5',
    ]) {
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, true]);
    }
    for (const ip of ['::ffff:808:808', '0:0:0:0:0:ffff:8.8.8.8', '::ffff:0:808:808'])
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, false]);
  });

  it('blocks 6to4 (2002::/16) and local-use NAT64 (64:ff9b:1::/48) whatever IPv4 they embed', () => {
    for (const ip of [
      '2002::1',
      '2002:a00:5::1',
      '2002:808:808::1',
      '2002:ffff:ffff:ffff::1',
      '64:ff9b:1::a00:5',
      '64:ff9b:1::808:808',
      '64:ff9b:1:ffff:ffff::1',
    ]) {
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, true]);
    }
    // Neighbours stay reachable: the well-known NAT64 prefix with a public IPv4, and addresses just outside.
    for (const ip of ['64:ff9b::808:808', '64:ff9b:2::1', '2003::1', '2001:4860:4860::8888'])
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, false]);
    for (const h of ['[2002:a00:5::1]', '[64:ff9b:1::1]']) expect(isBlockedHostname(h)).toBe(true);
  });

  it('says which host is refused but never which address it resolved to', async () => {
    const resolve: ResolveAll = (_host, _opts, cb) => cb(null, [{ address: '10.0.0.5', family: 4 }]);
    const err = await new Promise<Error | null>((r) => guardedLookup(false, resolve)('db.internal.test', {} as never, (e) => r(e)));
    expect(err?.message).toBe('db.internal.test resolves to a private or reserved address');
    expect(err?.message).not.toContain('10.0.0.5');
    expect(JSON.stringify(err)).not.toContain('10.0.0.5');
  });
});

describe('guardedGet', () => {
  const deadline = () => AbortSignal.timeout(3000);
  const get = (url: string, opts: Partial<GuardedGetOptions>) => {
    const d = deadline();
    return guardedGet(url, { timeoutMs: 3000, connectTimeoutMs: 1000, ...opts }, d, d);
  };
  const toLocal: ResolveAll = (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
  const toPrivate: ResolveAll = (_host, _opts, cb) => cb(null, [{ address: '10.0.0.5', family: 4 }]);

  it('re-checks every redirect hop: a trusted first hop does not let a redirect reach a private address', async () => {
    const e = await get(`${base}/redirect-private`, { allowPrivateNetworks: false, trustedOrigin: base }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'private_address', message: 'fetch: 10.0.0.1 is a private or reserved address' });
  });

  it('checks a redirect to a name at connect time, and the message keeps the resolved address to itself', async () => {
    const port = new URL(base).port;
    const e = await get(`${base}/redirect-name?port=${port}`, {
      allowPrivateNetworks: false,
      trustedOrigin: base,
      resolve: toPrivate,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect(e).toMatchObject({ code: 'private_address', message: 'fetch: cdn.internal.test resolves to a private or reserved address' });
    expect((e as Error).message).not.toContain('10.0.0.5');
    // The same redirect with private networks allowed reaches the image (the resolver is the one used).
    const { res, url } = await get(`${base}/redirect-name?port=${port}`, { allowPrivateNetworks: true, resolve: toLocal });
    res.resume();
    expect([res.statusCode, url.hostname]).toEqual([200, 'cdn.internal.test']);
  });

  it('asks for headers hop by hop, by URL', async () => {
    const seen: string[] = [];
    const { res } = await get(`${base}/redirect?n=1`, {
      allowPrivateNetworks: true,
      headers: (u) => (seen.push(u.pathname + u.search), {}),
    });
    res.resume();
    expect(seen).toEqual(['/redirect?n=1', '/redirect?n=0', '/img.png']);
  });
});

describe('sniffType', () => {
  it('knows the magic bytes', () => {
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))?.mime).toBe('image/jpeg');
    expect(sniffType(Buffer.from('GIF89a\0\0\0\0\0\0'))?.mime).toBe('image/gif');
    expect(sniffType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.mime).toBe('image/webp');
    expect(sniffType(Buffer.from('\0\0\0\x1cftypavif\0\0'))?.mime).toBe('image/avif');
    expect(sniffType(Buffer.from('\0\0\0\x14ftypqt  \0\0'))?.mime).toBe('video/quicktime');
    expect(sniffType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]))?.mime).toBe('video/webm');
    expect(sniffType(Buffer.from('%PDF-1.7 hello'))).toBeNull();
    expect(sniffType(Buffer.from('short'))).toBeNull();
  });
});
