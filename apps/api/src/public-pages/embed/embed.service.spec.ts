import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { AppConfig } from '@app/config';
import type { DataDeletionRepository, JobEntity, JobRepository, ShowcaseItemRepository, ShowcaseRepository } from '@app/persistence';
import type { StoragePort } from '@app/storage';
import { PublicUrls } from '@app/wire';
import { BannerLinks } from '../banner-redirect.controller';
import { BEACON_SCRIPT, WIDGET_FRAME_NAME } from '../beacon';
import { EmbedService } from './embed.service';

const BASE = 'https://ar.example.com';
const EMB = 'emb_abcdefghijklmnopqrstuvwx';
const JOB = 'api_abcdefghijklmnopqrstuvwx';

/** A completed conversion of `kind`, owned by `ownerId`. */
function job(kind: string, ownerId: string | null = 'usr_a'): JobEntity {
  return {
    id: JOB,
    publicId: EMB,
    kind,
    status: 'completed',
    progress: 100,
    ownerId,
    result: {
      dimensions: { width_inches: 24, height_inches: 36 },
      files: { glb: { key: 'm/a.glb' }, usdz: { key: 'm/a.usdz' }, poster: { key: 'm/a.png' } },
      placement: 'wall',
      banner: { title: 'Sunset', link_url: 'https://shop.example.com/p/1', call_to_action: 'Buy' },
    },
  } as unknown as JobEntity;
}

function service(j: JobEntity, analytics = true): EmbedService {
  const config = { publicBaseUrl: BASE, analytics: { enabled: analytics } } as unknown as AppConfig;
  return new EmbedService(
    { findByPublicId: async (id: string) => (id === EMB ? j : null) } as unknown as JobRepository,
    new PublicUrls(config),
    { url: (key: string) => `${BASE}/files/${key}` } as unknown as StoragePort,
    {} as DataDeletionRepository,
    {} as ShowcaseRepository,
    { itemForJob: async () => null } as unknown as ShowcaseItemRepository,
    config,
  );
}

const beaconOf = (html: string) => {
  const attr = /<body data-beacon="([^"]+)"/.exec(html)?.[1];
  return attr === undefined ? undefined : JSON.parse(attr.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
};
const inline = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

const UA = {
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  desktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
};

/**
 * Runs the widget (assets/widget.js) on a page with one container, in a tiny stand-in for the DOM, against a
 * service that answers `convert`, `status` and `result`: the iframe it shows in the end.
 */
async function widgetFrame(attrs: Record<string, string>): Promise<{ src: string; name: string }> {
  const source = readFileSync(join(__dirname, '../../../assets/widget.js'), 'utf8');
  const frames: Record<string, unknown>[] = [];
  const node = (): Record<string, unknown> => ({
    innerHTML: '',
    firstChild: { textContent: '' },
    style: {},
    querySelector: () => node(),
    appendChild: (f: Record<string, unknown>) => frames.push(f),
    setAttribute() {},
  });
  const box = node();
  // The widget takes an element (`instanceof Element`) as a list of one.
  class Element {}
  const el = Object.assign(new Element(), {
    style: {},
    attrs: { ...attrs },
    getAttribute(n: string) {
      return (this.attrs as Record<string, string>)[n] ?? null;
    },
    hasAttribute(n: string) {
      return n in (this.attrs as Record<string, string>);
    },
    setAttribute(n: string, v: string) {
      (this.attrs as Record<string, string>)[n] = v;
    },
    getBoundingClientRect: () => ({ height: 300 }),
    closest: () => null,
    attachShadow: () => ({ innerHTML: '', querySelector: () => box }),
  });
  const answers: Record<string, unknown> = {
    'POST /api/v1/convert': { job_id: JOB, status: 'queued' },
    [`GET /api/v1/status/${JOB}`]: { job_id: JOB, status: 'completed', progress: 100 },
    [`GET /api/v1/result/${JOB}`]: { job_id: JOB, embed_url: `${BASE}/embed/${EMB}`, embed_url_static: `${BASE}/embed/${EMB}/static` },
  };
  const window: Record<string, unknown> = {
    fetch: async (url: string, init: { method: string }) => {
      const body = answers[`${init.method} ${url.slice(BASE.length)}`];
      return { ok: !!body, status: body ? 200 : 404, json: async () => body ?? {} };
    },
    setTimeout,
    document: {
      currentScript: { src: `${BASE}/api/v1/widget.js` },
      readyState: 'complete',
      querySelectorAll: () => [el],
      createElement: () => ({ setAttribute() {} }),
      addEventListener() {},
    },
    Element,
  };
  window.window = window;
  runInNewContext(source, window);
  for (let i = 0; i < 50 && !frames.length; i++) await new Promise((r) => setImmediate(r));
  expect(frames).toHaveLength(1);
  return frames[0] as { src: string; name: string };
}

