import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  ExternalIdTakenError,
  ItemEditRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type ShowcaseRow,
} from './index';

const free = { enforceSlots: false, showcaseCents: 0, pictureCents: 0 };
const opts = { pipeline: 'showcase-picture' };
const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });

/** Editing items in place: catalogue fields, banner, rebuilds and their switch, order. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('ItemEditRepository (and reordering items) on %s', (_name, open) => {
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

  /** A showcase with `n` items, their jobs completed. */
  async function withItems(n: number): Promise<{ ownerId: string; s: ShowcaseRow; ids: number[] }> {
    const u = await accounts.createUser({ email: `e${Date.now()}${Math.random()}@x.co` });
    const created = await showcases.create(
      showcase(u.id),
      Array.from({ length: n }, (_, i) => ({
        source: 'url' as const,
        sourceUrl: `https://example.com/${i}.jpg`,
        presentation: { frame: 'thin' },
      })),
      free,
      opts,
    );
    for (const it of created.items) await finish(it.jobId, 'completed');
    return { ownerId: u.id, s: created.showcase, ids: created.items.map((i) => i.id) };
  }

  async function finish(jobId: string, status: 'completed' | 'failed') {
    await ds.query(`UPDATE "jobs" SET "status" = $2, "result" = $3, "error" = $4, "finished_at" = now() WHERE "id" = $1`, [
      jobId,
      status,
      status === 'completed' ? JSON.stringify({ files: { glb: { key: `models/${jobId}/model.glb` } } }) : null,
      status === 'failed' ? JSON.stringify({ code: 'upload_missing', message: 'fetch: the uploaded file is no longer stored' }) : null,
    ]);
  }

  const publicId = async (jobId: string) => (await ds.query(`SELECT "public_id" FROM "jobs" WHERE "id" = $1`, [jobId]))[0]?.public_id;

  it('changes the catalogue fields and the banner in one update, only while the item serves the files it was read with', async () => {
    const { ownerId, s, ids } = await withItems(2);
    const item = (await showcaseItems.item(s.id, ids[0]))!;
    const out = await itemEdits.editItem(item, ownerId, {
      label: { artist: 'Hilma af Klint', year: '1907' },
      externalId: 'INV-1',
      availability: 'sold',
      position: 4,
      banner: { title: 'Dunes', price: '$120' },
    });
    expect(out).toEqual({ rebuildJobId: null, variantBuildJobId: null });
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({
      jobId: item.jobId,
      label: { artist: 'Hilma af Klint', year: '1907' },
      externalId: 'INV-1',
      availability: 'sold',
      position: 4,
      banner: { title: 'Dunes', price: '$120' },
      pendingJobId: null,
      rebuildError: null,
    });
    // Every reader of the item (views, pages) gets the edited banner in its result.
    expect((await showcaseItems.items(s.id))[0].result).toMatchObject({
      files: expect.any(Object),
      banner: { title: 'Dunes', price: '$120' },
    });
    // Absent fields stay; null clears.
    await itemEdits.editItem(item, ownerId, { externalId: null, position: null });
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({
      externalId: null,
      position: null,
      availability: 'sold',
      label: { artist: 'Hilma af Klint' },
    });

    // Another item's external_id: refused, naming the field asked for; nothing written.
    await itemEdits.editItem(item, ownerId, { externalId: 'INV-1' });
    const other = (await showcaseItems.item(s.id, ids[1]))!;
    const taken = itemEdits.editItem(other, ownerId, { externalId: 'INV-1', availability: 'reserved' }, 'items[3].external_id');
    await expect(taken).rejects.toBeInstanceOf(ExternalIdTakenError);
    await expect(taken).rejects.toMatchObject({ param: 'items[3].external_id' });
    expect((await showcaseItems.item(s.id, ids[1]))!.availability).toBe('available');

    // Read before a switch: nothing is written.
    expect(await itemEdits.editItem({ id: item.id, jobId: 'v2_not_its_job' }, ownerId, { availability: 'reserved' })).toBeNull();
    expect((await showcaseItems.item(s.id, ids[0]))!.availability).toBe('sold');
  });

  it('records a rebuild as pending, switches to it when it completes (the embed id moves along) and supersedes an older one', async () => {
    const { ownerId, s, ids } = await withItems(1);
    const item = (await showcaseItems.item(s.id, ids[0]))!;
    const embedId = item.embedId;
    const input = {
      upload_key: `models/${item.jobId}/model.glb`,
      frame: 'classic',
      width_inches: 40,
      height_inches: 30,
      showcase_id: s.id,
    };
    const first = (await itemEdits.editItem(item, ownerId, { rebuild: { input, pipeline: 'showcase-picture' } }))!.rebuildJobId!;
    expect(first).toMatch(/^v2_/);
    const job = (await ds.query(`SELECT * FROM "jobs" WHERE "id" = $1`, [first]))[0];
    expect(job).toMatchObject({ kind: 'v2.picture', pipeline: 'showcase-picture', owner_id: ownerId, status: 'queued' });
    expect(typeof job.input === 'string' ? JSON.parse(job.input) : job.input).toEqual(input);
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({ jobId: item.jobId, pendingJobId: first, embedId });
    expect(await showcaseItems.itemForJob(first)).toEqual({ id: item.id, showcaseId: s.id });
    expect(await itemEdits.settleRebuild(first)).toEqual({ outcome: 'running' });

    // A second edit supersedes it: only the last one switches.
    const second = (await itemEdits.editItem(item, ownerId, {
      rebuild: { input: { ...input, frame: 'thin' }, pipeline: 'showcase-picture' },
    }))!.rebuildJobId!;
    expect((await showcaseItems.item(s.id, ids[0]))!.pendingJobId).toBe(second);
    await finish(first, 'completed');
    expect(await itemEdits.finishedRebuilds()).not.toContain(first);
    expect(await itemEdits.settleRebuild(first)).toEqual({ outcome: 'orphan', status: 'completed' });
    expect((await showcaseItems.item(s.id, ids[0]))!.jobId).toBe(item.jobId);

    await finish(second, 'completed');
    expect(await itemEdits.finishedRebuilds()).toContain(second);
    const rebuildPublicId = await publicId(second);
    expect(await itemEdits.settleRebuild(second)).toEqual({ outcome: 'switched', itemId: item.id, replacedJobId: item.jobId });
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({ jobId: second, pendingJobId: null, embedId, status: 'completed' });
    expect(await publicId(item.jobId)).toBe(rebuildPublicId);
    // Listeners may run twice.
    expect(await itemEdits.settleRebuild(second)).toEqual({ outcome: 'in_use' });
    expect(await itemEdits.finishedRebuilds()).not.toContain(second);
  });

  it('keeps the files of a failed rebuild and reports it until the next rebuild; label edits keep the report', async () => {
    const { ownerId, s, ids } = await withItems(1);
    const item = (await showcaseItems.item(s.id, ids[0]))!;
    const rebuild = { input: { upload_key: `models/${item.jobId}/model.glb`, frame: 'canvas' }, pipeline: 'showcase-picture' };
    const id = (await itemEdits.editItem(item, ownerId, { rebuild }))!.rebuildJobId!;
    await finish(id, 'failed');
    expect(await itemEdits.settleRebuild(id)).toEqual({ outcome: 'failed', itemId: item.id });
    const failed = (await showcaseItems.item(s.id, ids[0]))!;
    expect(failed).toMatchObject({
      jobId: item.jobId,
      pendingJobId: null,
      label: {},
      rebuildError: { code: 'upload_missing', message: 'fetch: the uploaded file is no longer stored', jobId: id, at: expect.any(String) },
    });
    await itemEdits.editItem(item, ownerId, { label: { artist: 'A. Artist' } });
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({ label: { artist: 'A. Artist' }, rebuildError: { jobId: id } });
    await itemEdits.editItem(item, ownerId, { rebuild });
    expect(await showcaseItems.item(s.id, ids[0])).toMatchObject({ label: { artist: 'A. Artist' }, rebuildError: null });
    // Back to the files it has: the pending rebuild is dropped.
    await itemEdits.editItem(item, ownerId, { dropPending: true });
    expect((await showcaseItems.item(s.id, ids[0]))!.pendingJobId).toBeNull();
  });

  it('orders the given items 0..n-1 in one transaction and refuses an id that is not one of the showcase items', async () => {
    const { s, ids } = await withItems(3);
    const other = await withItems(1);
    expect(await showcaseItems.reorderItems(s.id, [ids[2], ids[0]])).toEqual({ unknownAt: null });
    expect((await showcaseItems.items(s.id)).map((i) => [i.id, i.position])).toEqual([
      [ids[2], 0],
      [ids[0], 1],
      [ids[1], null],
    ]);
    expect(await showcaseItems.reorderItems(s.id, [ids[1], other.ids[0], ids[0]])).toEqual({ unknownAt: 1 });
    expect((await showcaseItems.items(s.id)).map((i) => i.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(await showcaseItems.reorderItems(s.id, [ids[1], ids[0], ids[2]])).toEqual({ unknownAt: null });
    expect((await showcaseItems.items(s.id)).map((i) => [i.id, i.position])).toEqual([
      [ids[1], 0],
      [ids[0], 1],
      [ids[2], 2],
    ]);
  });
});
