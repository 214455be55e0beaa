import { shareTags } from './open-graph';
import { NAV_SCRIPT, SHOWCASE_CSP } from './page-shell';
import { frameLabel, type PageItem, type ReadyItem, thumbHeight } from './showcase-items';
import { pictureImg } from './showcase-card';
import { itemShareImage } from './showcase-page';
import { DEFAULT_PAGE_LOCALE, plainSizeBoth } from '../page-locale';
import { contrast, readableOn } from './showcase-theme';
import { groupScene, PERSON, referenceFor, SOFA, wallScene } from './wall-preview';
import { createHash } from 'node:crypto';

describe('showcase theme', () => {
  it('picks the text colour with the better contrast, always WCAG AA (>= 4.5:1)', () => {
    for (const bg of ['#ffcc00', '#1b5e20', '#0a66ff', '#777777', '#808080', '#767676', '#fff', '#000', '#ff0000', '#00ff00']) {
      const fg = readableOn(bg);
      expect(contrast(fg, bg)).toBeGreaterThanOrEqual(Math.max(contrast('#000000', bg), contrast('#ffffff', bg)) - 1e-9);
      expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableOn('#ffcc00')).toBe('#000000');
    expect(readableOn('#1b5e20')).toBe('#ffffff');
  });
});

