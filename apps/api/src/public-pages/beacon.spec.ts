import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchPresentation, QUICK_LOOK_TAP_SCRIPT } from './platform';
import { BEACON_SCRIPT, BEACON_SCRIPT_HASH, beaconAttr, tapBase, tapLink, WIDGET_FRAME_NAME } from './beacon';
import { embedCsp, interactivePage, staticPage, type ReadyModel } from './embed/embed-page';
import { NAV_SCRIPT, PAGE_SCRIPT, SHOWCASE_CSP, showcaseCsp } from './showcase/page-shell';
import { showcasePage, type PageShowcase } from './showcase/showcase-page';
import { itemPage, wallPage } from './showcase/item-page';

const BASE = 'https://ar.example.com';
const LINK = 'https://shop.example.com/p/1?ref=ar&size=a';
const SITE = 'shw_abcdefghijklmnopqrstuvwx';
const EMB = 'emb_abcdefghijklmnopqrstuvwx';
const result = {
  dimensions: { width_inches: 24, height_inches: 36 },
  placement: 'wall',
  allow_scaling: false,
  banner: { title: 'Sunset', price: '$40', call_to_action: 'Buy', link_url: LINK },
};

function showcase(analytics: PageShowcase['analytics']): PageShowcase {
  const ready = {
    posterUrl: `${BASE}/p.png`,
    glbUrl: `${BASE}/m.glb`,
    usdzUrl: `${BASE}/m.usdz`,
    embedUrl: `${BASE}/embed/${EMB}`,
    widthInches: 24,
    heightInches: 36,
    presentation: launchPresentation(result),
    itemUrl: `${BASE}/showcase/${SITE}/items/7`,
    wallUrl: `${BASE}/showcase/${SITE}/items/7/wall`,
    thumbs: [{ url: `${BASE}/showcase/${SITE}/items/7/thumb/480.webp`, width: 480 }],
  };
  return {
    layout: 'grid',
    logoUrl: null,
    description: null,
    links: [],
    tagline: null,
    primary: null,
    secondary: null,
    pageUrl: `${BASE}/showcase/${SITE}`,
    indexable: false,
    items: [{ id: 7, status: 'completed', progress: 100, title: 'sunset.jpg', ready }],
    analytics,
  };
}

const attr = (html: string, re: RegExp) =>
  re
    .exec(html)![1]
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const intentLink = (html: string) => {
  const intent = attr(html, /href="(intent:[^"]+)"/);
  return new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#'))).get('link');
};
const inline = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

describe('beacon script', () => {
  it('is JavaScript, constant, and its hash is the one the pages allow', () => {
    expect(() => new Function(BEACON_SCRIPT)).not.toThrow();
    expect(BEACON_SCRIPT_HASH).toBe(`'sha256-${createHash('sha256').update(BEACON_SCRIPT).digest('base64')}'`);
    expect(embedCsp(BASE)).toContain(BEACON_SCRIPT_HASH);
    // On the showcase pages it runs first in the pages' one script (it never throws: the navigation still runs).
    expect(PAGE_SCRIPT).toBe(`${BEACON_SCRIPT}\n${NAV_SCRIPT}`);
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
  });

  it("reads the widget's frame name, as widget.js sets it", () => {
    const widget = readFileSync(join(__dirname, '../../assets/widget.js'), 'utf8');
    expect(widget).toContain(`f.name = '${WIDGET_FRAME_NAME}';`);
    expect(BEACON_SCRIPT).toContain(`w.name==='${WIDGET_FRAME_NAME}'`);
  });

  it('the CSP: still two scripts by hash; a page that sends beacons has the page script and connect-src', () => {
    const hash = (x: string) => `'sha256-${createHash('sha256').update(x).digest('base64')}'`;
    expect(SHOWCASE_CSP).toBe(showcaseCsp(false));
    expect(SHOWCASE_CSP).not.toContain('connect-src');
    expect(SHOWCASE_CSP).toContain(hash(NAV_SCRIPT));
    expect(showcaseCsp(true)).toContain(
      `script-src ${hash(QUICK_LOOK_TAP_SCRIPT)} ${hash(PAGE_SCRIPT)}; connect-src 'self'; img-src https: http: data:;`,
    );
  });

  it('data-beacon: the JSON escaped in the attribute; nothing without analytics', () => {
    expect(beaconAttr(undefined)).toBe('');
    expect(beaconAttr({ url: `${BASE}/api/events`, site: SITE, surface: 'item', item_id: 3, variant: '"<x>' })).toBe(
      ` data-beacon="{&quot;url&quot;:&quot;${BASE}/api/events&quot;,&quot;site&quot;:&quot;${SITE}&quot;,&quot;surface&quot;:&quot;item&quot;,&quot;item_id&quot;:3,&quot;variant&quot;:&quot;\\&quot;&lt;x&gt;&quot;}"`,
    );
  });
});

describe('tap route (Scene Viewer banner)', () => {
  it('only on an https service; the link, surface and variant in the query', () => {
    expect(tapBase('http://127.0.0.1:3000', SITE)).toBeUndefined();
    expect(tapBase(BASE, SITE)).toBe(`${BASE}/r/${SITE}`);
    expect(tapLink(LINK, 7, undefined)).toBe(LINK);
    expect(tapLink(undefined, 7, { base: `${BASE}/r/${SITE}`, surface: 'item' })).toBeUndefined();
    const u = new URL(tapLink(LINK, 7, { base: `${BASE}/r/${SITE}`, surface: 'wall' }, 'A 3')!);
    expect([u.origin + u.pathname, Object.fromEntries(u.searchParams)]).toEqual([`${BASE}/r/${SITE}/7`, { to: LINK, s: 'wall', v: 'A 3' }]);
  });
});

