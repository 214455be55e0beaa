/**
 * Lighthouse on the public showcase page (`npm run build && node dist/bench/showcase-lighthouse.js`).
 *
 * A 12-picture, indexable showcase on the real API (embedded mode), every layout in turn (PATCH), audited by
 * npm `lighthouse` (fetched by `npm exec` on first use, see LIGHTHOUSE) driving Debian's chromium with its default
 * mobile preset (Moto G class device, simulated slow 4G, 4x CPU slowdown). The conversion makes the thumbnails
 * (the showcase-picture pipeline), so the first visitor finds them ready: `first_thumbnail_ms` is the first
 * thumbnail's fetch on a fresh page. The page's images are fetched once before the audit all the same, so every
 * layout's audit starts from the same server state. Targets (issue 20): performance >= 90, accessibility >= 95,
 * best practices >= 95, SEO >= 90. Results: bench/results/showcase-lighthouse.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { callJson, round, sleep, startApi } from './bench-service';

const ROOT = join(__dirname, '../..');
const OWNER = 'owner-key-for-the-showcase-lighthouse-bench';
const LAYOUTS = ['branded', 'grid', 'salon', 'minimal', 'dark'];
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/**
 * Run through `npm exec` (npm's own cache), not a devDependency: lighthouse and the 132 packages only it needs
 * (~200 MB of node_modules) were installed by every `npm ci`, CI's included, for this one bench outside `npm run bench`.
 */
const LIGHTHOUSE = '12.8.2';
const run = promisify(execFile);

/** Twelve photos of several shapes, cut from the two fixture photos. */
async function pictures(): Promise<Record<string, Buffer>> {
  const sources = ['photo-street.jpg', 'photo-bubbles.jpg'].map((f) => readFileSync(join(ROOT, 'test/fixtures/media', f)));
  const shapes: [number, number][] = [
    [1600, 1067],
    [1067, 1600],
    [1400, 1400],
    [1800, 600],
    [900, 1350],
    [1600, 1200],
    [1200, 1600],
    [1500, 1000],
    [1000, 1000],
    [1600, 900],
    [800, 1200],
    [1400, 1050],
  ];
  const out: Record<string, Buffer> = {};
  for (const [n, [w, h]] of shapes.entries()) {
    out[`/p${n}.jpg`] = await sharp(sources[n % 2])
      .resize({ width: w, height: h, fit: 'cover' })
      .jpeg({ quality: 85 })
      .toBuffer();
  }
  out['/logo.png'] = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#1b5e20' } })
    .png()
    .toBuffer();
  return out;
}

interface Audit {
  score: number | null;
  numericValue?: number;
  title: string;
}
interface Report {
  categories: Record<string, { score: number }>;
  audits: Record<string, Audit>;
}