describe('share tags', () => {
  it('escapes every value, clips the description and states the image size', () => {
    const html = shareTags({
      title: '"><script>alert(1)</script>',
      description: `Line one\n${'x'.repeat(300)}`,
      canonicalUrl: 'https://ar.example.com/showcase/shw_a?x="y"',
      image: { url: 'https://ar.example.com/i.jpg', width: 1200, height: 800, alt: '<b>' },
      indexable: false,
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('<meta property="og:title" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(html).toContain('<link rel="canonical" href="https://ar.example.com/showcase/shw_a?x=&quot;y&quot;">');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<meta property="og:image:width" content="1200">');
    expect(html).toContain('<meta property="og:image:height" content="800">');
    expect(/og:description" content="([^"]*)"/.exec(html)![1]).toHaveLength(200);
    expect(shareTags({ title: 't', description: null, canonicalUrl: 'https://x/', indexable: true })).toContain('content="index,follow"');
  });
});

describe('a picture too small for thumbnails', () => {
  const ready = (over: Partial<ReadyItem>): ReadyItem => ({
    posterUrl: 'https://x/poster.jpg',
    glbUrl: 'https://x/model.glb',
    usdzUrl: 'https://x/model.usdz',
    embedUrl: 'https://x/e',
    widthInches: 24,
    heightInches: 32,
    itemUrl: 'https://x/i',
    wallUrl: 'https://x/w',
    thumbs: [],
    ...over,
  });
  const item = (r: ReadyItem): PageItem => ({ id: 1, status: 'completed', progress: 100, title: 'Tiny', ready: r });

  it('is shown as its poster (no srcset) and shared as its poster at its own size', () => {
    const r = ready({ posterSize: { width: 24, height: 32 } });
    const img = pictureImg(r, 'Tiny', '320px', false);
    expect(img).toContain('src="https://x/poster.jpg"');
    expect(img).not.toContain('srcset');
    expect(img).not.toContain('<picture>');
    // The box keeps the picture's shape.
    expect(img).toContain(`width="480" height="${thumbHeight(480, 24, 32)}"`);
    expect(itemShareImage(item(r))).toEqual({ url: 'https://x/poster.jpg', width: 24, height: 32, alt: 'Tiny' });
    // With a sharing JPEG, that is shared at its 1200 px.
    const shared = ready({ shareUrl: 'https://x/i/thumb/1200.jpg', posterSize: { width: 900, height: 1200 } });
    expect(itemShareImage(item(shared))).toEqual({ url: 'https://x/i/thumb/1200.jpg', width: 1200, height: 1600, alt: 'Tiny' });
  });
});

describe('wall preview', () => {
  it('uses a sofa under ordinary wall pictures and a person beside tall, wide or floor pieces', () => {
    expect(referenceFor(36, 24, 'wall')).toBe(SOFA);
    expect(referenceFor(24, 60, 'wall')).toBe(PERSON);
    expect(referenceFor(24, 36, 'floor')).toBe(PERSON);
  });

  it('draws everything in inches: the picture and the sofa at their true sizes, the picture above the sofa', () => {
    const { svg } = wallScene('https://x/p.jpg?a="b"', 'T <i>', 36, 24, 'wall');
    expect(svg).toContain('href="https://x/p.jpg?a=&quot;b&quot;"');
    expect(svg).not.toContain('<i>');
    const pic = /<image id="wall-picture"[^>]* x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg)!;
    expect([Number(pic[3]), Number(pic[4])]).toEqual([36, 24]);
    // The sofa's back rect spans 84 in minus 6 (its arms make up the rest); the picture's bottom is >= 8 in above its 33 in back.
    const floor = Number(/<rect y="([\d.]+)" width="[\d.]+" height="10"/.exec(svg)![1]);
    expect(floor - (Number(pic[2]) + 24)).toBeGreaterThanOrEqual(41);
    expect(svg).toContain('data-kind="sofa" data-dimension="width" data-inches="84"');
  });
});

describe('pictures together', () => {
  const pic = (itemId: number, x: number, y: number, w: number, h: number) => ({
    itemId,
    posterUrl: `https://x/${itemId}.jpg`,
    title: `T${itemId}`,
    x,
    y,
    w,
    h,
  });
  const attrs = (svg: string) =>
    [...svg.matchAll(/class="wall-picture" data-item="(\d+)"[^>]* x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map(
      (m) => m.slice(1).map(Number),
    );

  it('draws each picture at its place and size over a sofa when the set fits above one', () => {
    const s = groupScene(
      [pic(1, -30, 0, 36, 24), pic(2, 3, 3, 24, 30), pic(3, 30, -3, 24, 18)],
      undefined,
      (ref, size) => `${size} / ${ref}`,
    );
    expect(s.reference).toBe(SOFA);
    expect([s.width, s.height]).toEqual([90, 30]);
    const got = attrs(s.svg);
    expect(got.map((g) => [g[0], g[3], g[4]])).toEqual([
      [1, 36, 24],
      [2, 24, 30],
      [3, 24, 18],
    ]);
    // Centres as laid out (y up in inches, down in SVG).
    const centre = (g: number[]) => [g[1]! + g[3]! / 2, g[2]! + g[4]! / 2];
    const [c1, c2, c3] = got.map(centre);
    expect([c2![0]! - c1![0]!, c3![0]! - c1![0]!]).toEqual([33, 60]);
    expect([c2![1]! - c1![1]!, c3![1]! - c1![1]!]).toEqual([-3, 3]);
    expect(s.svg).toContain('aria-label="30 × 90 in / a sofa 84 in (213 cm) wide"');
    // The set's bottom is at least 8 in above the sofa's 33 in back.
    const floor = Number(/<rect y="([\d.]+)" width="[\d.]+" height="10"/.exec(s.svg)![1]);
    expect(floor - Math.max(...got.map((g) => g[2]! + g[4]!))).toBeGreaterThanOrEqual(41);
  });

  it('stands a person beside a set too tall or wide for a sofa; a picture without a poster is a plain panel', () => {
    const s = groupScene([{ ...pic(1, -40, 0, 40, 60), posterUrl: null }, pic(2, 40, 0, 40, 60)], undefined, () => '<b>');
    expect(s.reference).toBe(PERSON);
    expect(s.svg).toContain('data-kind="person"');
    expect(s.svg).toMatch(/<rect class="wall-picture" data-item="1"/);
    expect(s.svg).toContain('aria-label="&lt;b&gt;"');
  });
});

describe('item details', () => {
  it('describes frames and mats, sizes in cm, thumbnail heights', () => {
    expect(frameLabel({ frame: { style: 'classic', color: 'walnut' }, mat: { width_inches: 2, color: 'white' } })).toBe(
      'Classic walnut frame, white mat 2 in',
    );
    expect(frameLabel({ frame: { style: 'canvas' } })).toBe('Canvas wrap');
    expect(frameLabel({ frame: { style: 'none' } })).toBeUndefined();
    expect(frameLabel({ frame: { style: 'thin', color: '<b>' } })).toBe('Thin frame');
    // A 24 in wide, 36 in tall picture: height × width, one decimal in both units.
    expect(plainSizeBoth(24, 36, DEFAULT_PAGE_LOCALE)).toBe('36 × 24 in (91.4 × 61 cm)');
    expect(thumbHeight(480, 24, 36)).toBe(720);
  });

  it('allows exactly its two constant scripts', () => {
    expect(SHOWCASE_CSP).toContain(`'sha256-${createHash('sha256').update(NAV_SCRIPT).digest('base64')}'`);
    expect(SHOWCASE_CSP).toContain("default-src 'none'");
  });
});
