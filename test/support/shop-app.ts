import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppProcess, freePort, spawnApp, waitHealthy } from './app-process';

/**
 * The built API as a process that trusts the shop fakes' certificates (NODE_EXTRA_CA_CERTS takes effect only in a
 * new process, so startTestApp cannot) and reaches the Shopify fake through SHOPIFY_ADMIN_BASE_URL: what every
 * shop-connection test starts. The certificates are written as one bundle under `dataDir`; `env` adds to (or
 * overrides) the defaults, e.g. OWNER_API_KEY, a database or LOG_LEVEL; `args` go to the entry point (scaled mode's
 * `--role api`).
 */
export async function spawnShopApp(opts: {
  dataDir: string;
  shopifyUrl: string;
  certificates: Buffer[];
  env: Record<string, string>;
  args?: string[];
}): Promise<{ app: AppProcess; base: string }> {
  const ca = join(opts.dataDir, 'fakes-ca.pem');
  writeFileSync(ca, Buffer.concat(opts.certificates.flatMap((c, i) => (i === 0 ? [c] : [Buffer.from('\n'), c]))));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = spawnApp(
    'api',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: opts.dataDir,
      ALLOW_PRIVATE_NETWORKS: 'true',
      SHOPIFY_ADMIN_BASE_URL: opts.shopifyUrl,
      NODE_EXTRA_CA_CERTS: ca,
      ...opts.env,
    },
    opts.args,
  );
  await waitHealthy(base, app, 60_000);
  return { app, base };
}
