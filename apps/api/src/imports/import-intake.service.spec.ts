import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type ShowcaseRow,
} from '@app/persistence';
import type { StoragePort } from '@app/storage';
import { openPglite, tempDir } from '@app/testing';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/principal';
import type { ItemEdits } from '../showcases/item-edits.service';
import { ImportIntake } from './import-intake.service';
import type { ImportRunner } from './import-runner.service';
import { IMPORT_MAX_ROWS } from './imports.schema';

/**
 * Reading an import's upload on a real (embedded) database, the runner, item edits and storage stood in for:
 * a dry run of a large JSON body shares the event loop, and a body of more variants than an import has rows is
 * refused before its items are checked. (The whole route: test/catalogue-import*.e2e-spec.ts.)
 */
describe('ImportIntake', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let showcases: ShowcaseRepository;
  let showcaseItems: ShowcaseItemRepository;
  let accounts: AccountRepository;
  let imports: CatalogueImportRepository;
  const dataDir = tempDir();
  beforeAll(async () => {
    ({ ds, drop } = await openPglite());
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
    accounts = new AccountRepository(ds);
    imports = new CatalogueImportRepository(ds);
  });
  afterAll(() => drop());

  function intake(): ImportIntake {
    const config = { dataDir, showcases: { maxItems: 10_000, maxFileBytes: 1e6, maxFilesPerRequest: 20 } } as unknown as AppConfig;
    const runner = { track: () => undefined, untrack: () => undefined } as unknown as ImportRunner;
    return new ImportIntake(showcaseItems, imports, accounts, runner, {} as ItemEdits, {} as StoragePort, config);
  }

  async function setup(): Promise<{ p: Principal; showcase: ShowcaseRow }> {
    const u = await accounts.createUser({ email: `s${Date.now()}${Math.random()}@x.co` });
    await ds.query(`UPDATE "users" SET "credits_cents" = 1000000 WHERE "id" = $1`, [u.id]);
    const { showcase } = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'still-image' },
    );
    return { p: { userId: u.id, keyType: 'user', scope: 'full' }, showcase };
  }

  const json = (body: unknown) =>
    ({ headers: { 'content-type': 'application/json' }, isMultipart: () => false, body }) as unknown as FastifyRequest;

  /** A new item with `n` variants (no external_id: a dry run has nothing to look up, so nothing to wait on). */
  const item = (i: number, n: number) => ({
    image_url: `https://example.com/${i}.jpg`,
    title: `Work ${i}`,
    variants: Array.from({ length: n }, (_, k) => ({
      sku: `W${i}-${k}`,
      name: `Size ${k}`,
      price: `€${10 + k}`,
      width_cm: 20 + k,
      height_cm: 30 + k,
      frame: { style: 'classic', color: 'oak' },
    })),
  });

  it('a dry run of a large JSON body gives the event loop a turn while it checks the rows', async () => {
    const { p, showcase } = await setup();
    // 208 items x 24 variants: 4,992 rows, under the cap, every variant checked.
    const items = Array.from({ length: 208 }, (_, i) => item(i, 24));
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    const dry = intake().read(p, showcase, json({ items }), { dryRun: true, pictureCents: 200 });
    setImmediate(tick);
    let out: Awaited<typeof dry>;
    try {
      out = await dry;
    } finally {
      ticking = false;
    }
    expect(out.dryRun).toBe(true);
    expect(out.dryRun && out.preview).toMatchObject({
      object: 'import_preview',
      counts: { rows: 208, invalid: 0, created: 208 },
      price: { pictures: 208 },
    });
    // A turn at least every 20 rows (here: every item, 24 variants each); before, the whole check ran in one.
    expect(turns).toBeGreaterThanOrEqual(200);
  });

  it('refuses a body whose variants make more rows than an import has, before checking its items', async () => {
    const { p, showcase } = await setup();
    // 5,000 items x 24 variants: 120,000 variants, 5,000 items (the items cap alone lets it through).
    const items: unknown[] = Array.from({ length: 5000 }, (_, i) => item(i, 24));
    let touched = false;
    // The last item records any read: the count stops at the item past the cap, and nothing is checked.
    items[4999] = new Proxy(item(4999, 24), {
      get(target, key, receiver) {
        touched = true;
        return Reflect.get(target, key, receiver);
      },
    });
    for (const dryRun of [true, false]) {
      const err = await intake()
        .read(p, showcase, json({ items }), { dryRun, pictureCents: 200 })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      // 208 items make 4,992 rows; the 209th (items[208]) takes them to 5,016.
      expect({ status: e.status, code: e.code, param: e.param }).toEqual({
        status: 400,
        code: 'too_many_rows',
        param: 'items[208].variants',
      });
      expect(e.message).toContain(`at most ${IMPORT_MAX_ROWS} rows, each variant of an item counting as one`);
      expect(touched).toBe(false);
    }
    // Nothing was stored: the real import was refused before it began.
    const n = await ds.query(`SELECT count(*) AS n FROM "catalogue_imports" WHERE "showcase_id" = $1`, [showcase.id]);
    expect(Number(n[0].n)).toBe(0);
  });
});
