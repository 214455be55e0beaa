import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import { createOpenApiDocument } from './http/openapi.document';

/** Writes the published OpenAPI document to a file (default docs/openapi.json) without starting the server. */
async function main(): Promise<void> {
  const out = process.argv[2] ?? 'docs/openapi.json';
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, OWNER_API_KEY: `sk_owner_${'x'.repeat(32)}`, PUBLIC_BASE_URL: 'http://localhost:3000' });
    const doc = await createOpenApiDocument(config);
    // The committed document names no deployment: each one serves its own at /openapi.json with PUBLIC_BASE_URL.
    doc.servers = [
      {
        url: '{base_url}',
        description: "The deployment's PUBLIC_BASE_URL.",
        variables: { base_url: { default: 'http://localhost:3000' } },
      },
    ];
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${out}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`openapi: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
