/**
 * Shop sync (issue 41; `node dist/bench/shop-sync.js [webhooks]`, after a build): a 500-product Shopify store with 6
 * variants each (sizes in the option values, "20 x 30 cm" … "45 x 55 cm") served over https by the Shopify Admin
 * GraphQL protocol fake (libs/testing), its certificate trusted by the API through NODE_EXTRA_CA_CERTS.
 *
 * (a) The pull: `POST /api/v2/connections/{id}/sync` to the import's `completed` (every product read, mapped to a
 *     row and processed: items created and charged, jobs queued), with the API process's peak RSS (VmRSS sampled
 *     every 20 ms; VmHWM for its whole life). The API runs `--role api` on Postgres + Redis with no worker, so the
 *     conversions only queue and are not the subject. Floor: the plain ShopifyAdminClient.products() paging through
 *     the same fake in a child process of its own (time to the last product, its VmHWM), the same output (every
 *     product with its variants, mapped) without the import.
 * (b) Webhook-driven sync: `webhooks` (default 100) products change their title and first variant's price in the
 *     fake and a signed products/update webhook is sent for each at once (as a shop's bulk edit does); timed until
 *     every new price shows in GET /api/v2/showcases/{id}: products a minute.
 *
 * The fake's cost bucket is made large enough never to throttle, so the numbers are the service's own work; what
 * Shopify's restore rate would add (100 points/s on a standard plan, 1,000 on Plus) is given from the points the
 * pull requested. Results: bench/results/shop-sync.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { ShopifyAdminClient } from '@app/shops';
import type * as HttpsTestOrigin from '../libs/testing/src/fakes/https-test-origin';
import type * as ShopifyFake from '../libs/testing/src/fakes/shopify-admin.fake';
import { callJson, createDatabase, round, sleep, spawnEntry, waitHealthy } from './bench-service';

const OWNER = 'owner-key-for-the-shop-sync-bench';
const REDIS_URL = 'redis://127.0.0.1:6379/9';
const TOKEN = 'shpat_bench0123456789abcdef';
const HOOK_SECRET = 'hook-secret-for-the-shop-sync-bench';
const PRODUCTS = 500;
const VARIANTS = 6;
const SHOP_DOMAIN = 'bench-prints.myshopify.com';

function status(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/**
 * A protocol fake from libs/testing, which the build leaves out (the tests' helpers): compiled from its source
 * into `dir` and loaded (both files import only Node's built-ins).
 */
function loadFake<T>(name: string, dir: string): T {
  const source = join(__dirname, '../../libs/testing/src/fakes', `${name}.ts`);
  const { code } = transformFileSync(source, {
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const file = join(dir, `${name}.js`);
  writeFileSync(file, code);
  return createRequire(__filename)(file) as T;
}

/** The floor, in a child process of its own: the plain client paging through the fake. Prints one JSON line. */
async function floorChild(endpoint: string): Promise<void> {
  const before = status(process.pid).rss;
  const client = new ShopifyAdminClient({ shopDomain: SHOP_DOMAIN, accessToken: TOKEN, endpoint });
  const t0 = Date.now();
  let products = 0;
  let variants = 0;
  for await (const p of client.products()) {
    products++;
    variants += p.variants.length;
  }
  const ms = Date.now() - t0;
  const s = status(process.pid);
  console.log(JSON.stringify({ ms, products, variants, requests: client.gql.stats.requests, rss_before_mb: before, vmhwm_mb: s.hwm }));
}

function runFloor(endpoint: string, caPath: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, '--floor', endpoint], {
      env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: caPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`floor exited ${code}`)),
    );
  });
}

async function startApi(dataDir: string, dbUrl: string, shopifyUrl: string, caPath: string): Promise<{ base: string; proc: ChildProcess }> {
  const port = 43000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  // Its log (stdout) kept in the data directory: shown if it dies.
  const proc = spawnEntry(
    'api',
    {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_KEY: '1000000',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      OWNER_API_KEY: OWNER,
      DATA_DIR: dataDir,
      SHOWCASE_MAX_ITEMS: '10000',
      ACCOUNT_MAX_ACTIVE_JOBS: '0',
      DATABASE_URL: dbUrl,
      REDIS_URL,
      QUEUE_NAME: `shop-sync-bench-${Date.now()}`,
      SHOPIFY_ADMIN_BASE_URL: shopifyUrl,
      NODE_EXTRA_CA_CERTS: caPath,
    },
    ['--role', 'api'],
    join(dataDir, 'api.log'),
  );
  await waitHealthy(base, proc);
  return { base, proc };
}

