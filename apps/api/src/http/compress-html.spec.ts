import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressHtml } from './compress-html';

const page = `<!doctype html><html><body>${'<div class="item">A picture</div>'.repeat(200)}</body></html>`;

describe('compressHtml', () => {
  it('uses Brotli where accepted, else gzip, and the bytes come back the same', async () => {
    const b = await compressHtml(page, 'gzip, deflate, br');
    expect(b.encoding).toBe('br');
    expect(brotliDecompressSync(b.body as Buffer).toString()).toBe(page);
    expect((b.body as Buffer).length).toBeLessThan(page.length / 5);
    const g = await compressHtml(page, 'gzip;q=1.0, identity; q=0.5');
    expect(g.encoding).toBe('gzip');
    expect(gunzipSync(g.body as Buffer).toString()).toBe(page);
  });

  it('sends the page as it is when nothing it knows is accepted, q=0 refuses, or the page is tiny', async () => {
    expect(await compressHtml(page, undefined)).toEqual({ body: page });
    expect(await compressHtml(page, 'deflate, identity')).toEqual({ body: page });
    expect(await compressHtml(page, 'br;q=0, gzip;q=0.0')).toEqual({ body: page });
    expect(await compressHtml('<p>hi</p>', 'br')).toEqual({ body: '<p>hi</p>' });
  });
});