describe('pages with analytics', () => {
  const on = { url: `${BASE}/api/events`, site: SITE, taps: `${BASE}/r/${SITE}` };

  it('showcase page: the page script after the Quick Look one, its data on <body>, each picture marked; Scene Viewer through the tap route', () => {
    const ios = showcasePage(showcase(on), 'ios', false);
    expect(inline(ios)).toEqual([QUICK_LOOK_TAP_SCRIPT, PAGE_SCRIPT]);
    expect(JSON.parse(attr(ios, /<body [^>]*data-beacon="([^"]+)"/))).toEqual({
      url: `${BASE}/api/events`,
      site: SITE,
      surface: 'showcase',
    });
    expect(ios).toContain(`<a class="media" href="${BASE}/showcase/${SITE}/items/7" data-view="7"`);
    const android = showcasePage(showcase(on), 'android', false);
    expect(inline(android)).toEqual([PAGE_SCRIPT]);
    expect(intentLink(android)).toBe(`${BASE}/r/${SITE}/7?to=${encodeURIComponent(LINK)}&s=showcase`);
    // Not on an http service (Scene Viewer takes https links only): the link itself.
    expect(intentLink(showcasePage(showcase({ ...on, taps: undefined }), 'android', false))).toBe(LINK);
  });

  it('item and wall pages: their surface and item', () => {
    const ctx = { showcase: showcase(on), index: 0, platform: 'android' as const };
    const item = itemPage(ctx);
    expect(inline(item)).toEqual([PAGE_SCRIPT]);
    expect(inline(itemPage({ ...ctx, platform: 'ios' }))).toEqual([PAGE_SCRIPT, QUICK_LOOK_TAP_SCRIPT]);
    expect(JSON.parse(attr(item, /<body [^>]*data-beacon="([^"]+)"/))).toMatchObject({ surface: 'item', item_id: 7 });
    expect(item).toContain('<div class="media" data-view="7">');
    expect(intentLink(item)).toBe(`${BASE}/r/${SITE}/7?to=${encodeURIComponent(LINK)}&s=item`);
    const wall = wallPage(ctx);
    expect(JSON.parse(attr(wall, /<body [^>]*data-beacon="([^"]+)"/))).toMatchObject({ surface: 'wall', item_id: 7 });
    expect(wall).toContain('<figure class="wall" data-item="7" data-view="7">');
    expect(intentLink(wall)).toBe(`${BASE}/r/${SITE}/7?to=${encodeURIComponent(LINK)}&s=wall`);
  });

  it('without analytics: no script, no data, the link itself', () => {
    for (const html of [
      showcasePage(showcase(undefined), 'android', false),
      itemPage({ showcase: showcase(undefined), index: 0, platform: 'android' }),
      wallPage({ showcase: showcase(undefined), index: 0, platform: 'android' }),
    ]) {
      expect(html).not.toContain('data-beacon');
      expect(html).not.toContain(BEACON_SCRIPT.slice(0, 80));
      expect(intentLink(html)).toBe(LINK);
    }
  });

  it('embed pages: the embed id as the site, the item, its variant; the Scene Viewer banner through the tap route', () => {
    const m: ReadyModel = {
      pageUrl: `${BASE}/embed/${EMB}`,
      posterUrl: `${BASE}/p.png`,
      glbUrl: `${BASE}/m.glb`,
      usdzUrl: `${BASE}/m.usdz`,
      widthInches: 24,
      heightInches: 36,
      qrSvg: '<svg></svg>',
      assetBase: BASE,
      presentation: launchPresentation(result),
      beacon: { url: `${BASE}/api/events`, site: EMB, surface: 'embed', item_id: 7, variant: 'A3', taps: `${BASE}/r/${EMB}` },
    };
    const android = interactivePage(m, 'android');
    expect(JSON.parse(attr(android, /<body data-beacon="([^"]+)"/))).toEqual({
      url: `${BASE}/api/events`,
      site: EMB,
      surface: 'embed',
      item_id: 7,
      variant: 'A3',
    });
    expect(android).toContain('data-variant="interactive" data-placement="wall" data-view="7">');
    expect(intentLink(android)).toBe(`${BASE}/r/${EMB}/7?to=${encodeURIComponent(LINK)}&s=embed&v=A3`);
    expect(inline(android)).toEqual([BEACON_SCRIPT]);
    expect(inline(interactivePage(m, 'ios'))).toEqual([QUICK_LOOK_TAP_SCRIPT, BEACON_SCRIPT]);
    expect(inline(interactivePage(m, 'desktop'))).toHaveLength(2);
    expect(staticPage(m)).toContain('<div class="card" data-variant="static" data-view="7">');
    expect(inline(staticPage(m))).toEqual([BEACON_SCRIPT]);
    const off = interactivePage({ ...m, beacon: undefined }, 'android');
    expect(off).not.toContain('data-beacon');
    expect(off).not.toContain('<script');
    expect(intentLink(off)).toBe(LINK);
  });
});