async function lighthouse(url: string, out: string): Promise<Report> {
  await run(
    'npm',
    [
      'exec',
      '--yes',
      `--package=lighthouse@${LIGHTHOUSE}`,
      '--',
      'lighthouse',
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run',
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
  );
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

async function main() {
  const files = await pictures();
  const media = createServer((req, res) => {
    const body = files[new URL(req.url!, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': req.url!.endsWith('.png') ? 'image/png' : 'image/jpeg' });
    res.end(body ?? '');
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'lh-bench-'));
  const { proc, base } = await startApi(OWNER, { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' });
  console.log(`api at ${base}`);
  const reports = mkdtempSync(join(tmpdir(), 'lh-reports-'));
  try {
    const titles = [
      'Harbour at dawn',
      'Dunes',
      'Square sea',
      'Panorama',
      'Quiet street',
      'Lanterns',
      'Bubbles',
      'Morning',
      'Tiles',
      'Evening light',
      'Steps',
      'Market',
    ];
    const showcase = await callJson(base, 'POST', '/api/v2/showcases', OWNER, {
      layout_choice: 'branded',
      indexable: true,
      logo_url: `${mediaBase}/logo.png`,
      description: 'Limited-edition photographic prints, hand-finished in our studio. Every print ships framed and ready to hang.',
      custom_links: [
        { title: 'Shop', url: 'https://shop.example.com/' },
        { title: 'About the studio', url: 'https://shop.example.com/about' },
      ],
      branding: { tagline: 'Gallery North', primary_color: '#0a66ff', secondary_color: '#1b5e20' },
      items: titles.map((title, n) => ({
        image_url: `${mediaBase}/p${n}.jpg`,
        title,
        price: `$${120 + n * 20}`,
        link_url: `https://shop.example.com/p/${n}`,
        call_to_action: 'Buy',
        ...(n % 3 === 0 ? { frame: 'classic' } : {}),
      })),
    });
    console.log(`showcase ${showcase.url}: converting ${titles.length} pictures`);
    for (let tries = 0; ; tries++) {
      const s = await callJson(base, 'GET', `/api/v2/showcases/${showcase.id}`, OWNER);
      const states = s.items.map((i: { status: string }) => i.status);
      if (states.every((v: string) => v === 'completed' || v === 'failed')) break;
      if (tries > 360) throw new Error(`pictures still converting after 3 min: ${states.join(', ')}`);
      if (tries % 20 === 0) console.log(states.join(' '));
      await sleep(500);
    }
    // The first visitor makes the thumbnails: time one, then warm the rest.
    const html = await (await fetch(showcase.url)).text();
    const thumbs = [...html.matchAll(/(?:src|srcset)="([^"]+?\/thumb\/\d+\.(?:webp|avif))/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const t0 = performance.now();
    await (await fetch(thumbs[0]!)).arrayBuffer();
    const firstThumbnailMs = round(performance.now() - t0);
    const all = [...new Set(html.match(/http[^" ,]+\/thumb\/[^" ,]+/g) ?? [])];
    await Promise.all(all.map(async (u) => (await fetch(u)).arrayBuffer()));

    const results: Record<string, unknown> = {};
    for (const layout of LAYOUTS) {
      await callJson(base, 'PATCH', `/api/v2/showcases/${showcase.id}`, OWNER, { layout_choice: layout });
      console.log(`lighthouse: ${layout}`);
      const r = await lighthouse(showcase.url, join(reports, `${layout}.json`));
      const score = (c: string) => Math.round((r.categories[c]?.score ?? 0) * 100);
      const metric = (a: string, d = 0) => round(r.audits[a]?.numericValue ?? NaN, d);
      const failing = Object.entries(r.audits)
        .filter(
          ([, a]) =>
            a.score !== null &&
            a.score < 0.9 &&
            !['metrics', 'screenshot-thumbnails', 'final-screenshot', 'main-thread-tasks', 'diagnostics'].includes(a.title),
        )
        .map(([id, a]) => `${id} (${a.score})`);
      results[layout] = {
        performance: score('performance'),
        accessibility: score('accessibility'),
        best_practices: score('best-practices'),
        seo: score('seo'),
        fcp_ms: metric('first-contentful-paint'),
        lcp_ms: metric('largest-contentful-paint'),
        tbt_ms: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift', 3),
        speed_index_ms: metric('speed-index'),
        bytes: metric('total-byte-weight'),
        audits_below_0_9: failing,
      };
      console.log(layout, JSON.stringify(results[layout]));
    }
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench/results/showcase-lighthouse.json'),
      `${JSON.stringify(
        {
          what: 'Lighthouse on a 12-picture indexable showcase, mobile preset (simulated slow 4G, 4x CPU), Debian chromium, embedded API on loopback',
          lighthouse: LIGHTHOUSE,
          targets: { performance: 90, accessibility: 95, best_practices: 95, seo: 90 },
          first_thumbnail_ms: firstThumbnailMs,
          layouts: results,
          date: new Date().toISOString(),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    proc.kill('SIGKILL');
    media.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(reports, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
