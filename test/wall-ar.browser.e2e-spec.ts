import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { Api, ROOT } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { launchChromium, readGlb, validateGlb } from '@app/testing';
import { startMediaServer } from './support/media-server';
import { type OpenUsd, openUsd, usdAttribute } from './support/openusd';

// Framed wall pictures through the running service, as a visitor gets them: the files the service
// stores (read back by OpenUSD and the glTF validator), the framed poster, and the desktop preview in
// Chromium (a screenshot per frame style in test-artifacts/screenshots, looked at).

const OWNER = 'owner-key-for-wall-ar-e2e-0123456789';
const IN = 0.0254;
const ARTIFACTS = join(ROOT, 'test-artifacts/screenshots');

let app: TestApp;
let api: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let usd: OpenUsd;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  media = await startMediaServer();
  app = await startServiceApp(OWNER);
  api = new Api(app.base, OWNER);
  usd = await openUsd();
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await usd?.close();
  await app?.close();
  await media?.stop();
});

const STYLES: [string, Record<string, unknown>][] = [
  ['none', {}],
  ['thin', { frame: 'thin', mat: { width_inches: 2 }, finish: 'matte' }],
  ['classic', { frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 3 }, title: 'Street at dusk', price: '$240' }],
  ['float', { frame: { style: 'float', color: 'gold' } }],
  ['canvas', { frame: 'canvas', finish: 'gloss' }],
];

describe('framed wall pictures from the running service', () => {
  it.each(STYLES)(
    '%s: stored USDZ and GLB read back at the outer size, framed poster, desktop preview',
    async (style, fields) => {
      const created = await api.req('POST', '/api/v1/convert', {
        image_url: `${media.base}/street.jpg`,
        width_inches: 30,
        height_inches: 20,
        ...fields,
      });
      expect(created.status).toBe(202);
      await api.waitStatus(created.body.job_id, ['completed'], 60_000);
      const r = (await api.req('GET', `/api/v1/result/${created.body.job_id}`)).body;
      const outer = r.outer_dimensions;
      expect(r.placement).toBe('wall');
      expect(r.dimensions).toEqual({ width_inches: 30, height_inches: 20 });

      const usdz = Buffer.from(await (await fetch(r.models.usdz.url)).arrayBuffer());
      const report = await usd.load(usdz, `${style}.usdz`);
      expect(report.errors).toEqual([]);
      expect(usdAttribute(report, '/Card', 'preliminary:planeAnchoring:alignment')).toBe('"vertical"');
      const [x, y, z] = report.bounds!.max.map((v, i) => (v - report.bounds!.min[i]) / IN);
      expect([x, z, y].map((v) => v.toFixed(2))).toEqual(
        [outer.width_inches, outer.height_inches, outer.depth_inches].map((v: number) => v.toFixed(2)),
      );

      const glb = Buffer.from(await (await fetch(r.models.glb.url)).arrayBuffer());
      expect((await validateGlb(glb)).numErrors).toBe(0);
      expect((await readGlb(glb)).getRoot().listMaterials().length).toBeLessThanOrEqual(10);

      // The poster shows the frame: larger than the picture's own proportions by the border.
      const posterUrl = r.models.glb.url.replace(/model\.glb$/, '');
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      try {
        await page.goto(`${r.embed_url}?platform=desktop`);
        const poster = await page.locator('model-viewer').getAttribute('poster');
        expect(poster?.startsWith(posterUrl)).toBe(true);
        const meta = await sharp(Buffer.from(await (await fetch(poster!)).arrayBuffer())).metadata();
        expect(meta.width! / meta.height!).toBeCloseTo(outer.width_inches / outer.height_inches, 1);
        await page.waitForFunction(
          () => (document.querySelector('model-viewer') as unknown as { loaded?: boolean })?.loaded === true,
          null,
          { timeout: 60_000 },
        );
        await page.waitForTimeout(500);
        await page.screenshot({ path: join(ARTIFACTS, `frame-${style}.png`) });
        if (fields.title) await expect(page.locator('body').innerText()).resolves.toContain('Street at dusk');
      } finally {
        await page.close();
      }
    },
    120_000,
  );
});