describe('v1 embed pages count (unit)', () => {
  it('the interactive and static pages of a v1 conversion carry the beacon, as its emb_ id, for every platform', async () => {
    const embeds = service(job('v1.convert'));
    for (const platform of ['android', 'ios', 'desktop'] as const) {
      const { status, html } = await embeds.render(EMB, 'interactive', UA[platform]);
      expect(status).toBe(200);
      // The same beacon as a showcase picture's, without an item: the job is the site.
      expect(beaconOf(html)).toEqual({ url: `${BASE}/api/events`, site: EMB, surface: 'embed' });
      expect(inline(html)).toContain(BEACON_SCRIPT);
      expect(html).toContain('data-variant="interactive" data-placement="wall" data-view="">');
    }
    const still = (await embeds.render(EMB, 'static')).html;
    expect(beaconOf(still)).toEqual({ url: `${BASE}/api/events`, site: EMB, surface: 'embed' });
    expect(inline(still)).toEqual([BEACON_SCRIPT]);
    expect(still).toContain('data-view=""');
    // Scene Viewer's banner link goes through the tap route, as item 0 (no item: the job is the site).
    const intent = /href="(intent:[^"]+)"/.exec((await embeds.render(EMB, 'interactive', UA.android)).html)![1].replace(/&amp;/g, '&');
    expect(new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#'))).get('link')).toBe(
      `${BASE}/r/${EMB}/0?to=${encodeURIComponent('https://shop.example.com/p/1')}&s=embed`,
    );
    // Animated AR is a conversion of its own too.
    expect(beaconOf((await service(job('v2.animated-ar')).render(EMB, 'static')).html)?.site).toBe(EMB);
  });

  it("the tap route's item 0 is a v1 conversion's own banner link, and nothing else", async () => {
    const links = (j: JobEntity) =>
      new BannerLinks(
        {} as ShowcaseRepository,
        { itemForJob: async () => null } as unknown as ShowcaseItemRepository,
        {
          findByPublicId: async (id: string) => (id === EMB ? j : null),
        } as unknown as JobRepository,
      );
    expect(await links(job('v1.convert')).find(EMB, '0')).toEqual({
      itemId: 0,
      links: new Set(['https://shop.example.com/p/1']),
      skus: new Set(),
    });
    // Not a job's site: a showcase picture's (its items are 1…), one without an owner, an unknown or malformed id.
    expect(await links(job('v2.picture')).find(EMB, '0')).toBeNull();
    expect(await links(job('v1.convert', null)).find(EMB, '0')).toBeNull();
    expect(await links(job('v1.convert')).find('emb_bbbbbbbbbbbbbbbbbbbbbbbb', '0')).toBeNull();
    expect(await links(job('v1.convert')).find('shw_abcdefghijklmnopqrstuvwx', '0')).toBeNull();
  });

  it('nothing with analytics off for the deployment, or for a job without an owner', async () => {
    for (const s of [service(job('v1.convert'), false), service(job('v1.convert', null))]) {
      const html = (await s.render(EMB, 'interactive', UA.android)).html;
      expect(html).not.toContain('data-beacon');
      expect(html).not.toContain('<script');
    }
  });

  it('the widget in job and image mode frames those pages, named so they report as the widget', async () => {
    const embeds = service(job('v1.convert'));
    for (const attrs of [
      { 'data-service-job': JOB, 'data-service-key': 'k' } as Record<string, string>,
      { 'data-service-image': 'https://shop.example.com/a.jpg', 'data-service-key': 'k' },
      { 'data-service-job': JOB, 'data-service-key': 'k', 'data-service-variant': 'static' },
    ]) {
      const frame = await widgetFrame(attrs);
      expect(frame.name).toBe(WIDGET_FRAME_NAME);
      const path = new URL(frame.src).pathname;
      expect(path).toBe(attrs['data-service-variant'] ? `/embed/${EMB}/static` : `/embed/${EMB}`);
      const page = await embeds.render(EMB, path.endsWith('/static') ? 'static' : 'interactive', UA.ios);
      expect(beaconOf(page.html)).toMatchObject({ site: EMB, surface: 'embed' });
      expect(inline(page.html)).toContain(BEACON_SCRIPT);
    }
  });
});
