import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configReference } from './config-reference';
import { envSchema } from './config.schema';

describe('configReference', () => {
  const doc = configReference();

  it('lists every variable of the schema once, with its default, its checks and its meaning', () => {
    for (const name of Object.keys(envSchema.shape)) expect(doc.match(new RegExp(`^\\| ${name} \\|`, 'gm'))).toHaveLength(1);
    expect(doc).toMatch(/^\| WORKER_CONCURRENCY \| `2` \| integer 1–64 \| CPU slots/m);
    expect(doc).toMatch(/^\| ALLOW_PRIVATE_NETWORKS \| `false` \| true \/ false/m);
    expect(doc).toMatch(/^\| STORAGE_DRIVER \| `local` \| one of local, s3 \|/m);
    expect(doc).toMatch(/^\| DATABASE_URL \| — \| URL \|/m);
    // Every variable says what it is for.
    for (const line of doc.split('\n').filter((l) => /^\| [A-Z0-9_]+ \|/.test(l))) expect(line).not.toMatch(/\|\s*\|$/);
  });

  it('is what docs/configuration.md says (run `npm run docs:config` after changing the schema)', () => {
    expect(readFileSync(join(__dirname, '../../../docs/configuration.md'), 'utf8')).toBe(doc);
  });
});
