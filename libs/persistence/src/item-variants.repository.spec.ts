import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  ItemEditRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type StoredVariant,
  VARIANT_BUILD_INPUT,
} from './index';

const free = { enforceSlots: false, showcaseCents: 0, pictureCents: 0 };
const opts = { pipeline: 'showcase-picture' };
const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });

const variant = (id: string, sku: string, extra: Partial<StoredVariant> = {}): StoredVariant => ({
  id,
  sku,
  name: '',
  default: false,
  price: null,
  link_url: null,
  call_to_action: null,
  availability: 'available',
  sent: {},
  spec: { width_inches: 20, height_inches: 30, fit: 'crop' },
  built: null,
  main: false,
  pending_job_id: null,
  error: null,
  ...extra,
});

const files = (jobId: string, base: string) => ({
  glb: { key: `models/${jobId}/${base}model.glb`, bytes: 10, content_type: 'model/gltf-binary' },
  usdz: { key: `models/${jobId}/${base}model.usdz`, bytes: 10, content_type: 'model/vnd.usdz+zip' },
  poster: { key: `models/${jobId}/${base}poster.jpg`, bytes: 10, content_type: 'image/jpeg' },
});

/** Variants of an item: stored with it, resolved from the job results, built again one by one. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('Item variants (ItemEditRepository, ShowcaseItemRepository) on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let accounts: AccountRepository;
  let showcases: ShowcaseRepository;
  let showcaseItems: ShowcaseItemRepository;
  let itemEdits: ItemEditRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    accounts = new AccountRepository(ds);
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
    itemEdits = new ItemEditRepository(ds);
  });
  afterAll(() => drop());

  async function finish(jobId: string, status: 'completed' | 'failed', result: unknown) {
    await ds.query(`UPDATE "jobs" SET "status" = $2, "result" = $3, "error" = $4, "finished_at" = now() WHERE "id" = $1`, [
      jobId,
      status,
      status === 'completed' ? JSON.stringify(result) : null,
      status === 'failed' ? JSON.stringify({ code: 'viewer_budget_exceeded', message: 'variants: too big' }) : null,
    ]);
  }
  const input = async (jobId: string) => (await ds.query(`SELECT "input" FROM "jobs" WHERE "id" = $1`, [jobId]))[0].input;

  /** An item with a default (main) variant and two others, its job completed. */
  async function itemWithVariants() {
    const u = await accounts.createUser({ email: `v${Date.now()}${Math.random()}@x.co` });
    const variants = [
      variant('var_main0001', 'A', { default: true, main: true, price: '€10' }),
      variant('var_other002', 'B', { price: '€20', spec: { width_inches: 40, height_inches: 60, fit: 'crop', frame: 'classic' } }),
      variant('var_other003', 'C'),
    ];
    const created = await showcases.create(
      showcase(u.id),
      [
        {
          source: 'url',
          sourceUrl: 'https://example.com/a.jpg',
          presentation: { title: 'T', width_inches: 20, height_inches: 30 },
          variants,
        },
      ],
      free,
      opts,
    );
    const jobId = created.items[0].jobId;
    await finish(jobId, 'completed', {
      files: files(jobId, ''),
      dimensions: { width_inches: 20, height_inches: 30 },
      banner: { title: 'T' },
      variants: [
        { id: 'var_other002', files: files(jobId, 'variants/var_other002/'), dimensions: { width_inches: 40, height_inches: 60 } },
        { id: 'var_other003', files: files(jobId, 'variants/var_other003/'), dimensions: { width_inches: 20, height_inches: 30 } },
      ],
    });
    return { ownerId: u.id, s: created.showcase, itemId: created.items[0].id, jobId };
  }

  it("gives the item's job the other variants' specs and resolves each variant's files from its result", async () => {
    const { s, itemId, jobId } = await itemWithVariants();
    // The main variant is the job's own fields; the others are built after it, from the same texture.
    expect((await input(jobId)).variants).toEqual([
      { id: 'var_other002', width_inches: 40, height_inches: 60, fit: 'crop', frame: 'classic' },
      { id: 'var_other003', width_inches: 20, height_inches: 30, fit: 'crop' },
    ]);
    const item = (await showcaseItems.item(s.id, itemId))!;
    expect(item.variants!.map((v) => v.build?.files.glb.key)).toEqual([
      `models/${jobId}/model.glb`,
      `models/${jobId}/variants/var_other002/model.glb`,
      `models/${jobId}/variants/var_other003/model.glb`,
    ]);
    // The item shows its default variant, with its price in the banner.
    expect(item.result).toMatchObject({ files: { glb: { key: `models/${jobId}/model.glb` } }, banner: { title: 'T', price: '€10' } });
  });

  it('builds one variant again: pending until its job completes, then only that one switches; the default shows on the item', async () => {
    const { ownerId, s, itemId, jobId } = await itemWithVariants();
    const item = (await showcaseItems.item(s.id, itemId))!;
    const next = item.storedVariants!.map((v) =>
      v.sku === 'B' ? { ...v, default: true, spec: { ...v.spec, frame: 'thin' } } : { ...v, default: false },
    );
    const out = await itemEdits.editItem(item, ownerId, {
      variants: {
        next,
        expected: item.storedVariants,
        build: { input: { upload_key: 'k' }, pipeline: 'showcase-variants', ids: ['var_other002'] },
      },
    });
    const build = out!.variantBuildJobId!;
    expect((await input(build))[VARIANT_BUILD_INPUT]).toEqual({ item_id: itemId, variant_ids: ['var_other002'] });
    const pending = (await showcaseItems.item(s.id, itemId))!;
    expect(pending.variants!.map((v) => v.pending_job_id)).toEqual([null, build, null]);
    // Its old files serve meanwhile.
    expect(pending.variants![1].build?.job_id).toBe(jobId);
    // The same edit made from what the item was before is stale now.
    expect(await itemEdits.editItem(item, ownerId, { variants: { next, expected: item.storedVariants } })).toBeNull();

    expect(await itemEdits.settleVariantBuild(build)).toEqual({ outcome: 'running' });
    await finish(build, 'completed', {
      variants: [
        { id: 'var_other002', files: files(build, 'variants/var_other002/'), dimensions: { width_inches: 40, height_inches: 60 } },
      ],
    });
    expect(await itemEdits.finishedVariantBuilds()).toContain(build);
    const settled = await itemEdits.settleVariantBuild(build);
    expect(settled).toEqual({ outcome: 'settled', itemId, status: 'completed', variantIds: ['var_other002'], replacedJobIds: [] });
    const after = (await showcaseItems.item(s.id, itemId))!;
    expect(after.variants!.map((v) => v.build?.job_id)).toEqual([jobId, build, jobId]);
    expect(after.result).toMatchObject({
      files: { glb: { key: `models/${build}/variants/var_other002/model.glb` } },
      banner: { price: '€20' },
    });
    expect(await itemEdits.finishedVariantBuilds()).not.toContain(build);
    // Settling again changes nothing: the job is in use.
    expect(await itemEdits.settleVariantBuild(build)).toEqual({ outcome: 'in_use' });
    expect(await showcaseItems.itemForJob(build)).toEqual({ id: itemId, showcaseId: s.id });

    // Built again: the job that served it only is replaced (free to delete).
    const again = after.storedVariants!.map((v) => (v.sku === 'B' ? { ...v, spec: { ...v.spec, frame: 'float' } } : v));
    const second = (await itemEdits.editItem(after, ownerId, {
      variants: { next: again, expected: after.storedVariants, build: { input: {}, pipeline: 'showcase-variants', ids: ['var_other002'] } },
    }))!.variantBuildJobId!;
    await finish(second, 'completed', { variants: [{ id: 'var_other002', files: files(second, 'v/') }] });
    expect(await itemEdits.settleVariantBuild(second)).toMatchObject({ outcome: 'settled', replacedJobIds: [build] });
  });

  it('keeps a variant on its files with the error when its build fails; a superseded build is an orphan', async () => {
    const { ownerId, s, itemId, jobId } = await itemWithVariants();
    const item = (await showcaseItems.item(s.id, itemId))!;
    const first = (await itemEdits.editItem(item, ownerId, {
      variants: {
        next: item.storedVariants,
        expected: item.storedVariants,
        build: { input: {}, pipeline: 'showcase-variants', ids: ['var_other003'] },
      },
    }))!.variantBuildJobId!;
    const mid = (await showcaseItems.item(s.id, itemId))!;
    const second = (await itemEdits.editItem(mid, ownerId, {
      variants: {
        next: mid.storedVariants,
        expected: mid.storedVariants,
        build: { input: {}, pipeline: 'showcase-variants', ids: ['var_other003'] },
      },
    }))!.variantBuildJobId!;
    await finish(first, 'completed', { variants: [{ id: 'var_other003', files: files(first, 'v/') }] });
    expect(await itemEdits.settleVariantBuild(first)).toEqual({ outcome: 'orphan', status: 'completed' });
    await finish(second, 'failed', null);
    expect(await itemEdits.settleVariantBuild(second)).toMatchObject({ outcome: 'settled', status: 'failed', replacedJobIds: [second] });
    const after = (await showcaseItems.item(s.id, itemId))!;
    expect(after.variants![2]).toMatchObject({
      pending_job_id: null,
      error: { code: 'viewer_budget_exceeded', job_id: second },
      build: { job_id: jobId },
    });
  });
});