async function waitImport(base: string, key: string, importId: string): Promise<any> {
  for (;;) {
    const imp = await callJson(base, 'GET', `/api/v2/imports/${importId}`, key);
    if (imp.status === 'completed') return imp;
    await sleep(50);
  }
}

async function main() {
  const hooks = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100);
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-sync-bench-'));
  const { selfSignedCertificate } = loadFake<typeof HttpsTestOrigin>('https-test-origin', dataDir);
  const { fakeShopifyProduct, startFakeShopifyAdmin } = loadFake<typeof ShopifyFake>('shopify-admin.fake', dataDir);
  const tls = selfSignedCertificate();
  const caPath = join(dataDir, 'fake-ca.pem');
  writeFileSync(caPath, tls.cert);
  // Never throttled (the bucket refills faster than anything can spend it): the service's own work is measured.
  const shopify = await startFakeShopifyAdmin({
    accessToken: TOKEN,
    shopName: 'Bench Prints',
    tls,
    restoreRate: 1e9,
    maximumAvailable: 1e9,
  });
  for (let i = 1; i <= PRODUCTS; i++) {
    // One picture a product (its featured image): the items are created and charged, no worker converts them here.
    shopify.products.push(fakeShopifyProduct(9_000_000 + i, VARIANTS));
  }
  const db = await createDatabase('shop_sync_bench');
  const { base, proc } = await startApi(dataDir, db.url, shopify.url, caPath);
  const pid = proc.pid!;
  proc.on('exit', (code, signal) => {
    if (signal === 'SIGKILL') return;
    console.error(`the API exited (${code ?? signal}); its log ends:\n${readFileSync(join(dataDir, 'api.log'), 'utf8').slice(-4000)}`);
    process.exit(1);
  });
  const loadBefore = loadavg()[0];
  let report: Record<string, unknown>;
  let sampler: NodeJS.Timeout | undefined;
  try {
    const user = await callJson(base, 'POST', '/api/admin/users', OWNER, {
      email: `shop-sync-${Date.now()}@example.com`,
      credits: PRODUCTS * 3,
      showcase_slots: 3,
    });
    const { key } = await callJson(base, 'POST', `/api/admin/users/${user.id}/keys`, OWNER, {});
    const showcase = await callJson(base, 'POST', '/api/v2/showcases', key, { units: 'cm' });
    const con = await callJson(base, 'POST', '/api/v2/connections', key, {
      platform: 'shopify',
      shop_domain: SHOP_DOMAIN,
      access_token: TOKEN,
      webhook_secret: HOOK_SECRET,
      showcase_id: showcase.id,
      sync_interval_hours: 0,
    });

    // (a) The pull.
    await sleep(1000);
    const before = status(pid);
    let peak = before.rss;
    sampler = setInterval(() => (peak = Math.max(peak, status(pid).rss)), 20);
    const requestsBefore = shopify.requests.length;
    const t0 = Date.now();
    const { import_id } = await callJson(base, 'POST', `/api/v2/connections/${con.id}/sync`, key, {});
    const acceptedMs = Date.now() - t0;
    const imp = await waitImport(base, key, import_id);
    const pullMs = Date.now() - t0;
    clearInterval(sampler);
    const after = status(pid);
    const pullRequests = shopify.requests
      .slice(requestsBefore)
      .filter((r) => r.operationName === 'Products' || r.operationName === 'ShopInfo');
    const pointsRequested = pullRequests.reduce((s, r) => s + r.requestedCost, 0);
    // The fake charges what a page returned: 2 a page plus 16 a product and 12 a variant.
    const pointsCharged = pullRequests.length * 2 + PRODUCTS * (16 + VARIANTS * 12);
    const sync = {
      products: PRODUCTS,
      variants_each: VARIANTS,
      accepted_ms: acceptedMs,
      processed_ms: pullMs,
      products_per_s: round(PRODUCTS / (pullMs / 1000), 0),
      counts: imp.counts,
      credits_charged: imp.credits_charged,
      shop_requests: pullRequests.length,
      rss_mb: { before: round(before.rss, 0), peak_during_pull: round(peak, 0), vmhwm_after: round(after.hwm, 0) },
    };
    console.log(
      `pull of ${PRODUCTS} x ${VARIANTS}: 202 after ${acceptedMs} ms, import completed after ${pullMs} ms; ` +
        `API RSS ${sync.rss_mb.before} -> peak ${sync.rss_mb.peak_during_pull} MB (VmHWM ${sync.rss_mb.vmhwm_after})`,
    );

    const floor = await runFloor(shopify.url, caPath);
    console.log(`floor: ShopifyAdminClient.products() ${floor.products} products in ${floor.ms} ms, VmHWM ${round(floor.vmhwm_mb, 0)} MB`);

    // (b) Webhooks: `hooks` products edited at once (title, first price), one signed products/update each.
    const changed = shopify.products.slice(0, hooks);
    for (const p of changed) {
      p.title = `${p.title}, retitled`;
      p.variants[0].price = '99.00';
    }
    const url = `${base}/webhooks/shopify/${con.id}`;
    const w0 = Date.now();
    const answers = await Promise.all(
      changed.map(async (p, i) => {
        const body = JSON.stringify({ id: p.id, admin_graphql_api_id: `gid://shopify/Product/${p.id}`, title: p.title, status: 'active' });
        const r = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': 'products/update',
            'x-shopify-shop-domain': SHOP_DOMAIN,
            'x-shopify-webhook-id': `bench-${w0}-${i}`,
            'x-shopify-hmac-sha256': createHmac('sha256', HOOK_SECRET).update(body).digest('base64'),
          },
          body,
        });
        await r.arrayBuffer();
        return r.status;
      }),
    );
    const acceptedHooksMs = Date.now() - w0;
    if (answers.some((s) => s !== 200)) throw new Error(`webhooks answered ${[...new Set(answers)].join(', ')}`);
    const wanted = new Set(changed.map((p) => `shopify:${p.id}`));
    let applied = 0;
    for (;;) {
      const s = await callJson(base, 'GET', `/api/v2/showcases/${showcase.id}`, key);
      applied = s.items.filter((i: any) => wanted.has(i.external_id) && i.variants[0]?.price === '€99.00').length;
      if (applied === hooks) break;
      if (Date.now() - w0 > 60_000)
        throw new Error(
          `only ${applied} of ${hooks} webhooks applied after 60 s (an item: ${JSON.stringify(s.items.find((i: any) => wanted.has(i.external_id)) ?? s.items[0]).slice(0, 600)}); the API's log says:\n${readFileSync(
            join(dataDir, 'api.log'),
            'utf8',
          )
            .split('\n')
            .filter((l) => !l.includes('request completed'))
            .slice(-30)
            .join('\n')
            .slice(-4000)}`,
        );
      await sleep(200);
    }
    const hooksMs = Date.now() - w0;
    const webhooks = {
      products: hooks,
      all_answered_ms: acceptedHooksMs,
      all_applied_ms: hooksMs,
      products_per_min: round(hooks / (hooksMs / 60_000), 0),
    };
    console.log(
      `webhooks: ${hooks} products edited, all answered after ${acceptedHooksMs} ms, all applied after ${hooksMs} ms (${webhooks.products_per_min}/min)`,
    );

    report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      load: { before: round(loadBefore, 2), after: round(loadavg()[0], 2) },
      mode: '--role api, Postgres + Redis, no worker (the conversions only queue); the Shopify Admin GraphQL fake over https in the bench process',
      store: `${PRODUCTS} active products x ${VARIANTS} variants, sizes in the option "Size" ("20 x 30 cm" ... "45 x 55 cm"), one picture a product`,
      pull: sync,
      floor: {
        what: 'ShopifyAdminClient.products() (the same pages, products mapped with their variants) in a child process, global fetch',
        ms: floor.ms,
        products: floor.products,
        variants: floor.variants,
        requests: floor.requests,
        rss_mb: { before: round(floor.rss_before_mb, 0), vmhwm: round(floor.vmhwm_mb, 0) },
      },
      ratio: { time: round(pullMs / floor.ms, 2), peak_rss: round(peak / floor.vmhwm_mb, 2) },
      shopify_cost: {
        points_requested: pointsRequested,
        points_charged: pointsCharged,
        throttle_bound_s: {
          standard_100_per_s: round((pointsCharged - 2000) / 100, 0),
          plus_1000_per_s: round(Math.max(0, pointsCharged - 2000) / 1000, 0),
        },
        note: "the fake never throttled here; a real shop's restore rate bounds the pull at about these times (the 2,000-point bucket spent first)",
      },
      webhooks,
      timing:
        'pull: POST .../sync to the import completed (products read, rows checked, items created and charged, jobs queued); webhooks: all sent at once, to every new price shown in GET /api/v2/showcases/{id}',
    };
  } finally {
    clearInterval(sampler);
    proc.kill('SIGKILL');
    await shopify.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const out = join(__dirname, '../../bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'shop-sync.json'), JSON.stringify(report, null, 2) + '\n');
  console.log('written to bench/results/shop-sync.json');
}

const floorAt = process.argv.indexOf('--floor');
(floorAt >= 0 ? floorChild(process.argv[floorAt + 1]) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
