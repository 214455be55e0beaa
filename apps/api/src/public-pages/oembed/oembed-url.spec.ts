import { discoveryTag, oembedHref, ownPage } from './oembed-url';

const SHW = 'shw_abcdefghijklmnopqrstuvwx';
const EMB = 'emb_234567abcdefghijklmnopqr';
const WALL = 'wall_abcdefghijklmnopqrstuvwx';
const BASE = 'https://ar.example.com';

describe('ownPage: the pages oEmbed answers for', () => {
  it('reads every public page kind, with a trailing slash or not', () => {
    expect(ownPage(`${BASE}/showcase/${SHW}`, BASE)).toEqual({ kind: 'showcase', showcase: SHW });
    expect(ownPage(`${BASE}/showcase/${SHW}/`, BASE)).toEqual({ kind: 'showcase', showcase: SHW });
    expect(ownPage(`${BASE}/showcase/${SHW}/embed`, BASE)).toEqual({ kind: 'showcase', showcase: SHW });
    expect(ownPage(`${BASE}/showcase/${SHW}/items/12`, BASE)).toEqual({ kind: 'item', showcase: SHW, item: 12 });
    expect(ownPage(`${BASE}/showcase/${SHW}/items/12/wall`, BASE)).toEqual({ kind: 'item', showcase: SHW, item: 12 });
    expect(ownPage(`${BASE}/showcase/${SHW}/walls/${WALL}`, BASE)).toEqual({ kind: 'wall', showcase: SHW, wall: WALL });
    expect(ownPage(`${BASE}/embed/${EMB}`, BASE)).toEqual({ kind: 'embed', embed: EMB });
    expect(ownPage(`${BASE}/embed/${EMB}/static`, BASE)).toEqual({ kind: 'embed', embed: EMB });
  });

  it('keeps ?variant= (items and embeds) and ?lang=, ignores the rest and the fragment', () => {
    expect(ownPage(`${BASE}/showcase/${SHW}/items/12?variant=A2-OAK&lang=de&utm_source=x#top`, BASE)).toEqual({
      kind: 'item',
      showcase: SHW,
      item: 12,
      variant: 'A2-OAK',
      lang: 'de',
    });
    expect(ownPage(`${BASE}/embed/${EMB}?variant=50%20x%2070`, BASE)).toEqual({ kind: 'embed', embed: EMB, variant: '50 x 70' });
    // A showcase has no variant; a repeated or empty value picks nothing.
    expect(ownPage(`${BASE}/showcase/${SHW}?variant=A2`, BASE)).toEqual({ kind: 'showcase', showcase: SHW });
    expect(ownPage(`${BASE}/embed/${EMB}?variant=a&variant=b&lang=`, BASE)).toEqual({ kind: 'embed', embed: EMB });
    expect(ownPage(`${BASE}/embed/${EMB}?variant=${'x'.repeat(65)}`, BASE)).toEqual({ kind: 'embed', embed: EMB });
  });

  it('takes the base path prefix, the host in any case and the other scheme on default ports', () => {
    expect(ownPage(`https://x.test/ar/showcase/${SHW}`, 'https://x.test/ar')).toEqual({ kind: 'showcase', showcase: SHW });
    expect(ownPage(`https://x.test/showcase/${SHW}`, 'https://x.test/ar')).toBeNull();
    expect(ownPage(`https://x.test/arx/showcase/${SHW}`, 'https://x.test/ar')).toBeNull();
    expect(ownPage(`https://AR.Example.COM/showcase/${SHW}`, BASE)).not.toBeNull();
    expect(ownPage(`http://ar.example.com/showcase/${SHW}`, BASE)).not.toBeNull();
    expect(ownPage(`http://127.0.0.1:3000/embed/${EMB}`, 'http://127.0.0.1:3000')).not.toBeNull();
    expect(ownPage(`http://127.0.0.1:3001/embed/${EMB}`, 'http://127.0.0.1:3000')).toBeNull();
    expect(ownPage(`https://127.0.0.1:3000/embed/${EMB}`, 'http://127.0.0.1:3000')).toBeNull();
  });

  it('is null for anything else, never throwing', () => {
    for (const url of [
      `https://evil.example/showcase/${SHW}`,
      `https://ar.example.com.evil.example/showcase/${SHW}`,
      `https://user:pw@ar.example.com/showcase/${SHW}`,
      `ftp://ar.example.com/showcase/${SHW}`,
      `javascript:alert(1)//ar.example.com/showcase/${SHW}`,
      `${BASE}/showcase/shw_short`,
      `${BASE}/showcase/${SHW.toUpperCase()}`,
      `${BASE}/showcase/${SHW}/items/0`,
      `${BASE}/showcase/${SHW}/items/12345678901`,
      `${BASE}/showcase/${SHW}/items/12/thumb/480.webp`,
      `${BASE}/showcase/${SHW}/together?items=1,2`,
      `${BASE}/showcase/${SHW}/walls/wall_x`,
      `${BASE}/embed/api_abc`,
      `${BASE}/embed/%65mb_234567abcdefghijklmnopqr`,
      `${BASE}/embed/${EMB}%2Fstatic`,
      `${BASE}/showcase/%E0%A4%A`,
      `${BASE}/files/models/x.glb`,
      `${BASE}/oembed?url=${BASE}/embed/${EMB}`,
      `${BASE}/showcase/${SHW}/../../embed/${EMB}x`,
      '%',
      '',
      'not a url',
      `${BASE}/${'a'.repeat(3000)}`,
    ]) {
      expect([url.slice(0, 80), ownPage(url, BASE)]).toEqual([url.slice(0, 80), null]);
    }
    // The WHATWG parser resolves dot segments: this one is a real embed page's address.
    expect(ownPage(`${BASE}/showcase/${SHW}/../../embed/${EMB}`, BASE)).toEqual({ kind: 'embed', embed: EMB });
    // A malformed escape in the query decodes as U+FFFD rather than throwing.
    expect(ownPage(`${BASE}/embed/${EMB}?variant=%E0%A4%A`, BASE)).toEqual({ kind: 'embed', embed: EMB, variant: '\uFFFD%A' });
  });
});

describe('discovery', () => {
  it('names the endpoint with the page URL encoded and format=json only (oembed.com §4)', () => {
    const page = `${BASE}/showcase/${SHW}/items/3?variant=A&lang=de`;
    expect(oembedHref(`${BASE}/oembed`, page)).toBe(
      `${BASE}/oembed?url=https%3A%2F%2Far.example.com%2Fshowcase%2F${SHW}%2Fitems%2F3%3Fvariant%3DA%26lang%3Dde&format=json`,
    );
    const tag = discoveryTag(`${BASE}/oembed`, page, 'Dunes "at dusk" <b>');
    expect(tag).toBe(
      `<link rel="alternate" type="application/json+oembed" href="${BASE}/oembed?url=https%3A%2F%2Far.example.com%2Fshowcase%2F${SHW}%2Fitems%2F3%3Fvariant%3DA%26lang%3Dde&amp;format=json" title="Dunes &quot;at dusk&quot; &lt;b&gt;">`,
    );
    // What a consumer reads back from the attribute is the page it started from.
    const href = /href="([^"]+)"/.exec(tag)![1]!.replace(/&amp;/g, '&');
    expect(new URL(href).searchParams.get('url')).toBe(page);
    expect(ownPage(new URL(href).searchParams.get('url')!, BASE)).toEqual({
      kind: 'item',
      showcase: SHW,
      item: 3,
      variant: 'A',
      lang: 'de',
    });
  });
});
