import type { ItemChanges, ShowcaseItemRow, ShowcaseRow } from '@app/persistence';
import { ItemEdits } from './item-edits.service';

const showcase = { id: 7, ownerId: 'usr_1', publicId: 'shw_x', presentationDefaults: {} } as unknown as ShowcaseRow;
const FILES = 'v2_files';
const GLB = `models/${FILES}/model.glb`;

/** The service with in-memory stand-ins: what it asks the repository to write, what it admits and queues. (The routes: test/catalogue-edit.e2e-spec.ts.) */
function setup(opts: { status?: string; input?: Record<string, unknown>; pending?: Record<string, unknown>; staleTimes?: number } = {}) {
  const log: string[] = [];
  const writes: ItemChanges[] = [];
  const params: string[] = [];
  let stale = opts.staleTimes ?? 0;
  const item: ShowcaseItemRow = {
    id: 12,
    showcaseId: 7,
    jobId: FILES,
    source: 'url',
    sourceUrl: 'https://shop.example/a.jpg',
    filename: null,
    createdAt: new Date(),
    label: { artist: 'Hilma af Klint' },
    externalId: 'INV-1',
    availability: 'available',
    position: null,
    banner: null,
    pendingJobId: opts.pending ? 'v2_pending' : null,
    rebuildError: null,
    status: opts.status ?? 'completed',
    progress: 100,
    result: null,
    error: null,
    variants: null,
    storedVariants: null,
    embedId: 'emb_x',
  };
  const jobs: Record<string, { id: string; status: string; input: Record<string, unknown>; result: Record<string, unknown> | null }> = {
    [FILES]: {
      id: FILES,
      status: opts.status ?? 'completed',
      input: opts.input ?? {
        image_url: 'https://shop.example/a.jpg',
        showcase_id: 7,
        frame: 'thin',
        title: 'Dunes',
        width_inches: 30,
        height_inches: 40,
        fit: 'crop',
      },
      result: opts.status && opts.status !== 'completed' ? null : { files: { glb: { key: GLB } } },
    },
  };
  if (opts.pending) jobs.v2_pending = { id: 'v2_pending', status: 'queued', input: opts.pending, result: null };
  const repo = {
    item: async () => {
      log.push('re-read item');
      return item;
    },
    editItem: async (_i: unknown, _o: string, c: ItemChanges, param: string) => {
      if (stale-- > 0) {
        log.push('stale');
        return null;
      }
      writes.push(c);
      params.push(param);
      return { rebuildJobId: c.rebuild ? 'v2_rebuild' : null };
    },
  };
  const admission = {
    admit: async (owner: string) => {
      log.push(`admit ${owner}`);
      return 3;
    },
    enqueue: async (owner: string, ids: string[], before: number) => void log.push(`enqueue ${ids.join()} after ${before}`),
  };
  const svc = new ItemEdits(
    repo as never,
    repo as never,
    repo as never,
    { find: async (id: string) => jobs[id] ?? null } as never,
    { pipelineFor: () => 'showcase-picture' } as never,
    admission as never,
    {} as never,
    {} as never,
  );
  return { svc, item, log, writes, params };
}

describe('ItemEdits.apply', () => {
  it('writes label, availability and banner changes at once, without a job', async () => {
    const { svc, item, log, writes } = setup();
    const out = await svc.apply('usr_1', showcase, item, {
      artist: 'H. af Klint',
      availability: 'sold',
      price: '$90',
      external_id: 'INV-1',
    });
    expect(out).toEqual({ changed: true, rebuildJobId: null });
    expect(writes).toEqual([{ label: { artist: 'H. af Klint' }, availability: 'sold', banner: { title: 'Dunes', price: '$90' } }]);
    expect(log).toEqual([]);
  });

  it('calls an edit that sets what the item has unchanged, and writes nothing', async () => {
    const { svc, item, writes } = setup();
    const same = {
      artist: 'Hilma af Klint',
      external_id: 'INV-1',
      title: 'Dunes',
      frame: { style: 'thin' },
      width_inches: 30,
      height_inches: 40,
    };
    expect(await svc.apply('usr_1', showcase, item, same)).toEqual({ changed: false, rebuildJobId: null });
    expect(writes).toEqual([]);
  });

  it('rebuilds from the stored texture (the GLB as the upload, no source URL) with the merged size and frame, admitted and queued', async () => {
    const { svc, item, log, writes } = setup();
    const out = await svc.apply('usr_1', showcase, item, { width_cm: 101.6, height_cm: 76.2, frame: { style: 'classic', color: 'oak' } });
    expect(out).toEqual({ changed: true, rebuildJobId: 'v2_rebuild' });
    expect(writes[0].rebuild).toEqual({
      pipeline: 'showcase-picture',
      input: {
        upload_key: GLB,
        frame: { style: 'classic', color: 'oak' },
        title: 'Dunes',
        width_inches: 40,
        height_inches: 30,
        fit: 'crop',
        showcase_id: 7,
        rebuild: { item_id: 12, from_job: FILES },
      },
    });
    expect(log).toEqual(['admit usr_1', 'enqueue v2_rebuild after 3']);
  });

  it('merges over a pending rebuild, and drops it when the edit is back at what the files are', async () => {
    const pending = {
      upload_key: GLB,
      showcase_id: 7,
      frame: { style: 'classic' },
      title: 'Dunes',
      width_inches: 30,
      height_inches: 40,
      fit: 'crop',
    };
    const a = setup({ pending });
    await a.svc.apply('usr_1', showcase, a.item, { fit: 'stretch' });
    expect(a.writes[0].rebuild!.input).toMatchObject({ frame: { style: 'classic' }, fit: 'stretch' });
    const b = setup({ pending });
    expect(await b.svc.apply('usr_1', showcase, b.item, { frame: 'thin' })).toEqual({ changed: true, rebuildJobId: null });
    expect(b.writes).toEqual([{ dropPending: true }]);
    expect(b.log).toEqual([]);
  });

  it('makes the edit again when the item switched to a finished rebuild meanwhile', async () => {
    const { svc, item, log } = setup({ staleTimes: 1 });
    expect(await svc.apply('usr_1', showcase, item, { position: 2 })).toEqual({ changed: true, rebuildJobId: null });
    expect(log).toEqual(['stale', 're-read item']);
    const stuck = setup({ staleTimes: 5 });
    await expect(stuck.svc.apply('usr_1', showcase, stuck.item, { position: 2 })).rejects.toMatchObject({
      status: 409,
      code: 'item_changed',
    });
  });

  it('refuses a rebuild of a picture not converted (409), not its free fields; names fields with the prefix', async () => {
    const queued = setup({ status: 'queued' });
    await expect(queued.svc.apply('usr_1', showcase, queued.item, { frame: 'classic' })).rejects.toMatchObject({
      status: 409,
      code: 'item_not_ready',
    });
    expect(await queued.svc.apply('usr_1', showcase, queued.item, { availability: 'reserved' })).toMatchObject({ changed: true });
    const failed = setup({ status: 'failed' });
    await expect(failed.svc.apply('usr_1', showcase, failed.item, { width_inches: 10, height_inches: 10 })).rejects.toMatchObject({
      status: 409,
      code: 'item_failed',
    });
    const listed = setup();
    await expect(listed.svc.apply('usr_1', showcase, listed.item, { frame: 'gold' }, { prefix: 'items[3]' })).rejects.toMatchObject({
      param: 'items[3].frame.style',
    });
    await listed.svc.apply('usr_1', showcase, listed.item, { external_id: 'INV-2' }, { prefix: 'items[3].' });
    expect(listed.params).toEqual(['items[3].external_id']);
  });
});
